//! Member privileges given, not only shown (issue 34 item 10; docs/loyalty.md "Privileges").
//! A level's privilege codes say what its members get: the birthday treat and the monthly free
//! deliveries are coupons issued under period keys (`domain::loyalty::privileges`), by the
//! periodic job on every node and when the member reads their member centre or coupons, both
//! through the same compare-and-set (`db::privileges`); priority is decided at submit and kept
//! on the order.

use super::Loyalty;
use crate::clock::Clock;
use crate::db::coupons::IssueError;
use crate::db::members::{LevelRow, MemberRepo};
use crate::db::privileges::{Granted, Holder, PrivilegeRepo};
use crate::db::{Db, DbError};
use crate::domain::loyalty::privileges::{
    birthday_key, birthday_key_shape, birthday_standing, due, free_delivery_key_shapes,
    free_delivery_keys, from_codes, made_first, ChinaMonth, Privilege, Standing,
};
use std::collections::BTreeMap;

/// Members looked at per privilege and run; the next run takes the rest.
const BATCH: i64 = 500;

/// What one run issued: grants (a birthday treat, a month's free deliveries) made now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GrantRun {
    pub birthday_treats: usize,
    pub delivery_months: usize,
}

impl GrantRun {
    fn add(&mut self, privilege: Privilege) {
        match privilege {
            Privilege::Birthday => self.birthday_treats += 1,
            Privilege::FreeDelivery => self.delivery_months += 1,
            Privilege::Points | Privilege::Priority => {}
        }
    }
}

#[derive(Clone, Debug)]
pub struct Privileges {
    db: Db,
    clock: Clock,
}

impl Loyalty {
    pub fn privileges(&self) -> Privileges {
        Privileges {
            db: self.db.clone(),
            clock: self.clock.clone(),
        }
    }
}

/// The privileges a level's codes name.
fn privileges_of(levels: &[LevelRow], level: i64) -> Vec<Privilege> {
    levels
        .iter()
        .find(|l| l.level == level)
        .map(|l| from_codes(l.privileges.iter().map(|p| p.code.as_str())))
        .unwrap_or_default()
}

/// The levels whose codes name `privilege`.
fn levels_with(levels: &[LevelRow], privilege: Privilege) -> Vec<i64> {
    levels
        .iter()
        .filter(|l| privileges_of(levels, l.level).contains(&privilege))
        .map(|l| l.level)
        .collect()
}

impl Privileges {
    fn repo(&self) -> PrivilegeRepo {
        PrivilegeRepo::new(self.db.clone())
    }

    async fn levels(&self) -> Result<Vec<LevelRow>, DbError> {
        MemberRepo::new(self.db.clone()).levels().await
    }

    /// The job: every member due a grant now (born this month at a birthday level and without
    /// this year's treat; at a free-delivery level without this month's coupons) gets it. Safe
    /// on every node at once: each grant is the ledger's compare-and-set.
    pub async fn grant_due(&self) -> Result<GrantRun, DbError> {
        let now = self.clock.now_ms();
        let levels = self.levels().await?;
        let month = ChinaMonth::at(now);
        let repo = self.repo();
        let mut holders: BTreeMap<i64, Holder> = BTreeMap::new();
        let born_here = repo
            .lacking(
                &levels_with(&levels, Privilege::Birthday),
                &birthday_key_shape(month.year),
                Some(month.month),
                BATCH,
            )
            .await?;
        // Both coupons of a month issue together: lacking the first is lacking the month.
        let deliveries = match free_delivery_key_shapes(month).first() {
            Some(shape) => {
                repo.lacking(
                    &levels_with(&levels, Privilege::FreeDelivery),
                    shape,
                    None,
                    BATCH,
                )
                .await?
            }
            None => Vec::new(),
        };
        for h in born_here.into_iter().chain(deliveries) {
            holders.insert(h.user_id, h);
        }
        let mut run = GrantRun::default();
        for holder in holders.values() {
            match self.grant_to(holder, &levels, now).await {
                Ok(made) => made.into_iter().for_each(|p| run.add(p)),
                Err(e) => {
                    tracing::warn!(error = %e, user_id = holder.user_id, "privilege grant left for the next run")
                }
            }
        }
        Ok(run)
    }

