//! Member privileges (issue 34 item 10; docs/loyalty.md "Privileges"): what a level's privilege
//! codes give, the China calendar periods they are given in, the business keys that make each
//! period's coupons issue once, and the words the member centre says about what a member has.
//! Pure: the grants are written by `db::privileges` through the coupon ledger.
//!
//! - 生日礼 (`birthday`): one free side (an exchange coupon) per China calendar year, issued in
//!   the member's birthday month (China time), valid until that month ends. The key is per year,
//!   so a birthday set or changed inside the year never yields a second treat.
//! - 免配送费 (`delivery`): two free-delivery coupons per China calendar month, valid until the
//!   month ends; a member reaching the level mid-month gets that month's.
//! - 优先制作 (`priority`): an order submitted at such a level is flagged and made first.

use crate::domain::lang::Lang;
use crate::domain::stores::hours::{china_offset, china_time};
use chrono::{Datelike, Month, NaiveDate, TimeZone};

/// The birthday treat's coupon template: an exchange coupon for one side (seed coupons.json).
pub const BIRTHDAY_TEMPLATE: &str = "CP_BIRTHDAY_SIDE";
/// The monthly free deliveries' coupon template: free delivery with no threshold.
pub const FREE_DELIVERY_TEMPLATE: &str = "CP_MEMBER_FREE_DELIVERY";
/// Free-delivery coupons a month.
pub const FREE_DELIVERIES_PER_MONTH: u32 = 2;

/// A privilege a level may list (its `code` in the level's privileges).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Privilege {
    /// Points at the level's rate (the ledger earns them; nothing to grant here).
    Points,
    Birthday,
    FreeDelivery,
    Priority,
}

impl Privilege {
    pub const ALL: [Privilege; 4] = [
        Privilege::Points,
        Privilege::Birthday,
        Privilege::FreeDelivery,
        Privilege::Priority,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Privilege::Points => "points",
            Privilege::Birthday => "birthday",
            Privilege::FreeDelivery => "delivery",
            Privilege::Priority => "priority",
        }
    }

    pub fn parse(code: &str) -> Option<Privilege> {
        Privilege::ALL.into_iter().find(|p| p.code() == code)
    }
}

/// The privileges named by a level's codes (unknown codes are shown but give nothing).
pub fn from_codes<'a>(codes: impl IntoIterator<Item = &'a str>) -> Vec<Privilege> {
    codes.into_iter().filter_map(Privilege::parse).collect()
}

/// A calendar month in China time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ChinaMonth {
    pub year: i32,
    /// 1–12.
    pub month: u32,
}

impl ChinaMonth {
    /// The China month holding the instant (UTC 16:00 on a month's last day is already the
    /// next month in China).
    pub fn at(epoch_ms: i64) -> ChinaMonth {
        let t = china_time(epoch_ms);
        ChinaMonth {
            year: t.year(),
            month: t.month(),
        }
    }

    pub fn next(self) -> ChinaMonth {
        if self.month >= 12 {
            ChinaMonth {
                year: self.year + 1,
                month: 1,
            }
        } else {
            ChinaMonth {
                year: self.year,
                month: self.month + 1,
            }
        }
    }

    /// "2026-11": the period of the monthly keys.
    pub fn key(self) -> String {
        format!("{:04}-{:02}", self.year, self.month)
    }

    /// The first millisecond of the month, China time.
    pub fn start_ms(self) -> i64 {
        NaiveDate::from_ymd_opt(self.year, self.month, 1)
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .and_then(|t| china_offset().from_local_datetime(&t).single())
            .map_or(i64::MAX, |t| t.timestamp_millis())
    }

    /// The end of the month (exclusive): the first millisecond of the next one.
    pub fn end_ms(self) -> i64 {
        self.next().start_ms()
    }
}

/// A business key with the user id left out: `prefix<user id>suffix`. The job's query finds
/// the members whose key is not issued yet with the same parts, so the key is written once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyShape {
    pub prefix: &'static str,
    pub suffix: String,
}

impl KeyShape {
    pub fn key(&self, user_id: i64) -> String {
        format!("{}{user_id}{}", self.prefix, self.suffix)
    }
}

/// The birthday treat's key, `birthday:<user>:<year>`: one per member and China calendar year.
pub fn birthday_key_shape(year: i32) -> KeyShape {
    KeyShape {
        prefix: "birthday:",
        suffix: format!(":{year}"),
    }
}

pub fn birthday_key(user_id: i64, year: i32) -> String {
    birthday_key_shape(year).key(user_id)
}

/// The month's free deliveries' keys, `free-delivery:<user>:<YYYY-MM>:<n>` for n = 1, 2: one per
/// coupon, issued together.
pub fn free_delivery_key_shapes(month: ChinaMonth) -> Vec<KeyShape> {
    (1..=FREE_DELIVERIES_PER_MONTH)
        .map(|n| KeyShape {
            prefix: "free-delivery:",
            suffix: format!(":{}:{n}", month.key()),
        })
        .collect()
}

