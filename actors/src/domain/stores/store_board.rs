//! What a store's staff set live from the tablet, laid over the catalogue's store: open, busy
//! or closed with a notice, and the sold-out ("86") products. Pure rules; the board service
//! (`crate::stores`) keeps and announces them.

use crate::domain::catalogue::{Bilingual, Store, StoreStatus};

/// Busy lengthens every promise the store makes (delivery and ready times, and the ETA built
/// on them) by this much: a kitchen that says it is busy is not held to its quiet-hour times.
pub const BUSY_EXTRA_MINUTES: u32 = 15;

/// Longest notice staff may type (it is shown on the menu and the store card).
pub const NOTICE_MAX_CHARS: usize = 100;

/// The live state of one store as the staff left it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StoreLive {
    /// None: the staff never set one; the catalogue's status stands.
    pub status: Option<StoreStatus>,
    pub notice: Option<String>,
    /// Sorted: product codes, and the keys of 86ed ingredients (`ingredient:CODE`: sauces, base
    /// and extra toppings) and flavours (`flavor:CODE`), see [`SoldOutItem::key`].
    pub sold_out: Vec<String>,
}

/// A store's board at a version: what its StoreActor holds and lends to readers. The version
/// is the database's (`store_board_versions`), bumped with every change; 0: never changed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Board {
    pub version: i64,
    pub live: StoreLive,
}

/// What staff can mark sold out: a product, or an ingredient or a flavour wherever it is used
/// (issue 22). One list holds them all, each under its [`key`](SoldOutItem::key): a product by
/// its code (as before), the others with a prefix no product code has (codes are letters and
/// digits), so the stored rows, the board and `store:update` keep their shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SoldOutItem {
    Product(String),
    /// A sauce, base or extra topping, by its code.
    Ingredient(String),
    /// A flavour of multi-flavour and half-and-half pizzas, by its code.
    Flavor(String),
}

pub const INGREDIENT_KEY: &str = "ingredient:";
pub const FLAVOR_KEY: &str = "flavor:";

impl SoldOutItem {
    /// The entry in the sold-out list (and the stored row's code).
    pub fn key(&self) -> String {
        match self {
            SoldOutItem::Product(code) => code.clone(),
            SoldOutItem::Ingredient(code) => format!("{INGREDIENT_KEY}{code}"),
            SoldOutItem::Flavor(code) => format!("{FLAVOR_KEY}{code}"),
        }
    }
}

pub fn ingredient_key(code: &str) -> String {
    SoldOutItem::Ingredient(code.to_string()).key()
}

pub fn flavor_key(code: &str) -> String {
    SoldOutItem::Flavor(code.to_string()).key()
}

impl StoreLive {
    pub fn is_sold_out(&self, product_code: &str) -> bool {
        self.sold_out
            .binary_search_by(|c| c.as_str().cmp(product_code))
            .is_ok()
    }

    pub fn ingredient_out(&self, code: &str) -> bool {
        self.is_sold_out(&ingredient_key(code))
    }

    pub fn flavor_out(&self, code: &str) -> bool {
        self.is_sold_out(&flavor_key(code))
    }
}

pub fn status_name(status: StoreStatus) -> &'static str {
    match status {
        StoreStatus::Open => "open",
        StoreStatus::Busy => "busy",
        StoreStatus::Closed => "closed",
    }
}

pub fn parse_status(text: &str) -> Option<StoreStatus> {
    match text {
        "open" => Some(StoreStatus::Open),
        "busy" => Some(StoreStatus::Busy),
        "closed" => Some(StoreStatus::Closed),
        _ => None,
    }
}