    /// One member's due grants now (they opened their member centre or coupons, so they see
    /// this period's coupons at once): the job's rule and compare-and-set.
    pub async fn grant_due_for(&self, user_id: i64) -> Result<GrantRun, IssueError> {
        let mut run = GrantRun::default();
        let Some(holder) = self.repo().holder(user_id).await? else {
            return Ok(run);
        };
        let levels = self.levels().await?;
        let now = self.clock.now_ms();
        for p in self.grant_to(&holder, &levels, now).await? {
            run.add(p);
        }
        Ok(run)
    }

    /// Issues what `holder` is due and lacks; answers the privileges granted now.
    async fn grant_to(
        &self,
        holder: &Holder,
        levels: &[LevelRow],
        now: i64,
    ) -> Result<Vec<Privilege>, IssueError> {
        let repo = self.repo();
        let privileges = privileges_of(levels, holder.level);
        let mut made = Vec::new();
        for grant in due(&privileges, holder.user_id, holder.birthday.as_deref(), now) {
            // A read first: a period already given costs no write (and no template lock).
            if !repo.issued(&grant.keys).await?.is_empty() {
                continue;
            }
            let granted = repo
                .grant(grant.template_code, holder.user_id, &grant.keys, now)
                .await?;
            if let Granted::Now(coupons) = granted {
                tracing::info!(
                    user_id = holder.user_id,
                    privilege = grant.privilege.code(),
                    coupons = coupons.len(),
                    "privilege granted"
                );
                made.push(grant.privilege);
            }
        }
        Ok(made)
    }

    /// The member as the privileges see them (None: not a member, or the account is closed).
    pub async fn holder(&self, user_id: i64) -> Result<Option<Holder>, DbError> {
        self.repo().holder(user_id).await
    }

    /// Whether an order the member (as [`holder`](Self::holder) read them) submits now is
    /// made first: their level's privileges now; the order keeps the answer.
    pub async fn made_first_for(&self, holder: Option<&Holder>) -> Result<bool, DbError> {
        let Some(holder) = holder else {
            return Ok(false);
        };
        Ok(made_first(&privileges_of(
            &self.levels().await?,
            holder.level,
        )))
    }

    /// Where the member stands with each privilege of their level, in the level's order
    /// (empty for a non-member). What the ledger holds is what is said.
    pub async fn standings(&self, user_id: i64) -> Result<Vec<(Privilege, Standing)>, DbError> {
        let repo = self.repo();
        let Some(holder) = repo.holder(user_id).await? else {
            return Ok(Vec::new());
        };
        let now = self.clock.now_ms();
        let month = ChinaMonth::at(now);
        let mut out = Vec::new();
        for p in privileges_of(&self.levels().await?, holder.level) {
            let standing = match p {
                Privilege::Points => Standing::Described,
                Privilege::Priority => Standing::Priority,
                Privilege::Birthday => {
                    let key = birthday_key(user_id, month.year);
                    let issued = !repo.issued(&[key]).await?.is_empty();
                    birthday_standing(holder.birthday.as_deref(), issued, now)
                }
                Privilege::FreeDelivery => {
                    let coupons = repo.issued(&free_delivery_keys(user_id, month)).await?;
                    let usable = coupons.iter().filter(|c| c.usable_at(now)).count();
                    Standing::Deliveries {
                        issued: u32::try_from(coupons.len()).unwrap_or(u32::MAX),
                        usable: u32::try_from(usable).unwrap_or(u32::MAX),
                    }
                }
            };
            out.push((p, standing));
        }
        Ok(out)
    }
}
