//! The loyalty programme's pure rules (issue 23, spec account §1–§4): the level from qualifying
//! spend, points earned on a paid amount, when a lot expires, which lots a spend takes, and how
//! many points an order may use. No I/O; docs/loyalty.md lists the constants.

pub mod coupon;
pub mod privileges;

use crate::domain::money::Fen;
use crate::domain::stores::hours::china_offset;
use chrono::{Datelike, NaiveDate, TimeZone};

/// The rolling window of qualifying spend: 365 days.
pub const SPEND_WINDOW_MS: i64 = 365 * 24 * 3_600_000;
/// The refund window by default: earned points stay pending this long after completion.
pub const DEFAULT_PENDING_MS: i64 = 7 * 24 * 3_600_000;
/// Points expiring within this much time are "expiring soon" on the member page.
pub const EXPIRING_SOON_MS: i64 = 30 * 24 * 3_600_000;
/// A gift not claimed within this long expires.
pub const GIFT_CLAIM_MS: i64 = 90 * 24 * 3_600_000;

/// A level as the rules need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelRule {
    pub level: i64,
    /// Qualifying spend in the window needed to reach it.
    pub threshold: Fen,
    pub points_per_yuan: i64,
}

/// The level a member with `spend` of qualifying spend holds: the highest whose threshold it
/// reaches (the lowest level always, even at zero). `levels` in any order. The points balance
/// plays no part: spend is money paid for completed orders minus refunds, never points.
pub fn level_for_spend(spend: Fen, levels: &[LevelRule]) -> Option<LevelRule> {
    let lowest = levels.iter().min_by_key(|l| l.threshold).copied();
    levels
        .iter()
        .filter(|l| spend >= l.threshold)
        .max_by_key(|l| (l.threshold, l.level))
        .copied()
        .or(lowest)
}

/// The next level above `current` and the spend still missing, if there is one.
pub fn next_level(spend: Fen, current: i64, levels: &[LevelRule]) -> Option<(LevelRule, Fen)> {
    let cur_threshold = levels
        .iter()
        .find(|l| l.level == current)
        .map(|l| l.threshold)
        .unwrap_or(Fen::ZERO);
    levels
        .iter()
        .filter(|l| l.threshold > cur_threshold)
        .min_by_key(|l| l.threshold)
        .map(|l| (*l, Fen((l.threshold.0 - spend.0).max(0))))
}

/// Points earned on `paid` at `points_per_yuan`: whole yuan only (89.90 yuan at 1/yuan is 89).
pub fn points_earned(paid: Fen, points_per_yuan: i64) -> i64 {
    if paid.0 <= 0 || points_per_yuan <= 0 {
        return 0;
    }
    (paid.0 / 100).saturating_mul(points_per_yuan)
}

/// When points credited at `at_ms` expire: the end of the next calendar year, China time
/// (credited 2026-03-05 → expire at 2028-01-01 00:00 +08:00, i.e. they last all of 2027).
pub fn lot_expiry(at_ms: i64) -> i64 {
    let year = crate::domain::stores::hours::china_time(at_ms).year();
    let first = NaiveDate::from_ymd_opt(year + 2, 1, 1)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .unwrap_or_default();
    china_offset()
        .from_local_datetime(&first)
        .single()
        .map(|t| t.timestamp_millis())
        .unwrap_or(i64::MAX)
}

/// A lot that can be spent from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpendableLot {
    pub id: i64,
    pub remaining: i64,
    pub expires_at: i64,
}

/// Takes `want` points from `lots`, soonest-expiring first (ties: the older lot). Answers
/// `(lot id, points)` pairs summing to `want`, or None when the lots hold fewer.
pub fn allocate(lots: &[SpendableLot], want: i64) -> Option<Vec<(i64, i64)>> {
    if want <= 0 {
        return Some(Vec::new());
    }
    let mut sorted: Vec<SpendableLot> = lots.iter().filter(|l| l.remaining > 0).copied().collect();
    sorted.sort_by_key(|l| (l.expires_at, l.id));
    let mut left = want;
    let mut out = Vec::new();
    for lot in sorted {
        if left == 0 {
            break;
        }
        let take = lot.remaining.min(left);
        out.push((lot.id, take));
        left -= take;
    }
    (left == 0).then_some(out)
}

/// Points at checkout (/points/deduction-rule): `points_per_yuan` points are worth one yuan, an
/// order may be paid this share at most by points, and fewer than `min_points` is not a spend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeductionRule {
    pub points_per_yuan: i64,
    /// The most of the order points may pay, in thousandths (500: half).
    pub max_share_permille: i64,
    pub min_points: i64,
}

pub const DEDUCTION: DeductionRule = DeductionRule {
    points_per_yuan: 100,
    max_share_permille: 500,
    min_points: 100,
};

impl DeductionRule {
    /// What `points` save: whole fen only (points_per_yuan 100: a point is a fen).
    pub fn amount(&self, points: i64) -> Fen {
        if points <= 0 || self.points_per_yuan <= 0 {
            return Fen::ZERO;
        }
        Fen(points.saturating_mul(100) / self.points_per_yuan)
    }

    /// The most points an order of `amount` may use with `available` points: the cap, never
    /// more than the member has, a whole number of fen, and 0 below the minimum.
    pub fn usable(&self, available: i64, amount: Fen) -> i64 {
        if amount.0 <= 0 || available <= 0 {
            return 0;
        }
        let cap_fen = amount.0.saturating_mul(self.max_share_permille) / 1000;
        let cap_points = cap_fen.saturating_mul(self.points_per_yuan) / 100;
        let mut usable = available.min(cap_points);
        // Only points that buy whole fen.
        let per_fen = (self.points_per_yuan / 100).max(1);
        usable -= usable % per_fen;
        if usable < self.min_points {
            0
        } else {
            usable
        }
    }

