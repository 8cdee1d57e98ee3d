//! What reconciliation reads and writes: our payments for a day, the runs' reports
//! (`reconcile_runs`) and the daily job's claim on its day (`reconcile_days`, migration 0009).

use super::{OurPayment, Report};
use crate::db::{Db, DbError};
use crate::domain::money::Fen;
use crate::payments::PaymentService;
use sqlx::Row;
use std::collections::HashSet;

/// A claim on a day whose run never finished (the node died) may be taken over after this.
pub const STALE_CLAIM_MS: i64 = 60 * 60_000;

/// Our payments created in `[from, to)`, and those `named` (by the day's statement) that were
/// created before. Read from the payments table as the payment service keeps it.
pub async fn our_payments(
    db: &Db,
    service: &PaymentService,
    from: i64,
    to: i64,
    named: &[String],
) -> Result<Vec<OurPayment>, DbError> {
    let rows = sqlx::query(
        "SELECT payment_id, order_no, amount, state, refunded, provider_trade_no, created_at \
         FROM payments WHERE created_at >= $1 AND created_at < $2",
    )
    .bind(from)
    .bind(to)
    .fetch_all(db.pool())
    .await?;
    let mut out = rows
        .iter()
        .map(|r| {
            Ok(OurPayment {
                payment_id: r.try_get("payment_id")?,
                order_no: r.try_get("order_no")?,
                amount: Fen(r.try_get("amount")?),
                state: crate::db::payments::read_state(r)?,
                refunded: Fen(r.try_get("refunded")?),
                trade_no: r.try_get("provider_trade_no")?,
                created_at: r.try_get("created_at")?,
            })
        })
        .collect::<Result<Vec<_>, DbError>>()?;
    let mut have: HashSet<String> = out.iter().map(|p| p.payment_id.clone()).collect();
    for id in named {
        if !have.insert(id.clone()) {
            continue;
        }
        if let Some(p) = service.repo().get(id).await? {
            out.push(OurPayment {
                payment_id: p.payment_id,
                order_no: p.order_no,
                amount: p.amount,
                state: p.state,
                refunded: p.refunded,
                trade_no: p.provider_trade_no,
                created_at: p.created_at,
            });
        }
    }
    Ok(out)
}

/// A recorded run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRow {
    pub run_id: String,
    pub day: String,
    pub started_by: String,
    pub started_at: i64,
    pub finished_at: i64,
    pub matched: i64,
    pub repaired: i64,
    pub unresolved: i64,
    pub report: Report,
}

#[derive(Clone, Debug)]
pub struct RunRepo {
    db: Db,
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl RunRepo {
    pub fn new(db: Db) -> RunRepo {
        RunRepo { db }
    }

    /// Records a run's report; answers its id.
    pub async fn record(
        &self,
        report: &Report,
        started_by: &str,
        started_at: i64,
        finished_at: i64,
    ) -> Result<String, DbError> {
        let run_id = uuid::Uuid::new_v4().simple().to_string();
        sqlx::query(
            "INSERT INTO reconcile_runs (run_id, day, started_by, started_at, finished_at, \
             matched, repaired, unresolved, findings) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&run_id)
        .bind(&report.day)
        .bind(started_by)
        .bind(started_at)
        .bind(finished_at)
        .bind(count(report.matched))
        .bind(count(report.repaired()))
        .bind(count(report.unresolved()))
        .bind(serde_json::to_string(report)?)
        .execute(self.db.pool())
        .await?;
        Ok(run_id)
    }

    /// The runs of a day, oldest first.
    pub async fn runs_of(&self, day: &str) -> Result<Vec<RunRow>, DbError> {
        let rows = sqlx::query(
            "SELECT run_id, day, started_by, started_at, finished_at, matched, repaired, \
             unresolved, findings FROM reconcile_runs WHERE day = $1 ORDER BY started_at, run_id",
        )
        .bind(day)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RunRow {
                    run_id: r.try_get("run_id")?,
                    day: r.try_get("day")?,
                    started_by: r.try_get("started_by")?,
                    started_at: r.try_get("started_at")?,
                    finished_at: r.try_get("finished_at")?,
                    matched: r.try_get("matched")?,
                    repaired: r.try_get("repaired")?,
                    unresolved: r.try_get("unresolved")?,
                    report: serde_json::from_str(&r.try_get::<String, _>("findings")?)?,
                })
            })
            .collect()
    }

    /// Claims `day` for the daily job: true for the one caller that gets it (a new claim, or
    /// one left unfinished for [`STALE_CLAIM_MS`] by a node that died).
    pub async fn claim_day(&self, day: &str, now: i64) -> Result<bool, DbError> {
        let inserted = sqlx::query("INSERT INTO reconcile_days (day, claimed_at) VALUES ($1, $2)")
            .bind(day)
            .bind(now)
            .execute(self.db.pool())
            .await;
        match inserted {
            Ok(_) => return Ok(true),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {}
            Err(e) => return Err(e.into()),
        }
        let taken = sqlx::query(
            "UPDATE reconcile_days SET claimed_at = $1 WHERE day = $2 AND finished_at IS NULL \
             AND claimed_at < $3",
        )
        .bind(now)
        .bind(day)
        .bind(now - STALE_CLAIM_MS)
        .execute(self.db.pool())
        .await?;
        Ok(taken.rows_affected() == 1)
    }

    /// The day's job is done.
    pub async fn finish_day(&self, day: &str, now: i64) -> Result<(), DbError> {
        sqlx::query("UPDATE reconcile_days SET finished_at = $1 WHERE day = $2")
            .bind(now)
            .bind(day)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }
}