/// A notice as staff typed it, without hidden characters: trimmed, empty means none; too long
/// is refused.
pub fn clean_notice(text: Option<&str>) -> Result<Option<String>, NoticeTooLong> {
    // Customers read it: invisible and bidi characters are dropped (NUL among them, which
    // PostgreSQL cannot store), but the staff's line breaks are theirs to keep.
    let text: Option<String> = text.map(|t| {
        t.chars()
            .filter(|c| *c == '\n' || !crate::domain::accounts::validators::is_hidden_char(*c))
            .collect()
    });
    let Some(text) = text.as_deref().map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    if text.chars().count() > NOTICE_MAX_CHARS {
        return Err(NoticeTooLong);
    }
    Ok(Some(text.to_owned()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoticeTooLong;

/// The store as customers meet it now: the staff's status and notice over the catalogue's,
/// with busy promises lengthened. The staff's notice is one text, shown in both languages.
pub fn effective_store(store: &Store, live: &StoreLive) -> Store {
    let mut out = store.clone();
    let Some(status) = live.status else {
        return out;
    };
    out.status = status;
    let notice = live.notice.as_ref().map(|n| Bilingual {
        cn: n.clone(),
        en: n.clone(),
    });
    match status {
        StoreStatus::Closed => {
            out.stop_store_notice = notice.or_else(|| Some(default_closed_notice()));
        }
        StoreStatus::Busy => {
            out.delivery_time += BUSY_EXTRA_MINUTES;
            out.estimate_time += BUSY_EXTRA_MINUTES;
            out.stop_store_notice = None;
            out.business_notice = notice.or_else(|| Some(default_busy_notice()));
        }
        StoreStatus::Open => {
            out.stop_store_notice = None;
            out.business_notice = notice;
        }
    }
    out
}

fn default_closed_notice() -> Bilingual {
    Bilingual {
        cn: "门店暂停营业，请重新选择门店".into(),
        en: "This store is temporarily closed; please choose another store".into(),
    }
}

fn default_busy_notice() -> Bilingual {
    Bilingual {
        cn: format!("门店繁忙，出餐时间将延长约{BUSY_EXTRA_MINUTES}分钟"),
        en: format!("The store is busy: orders take about {BUSY_EXTRA_MINUTES} minutes longer"),
    }
}

/// The notice the tablet and `store:update` show: the staff's, else the catalogue's for the
/// effective status.
pub fn shown_notice(store: &Store) -> Option<String> {
    match store.status {
        StoreStatus::Closed => store.stop_store_notice.as_ref(),
        _ => store.business_notice.as_ref(),
    }
    .map(|n| n.cn.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::catalogue::virtual_store;

    fn test_store(code: &str) -> Store {
        let mut s = virtual_store(None);
        s.store_code = code.into();
        s
    }

    fn live(status: Option<StoreStatus>, notice: Option<&str>) -> StoreLive {
        StoreLive {
            status,
            notice: notice.map(String::from),
            sold_out: vec![],
        }
    }

    /// (live, status, delivery time, stop notice, business notice)
    type Case = (
        StoreLive,
        StoreStatus,
        u32,
        Option<&'static str>,
        Option<&'static str>,
    );

    #[test]
    fn the_staff_status_lies_over_the_catalogue() {
        let base = test_store("SH001");
        let cases: Vec<Case> = vec![
            (StoreLive::default(), StoreStatus::Open, 30, None, None),
            (
                live(Some(StoreStatus::Open), Some("今日新品")),
                StoreStatus::Open,
                30,
                None,
                Some("今日新品"),
            ),
            (
                live(Some(StoreStatus::Busy), None),
                StoreStatus::Busy,
                45,
                None,
                Some("门店繁忙，出餐时间将延长约15分钟"),
            ),
            (
                live(Some(StoreStatus::Busy), Some("排队中")),
                StoreStatus::Busy,
                45,
                None,
                Some("排队中"),
            ),
            (
                live(Some(StoreStatus::Closed), None),
                StoreStatus::Closed,
                30,
                Some("门店暂停营业，请重新选择门店"),
                None,
            ),
            (
                live(Some(StoreStatus::Closed), Some("装修中")),
                StoreStatus::Closed,
                30,
                Some("装修中"),
                None,
            ),
        ];
        for (live, status, delivery, stop, business) in cases {
            let s = effective_store(&base, &live);
            assert_eq!(s.status, status, "{live:?}");
            assert_eq!(s.delivery_time, delivery, "{live:?}");
            assert_eq!(
                s.stop_store_notice.map(|n| n.cn).as_deref(),
                stop,
                "{live:?}"
            );
            assert_eq!(
                s.business_notice.map(|n| n.cn).as_deref(),
                business,
                "{live:?}"
            );
        }
    }

    #[test]
    fn busy_lengthens_pickup_too() {
        let base = test_store("SH001");
        let s = effective_store(&base, &live(Some(StoreStatus::Busy), None));
        assert_eq!(s.estimate_time, base.estimate_time + BUSY_EXTRA_MINUTES);
    }

    #[test]
    fn reopening_clears_a_catalogue_closure() {
        let mut base = test_store("SH006");
        base.status = StoreStatus::Closed;
        base.stop_store_notice = Some(Bilingual {
            cn: "暂停营业".into(),
            en: "Closed".into(),
        });
        let s = effective_store(&base, &live(Some(StoreStatus::Open), None));
        assert_eq!(s.status, StoreStatus::Open);
        assert_eq!(s.stop_store_notice, None);
        assert_eq!(
            effective_store(&base, &StoreLive::default()).status,
            StoreStatus::Closed
        );
    }

    #[test]
    fn notices_and_statuses_parse() {
        assert_eq!(clean_notice(None), Ok(None));
        assert_eq!(clean_notice(Some("  ")), Ok(None));
        assert_eq!(clean_notice(Some(" 装修 ")), Ok(Some("装修".into())));
        assert_eq!(
            clean_notice(Some(&"长".repeat(100))).map(|n| n.map(|n| n.chars().count())),
            Ok(Some(100))
        );
        assert_eq!(clean_notice(Some(&"长".repeat(101))), Err(NoticeTooLong));
        assert_eq!(
            clean_notice(Some("午高峰\u{0}\n稍候\u{7}")),
            Ok(Some("午高峰\n稍候".into()))
        );
        assert_eq!(clean_notice(Some("\u{0}\u{1}")), Ok(None));
        for s in ["open", "busy", "closed"] {
            assert_eq!(parse_status(s).map(status_name), Some(s));
        }
        assert_eq!(parse_status("OPEN"), None);
    }

    #[test]
    fn sold_out_lookup() {
        let l = StoreLive {
            status: None,
            notice: None,
            sold_out: vec!["DR001".into(), "PZ001".into()],
        };
        assert!(l.is_sold_out("PZ001"));
        assert!(!l.is_sold_out("PZ002"));
    }

    #[test]
    fn sold_out_keys_keep_kinds_apart() {
        use SoldOutItem::*;
        assert_eq!(Product("PZ001".into()).key(), "PZ001");
        assert_eq!(
            Ingredient("B-MUSHROOM".into()).key(),
            "ingredient:B-MUSHROOM"
        );
        assert_eq!(Flavor("F-SUPREME".into()).key(), "flavor:F-SUPREME");
        let mut sold_out = vec![
            Ingredient("B-MUSHROOM".into()).key(),
            Flavor("F-SUPREME".into()).key(),
            Product("DR001".into()).key(),
        ];
        sold_out.sort();
        let live = StoreLive {
            status: None,
            notice: None,
            sold_out,
        };
        assert!(live.is_sold_out("DR001"));
        assert!(live.ingredient_out("B-MUSHROOM") && live.flavor_out("F-SUPREME"));
        // A code of one kind is not another kind's.
        assert!(!live.is_sold_out("B-MUSHROOM") && !live.flavor_out("B-MUSHROOM"));
        assert!(!live.ingredient_out("F-SUPREME") && !live.ingredient_out("DR001"));
    }
}