pub fn free_delivery_keys(user_id: i64, month: ChinaMonth) -> Vec<String> {
    free_delivery_key_shapes(month)
        .iter()
        .map(|s| s.key(user_id))
        .collect()
}

/// The month of a stored birthday ("YYYY-MM-DD"); None when unset or unreadable.
pub fn birthday_month(birthday: Option<&str>) -> Option<u32> {
    let date = NaiveDate::parse_from_str(birthday?.trim(), "%Y-%m-%d").ok()?;
    Some(date.month())
}

/// Whether `now` falls in the member's birthday month, China time. Only the month counts, so
/// a birthday on 29 February has its month in common years too.
pub fn is_birthday_month(birthday: Option<&str>, now_ms: i64) -> bool {
    birthday_month(birthday) == Some(ChinaMonth::at(now_ms).month)
}

/// Coupons a privilege gives for one period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub privilege: Privilege,
    pub template_code: &'static str,
    /// One business key per coupon; issued together or not at all.
    pub keys: Vec<String>,
}

/// What a member holding `privileges` is due at `now`: the birthday treat in the birthday
/// month, this month's free deliveries. Whether a key was already issued is the ledger's
/// business (its unique key), not this rule's.
pub fn due(privileges: &[Privilege], user_id: i64, birthday: Option<&str>, now: i64) -> Vec<Grant> {
    let mut out = Vec::new();
    if privileges.contains(&Privilege::Birthday) && is_birthday_month(birthday, now) {
        out.push(Grant {
            privilege: Privilege::Birthday,
            template_code: BIRTHDAY_TEMPLATE,
            keys: vec![birthday_key(user_id, ChinaMonth::at(now).year)],
        });
    }
    if privileges.contains(&Privilege::FreeDelivery) {
        out.push(Grant {
            privilege: Privilege::FreeDelivery,
            template_code: FREE_DELIVERY_TEMPLATE,
            keys: free_delivery_keys(user_id, ChinaMonth::at(now)),
        });
    }
    out
}

/// Whether an order submitted by a member holding `privileges` is made first.
pub fn made_first(privileges: &[Privilege]) -> bool {
    privileges.contains(&Privilege::Priority)
}

/// Where a member stands with a privilege, as the member centre tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Nothing to say beyond the description.
    Described,
    /// No birthday in the profile.
    NoBirthday,
    /// This year's treat was issued: `this_month` when the member is in their birthday month.
    TreatGiven {
        this_month: bool,
    },
    /// The birthday month (1–12) has not come yet, or came before the treat could be issued.
    TreatInMonth {
        month: u32,
    },
    /// This month's free deliveries: how many were issued and how many are still usable.
    Deliveries {
        issued: u32,
        usable: u32,
    },
    Priority,
}

impl Standing {
    pub fn text(self, lang: Lang) -> Option<String> {
        let zh = lang == Lang::Zh;
        Some(match self {
            Standing::Described => return None,
            Standing::NoBirthday if zh => "请在个人资料中填写生日，生日当月发放".into(),
            Standing::NoBirthday => "Add your birthday to your profile to get it that month".into(),
            Standing::TreatGiven { this_month: true } if zh => {
                "本月生日礼已发放，请在优惠券中查看".into()
            }
            Standing::TreatGiven { this_month: true } => {
                "This month's birthday treat is in your coupons".into()
            }
            Standing::TreatGiven { .. } if zh => "今年的生日礼已发放".into(),
            Standing::TreatGiven { .. } => "This year's birthday treat has been given".into(),
            Standing::TreatInMonth { month } if zh => format!("生日当月（{month}月）发放"),
            Standing::TreatInMonth { month } => {
                let name = u8::try_from(month)
                    .ok()
                    .and_then(|m| Month::try_from(m).ok())
                    .map_or_else(String::new, |m| m.name().to_string());
                format!("Given in your birthday month ({name})")
            }
            Standing::Deliveries { issued: 0, .. } if zh => "本月的免配送费券即将发放".into(),
            Standing::Deliveries { issued: 0, .. } => {
                "This month's free-delivery coupons are on their way".into()
            }
            Standing::Deliveries { issued, usable } if zh => {
                format!("本月 {issued} 张免配送费券已发放，可用 {usable} 张")
            }
            Standing::Deliveries { issued, usable } => {
                format!("This month's {issued} free-delivery coupons are in your coupons, {usable} left to use")
            }
            Standing::Priority if zh => "每笔订单自动享有，无需操作".into(),
            Standing::Priority => "Every order you place has it, nothing to do".into(),
        })
    }
}

/// The birthday treat's standing: `issued_this_year` says whether this year's key issued.
pub fn birthday_standing(birthday: Option<&str>, issued_this_year: bool, now: i64) -> Standing {
    let in_month = is_birthday_month(birthday, now);
    match birthday_month(birthday) {
        _ if issued_this_year => Standing::TreatGiven {
            this_month: in_month,
        },
        None => Standing::NoBirthday,
        Some(month) => Standing::TreatInMonth { month },
    }
}

#[cfg(test)]
#[path = "privileges_tests.rs"]
mod tests;