    /// Checks a customer's requested spend: Ok(points) or why not.
    pub fn check(
        &self,
        requested: i64,
        available: i64,
        amount: Fen,
    ) -> Result<i64, DeductionError> {
        if requested < 0 {
            return Err(DeductionError::Negative);
        }
        if requested == 0 {
            return Ok(0);
        }
        if requested < self.min_points {
            return Err(DeductionError::BelowMinimum(self.min_points));
        }
        if requested > available {
            return Err(DeductionError::NotEnough(available));
        }
        let usable = self.usable(available, amount);
        if requested > usable {
            return Err(DeductionError::OverCap(usable));
        }
        Ok(requested)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeductionError {
    Negative,
    BelowMinimum(i64),
    NotEnough(i64),
    OverCap(i64),
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn levels() -> Vec<LevelRule> {
        [(1, 0, 1), (2, 50_000, 1), (3, 200_000, 2), (4, 500_000, 3)]
            .into_iter()
            .map(|(level, t, p)| LevelRule {
                level,
                threshold: Fen(t),
                points_per_yuan: p,
            })
            .collect()
    }

    #[test]
    fn level_from_spend_table() {
        let cases = [
            (0, 1),
            (-500, 1),
            (49_999, 1),
            (50_000, 2),
            (199_999, 2),
            (200_000, 3),
            (500_000, 4),
            (9_999_999, 4),
        ];
        for (spend, want) in cases {
            let got = level_for_spend(Fen(spend), &levels()).unwrap().level;
            assert_eq!(got, want, "spend {spend}");
        }
        assert_eq!(level_for_spend(Fen(1), &[]), None);
    }

    #[test]
    fn next_level_table() {
        let (next, left) = next_level(Fen(10_000), 1, &levels()).unwrap();
        assert_eq!((next.level, left), (2, Fen(40_000)));
        let (next, left) = next_level(Fen(260_000), 3, &levels()).unwrap();
        assert_eq!((next.level, left), (4, Fen(240_000)));
        assert!(next_level(Fen(600_000), 4, &levels()).is_none());
    }

    #[test]
    fn earning_table() {
        let cases = [
            (8_990, 1, 89),
            (8_990, 2, 178),
            (99, 1, 0),
            (100, 1, 1),
            (0, 3, 0),
            (-100, 1, 0),
            (10_000, 0, 0),
        ];
        for (paid, ppy, want) in cases {
            assert_eq!(points_earned(Fen(paid), ppy), want, "{paid} at {ppy}");
        }
    }

    #[test]
    fn lots_expire_at_the_end_of_next_year_china_time() {
        let at = |s: &str| {
            chrono::DateTime::parse_from_rfc3339(s)
                .unwrap()
                .timestamp_millis()
        };
        let cases = [
            ("2026-03-05T12:00:00+08:00", "2028-01-01T00:00:00+08:00"),
            // 2026-12-31 20:00 UTC is already 2027 in Shanghai.
            ("2026-12-31T20:00:00Z", "2029-01-01T00:00:00+08:00"),
            ("2026-12-31T15:59:59Z", "2028-01-01T00:00:00+08:00"),
        ];
        for (credited, expires) in cases {
            assert_eq!(lot_expiry(at(credited)), at(expires), "{credited}");
        }
    }

    #[test]
    fn spending_takes_the_soonest_expiring_lot_first() {
        let lot = |id, remaining, expires_at| SpendableLot {
            id,
            remaining,
            expires_at,
        };
        let lots = [
            lot(1, 100, 300),
            lot(2, 50, 100),
            lot(3, 70, 200),
            lot(4, 0, 50),
        ];
        assert_eq!(allocate(&lots, 30), Some(vec![(2, 30)]));
        assert_eq!(allocate(&lots, 80), Some(vec![(2, 50), (3, 30)]));
        assert_eq!(allocate(&lots, 220), Some(vec![(2, 50), (3, 70), (1, 100)]));
        assert_eq!(allocate(&lots, 221), None);
        assert_eq!(allocate(&lots, 0), Some(vec![]));
        // Same expiry: the older lot first.
        assert_eq!(
            allocate(&[lot(9, 10, 5), lot(3, 10, 5)], 15),
            Some(vec![(3, 10), (9, 5)])
        );
    }

    #[test]
    fn deduction_cap_table() {
        let r = DEDUCTION;
        // (available, order fen, usable)
        let cases = [
            (10_000, 8_990, 4_495),
            (1_000, 8_990, 1_000),
            (99, 8_990, 0),
            (150, 250, 125),
            (150, 180, 0),
            (0, 10_000, 0),
            (5_000, 0, 0),
        ];
        for (available, amount, want) in cases {
            assert_eq!(
                r.usable(available, Fen(amount)),
                want,
                "{available} on {amount}"
            );
        }
        assert_eq!(r.amount(4_495), Fen(4_495));
        assert_eq!(r.check(0, 0, Fen(100)), Ok(0));
        assert_eq!(r.check(-1, 500, Fen(10_000)), Err(DeductionError::Negative));
        assert_eq!(
            r.check(50, 500, Fen(10_000)),
            Err(DeductionError::BelowMinimum(100))
        );
        assert_eq!(
            r.check(600, 500, Fen(10_000)),
            Err(DeductionError::NotEnough(500))
        );
        assert_eq!(
            r.check(500, 5_000, Fen(800)),
            Err(DeductionError::OverCap(400))
        );
        assert_eq!(r.check(400, 5_000, Fen(800)), Ok(400));
    }
}
