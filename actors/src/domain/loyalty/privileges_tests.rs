#![allow(clippy::unwrap_used)]
use super::*;
use chrono::Utc;

/// An instant given in UTC, the way a server clock reads it.
fn utc(y: i32, m: u32, d: u32, h: u32, min: u32, s: u32) -> i64 {
    Utc.with_ymd_and_hms(y, m, d, h, min, s)
        .unwrap()
        .timestamp_millis()
}

/// An instant given in China time.
fn china(y: i32, m: u32, d: u32, h: u32, min: u32, s: u32) -> i64 {
    china_offset()
        .with_ymd_and_hms(y, m, d, h, min, s)
        .unwrap()
        .timestamp_millis()
}

fn month(year: i32, month: u32) -> ChinaMonth {
    ChinaMonth { year, month }
}

#[test]
fn the_china_month_of_an_instant() {
    // (UTC instant, China month)
    let cases = [
        // UTC 15:59:59 on the 31st is 23:59:59 in China: still January.
        (utc(2026, 1, 31, 15, 59, 59), month(2026, 1)),
        // UTC 16:00 on a month's last day is already the next month in China.
        (utc(2026, 1, 31, 16, 0, 0), month(2026, 2)),
        (utc(2026, 11, 30, 16, 0, 0), month(2026, 12)),
        // New year's eve, 16:00 UTC: January of the next year.
        (utc(2026, 12, 31, 16, 0, 0), month(2027, 1)),
        (utc(2026, 12, 31, 15, 59, 59), month(2026, 12)),
        // A leap year's 29 February, its last China minute and the next one.
        (utc(2028, 2, 29, 15, 59, 59), month(2028, 2)),
        (utc(2028, 2, 29, 16, 0, 0), month(2028, 3)),
        // A common year's February ends on the 28th.
        (utc(2027, 2, 28, 16, 0, 0), month(2027, 3)),
    ];
    for (at, want) in cases {
        assert_eq!(ChinaMonth::at(at), want, "{at}");
    }
}

#[test]
fn a_month_ends_at_china_midnight_of_the_next() {
    // (month, its start, its end)
    let cases = [
        (
            month(2026, 11),
            china(2026, 11, 1, 0, 0, 0),
            china(2026, 12, 1, 0, 0, 0),
        ),
        (
            month(2026, 12),
            china(2026, 12, 1, 0, 0, 0),
            china(2027, 1, 1, 0, 0, 0),
        ),
        (
            month(2028, 2),
            china(2028, 2, 1, 0, 0, 0),
            china(2028, 3, 1, 0, 0, 0),
        ),
        (
            month(2027, 2),
            china(2027, 2, 1, 0, 0, 0),
            china(2027, 3, 1, 0, 0, 0),
        ),
    ];
    for (m, start, end) in cases {
        assert_eq!((m.start_ms(), m.end_ms()), (start, end), "{m:?}");
    }
    assert_eq!(china(2026, 12, 1, 0, 0, 0), utc(2026, 11, 30, 16, 0, 0));
}

#[test]
fn period_keys() {
    // (user, instant, birthday key, free-delivery keys)
    let cases = [
        (
            7,
            china(2026, 11, 23, 12, 0, 0),
            "birthday:7:2026",
            ["free-delivery:7:2026-11:1", "free-delivery:7:2026-11:2"],
        ),
        // 2026-12-31 16:00 UTC is 2027 in China: next year's treat, January's deliveries.
        (
            42,
            utc(2026, 12, 31, 16, 0, 0),
            "birthday:42:2027",
            ["free-delivery:42:2027-01:1", "free-delivery:42:2027-01:2"],
        ),
        (
            42,
            utc(2026, 12, 31, 15, 59, 59),
            "birthday:42:2026",
            ["free-delivery:42:2026-12:1", "free-delivery:42:2026-12:2"],
        ),
    ];
    for (user, at, birthday, deliveries) in cases {
        let m = ChinaMonth::at(at);
        assert_eq!(birthday_key(user, m.year), birthday, "{at}");
        assert_eq!(free_delivery_keys(user, m), deliveries, "{at}");
    }
}

#[test]
fn the_birthday_month_in_china_time() {
    // (birthday, instant, in the birthday month)
    let cases = [
        (Some("1990-03-15"), china(2026, 3, 1, 0, 0, 0), true),
        (Some("1990-03-15"), china(2026, 3, 31, 23, 59, 59), true),
        // UTC still says 28 February, China says 1 March.
        (Some("1990-03-15"), utc(2026, 2, 28, 16, 0, 0), true),
        (Some("1990-03-15"), utc(2026, 2, 28, 15, 59, 59), false),
        // UTC still says 31 March, China says 1 April.
        (Some("1990-03-15"), utc(2026, 3, 31, 16, 0, 0), false),
        // Born on a leap day: February is the month, in common years too.
        (Some("2000-02-29"), china(2027, 2, 1, 0, 0, 0), true),
        (Some("2000-02-29"), china(2027, 2, 28, 23, 59, 59), true),
        (Some("2000-02-29"), utc(2027, 2, 28, 16, 0, 0), false),
        (Some("2000-02-29"), china(2028, 2, 29, 12, 0, 0), true),
        (Some("2000-02-29"), utc(2028, 2, 29, 16, 0, 0), false),
        // No birthday, or one that cannot be read: never.
        (None, china(2026, 3, 1, 0, 0, 0), false),
        (Some(""), china(2026, 3, 1, 0, 0, 0), false),
        (Some("1990-13-01"), china(2026, 1, 1, 0, 0, 0), false),
    ];
    for (birthday, at, want) in cases {
        assert_eq!(
            is_birthday_month(birthday, at),
            want,
            "{birthday:?} at {at}"
        );
    }
}

#[test]
fn what_a_member_is_due() {
    use Privilege::*;
    let nov = china(2026, 11, 23, 12, 0, 0);
    /// (privilege, template, coupons) of each grant due.
    type Due = Vec<(Privilege, &'static str, usize)>;
    let codes = |g: &[Grant]| -> Due {
        g.iter()
            .map(|g| (g.privilege, g.template_code, g.keys.len()))
            .collect()
    };
    // (privileges, birthday, due)
    let cases: [(&[Privilege], Option<&str>, Due); 6] = [
        (&[Points], Some("1990-11-05"), vec![]),
        (
            &[Points, Birthday],
            Some("1990-11-05"),
            vec![(Birthday, BIRTHDAY_TEMPLATE, 1)],
        ),
        (&[Points, Birthday], Some("1990-12-05"), vec![]),
        (
            &[Points, Birthday, FreeDelivery],
            Some("1990-11-05"),
            vec![
                (Birthday, BIRTHDAY_TEMPLATE, 1),
                (FreeDelivery, FREE_DELIVERY_TEMPLATE, 2),
            ],
        ),
        (
            &[Points, Birthday, FreeDelivery, Priority],
            None,
            vec![(FreeDelivery, FREE_DELIVERY_TEMPLATE, 2)],
        ),
        (&[Priority], Some("1990-11-05"), vec![]),
    ];
    for (privileges, birthday, want) in cases {
        let got = due(privileges, 9, birthday, nov);
        assert_eq!(codes(&got), want, "{privileges:?} {birthday:?}");
    }
    assert!(made_first(&[Points, Priority]) && !made_first(&[Points, FreeDelivery]));
}

#[test]
fn codes_name_privileges() {
    for p in Privilege::ALL {
        assert_eq!(Privilege::parse(p.code()), Some(p));
    }
    assert_eq!(
        from_codes(["points", "birthday", "vip-lounge", "priority"]),
        [Privilege::Points, Privilege::Birthday, Privilege::Priority]
    );
}

#[test]
fn the_member_centre_words() {
    let nov = china(2026, 11, 23, 12, 0, 0);
    // (birthday, issued this year, standing, zh)
    let cases = [
        (
            Some("1990-11-05"),
            true,
            Standing::TreatGiven { this_month: true },
            "本月生日礼已发放，请在优惠券中查看",
        ),
        (
            Some("1990-03-05"),
            true,
            Standing::TreatGiven { this_month: false },
            "今年的生日礼已发放",
        ),
        (
            Some("1990-03-05"),
            false,
            Standing::TreatInMonth { month: 3 },
            "生日当月（3月）发放",
        ),
        (
            None,
            false,
            Standing::NoBirthday,
            "请在个人资料中填写生日，生日当月发放",
        ),
    ];
    for (birthday, issued, standing, zh) in cases {
        let got = birthday_standing(birthday, issued, nov);
        assert_eq!(got, standing, "{birthday:?}");
        assert_eq!(got.text(Lang::Zh).as_deref(), Some(zh));
    }
    assert_eq!(
        Standing::TreatInMonth { month: 3 }
            .text(Lang::En)
            .as_deref(),
        Some("Given in your birthday month (March)")
    );
    assert_eq!(
        Standing::Deliveries {
            issued: 2,
            usable: 1
        }
        .text(Lang::Zh)
        .as_deref(),
        Some("本月 2 张免配送费券已发放，可用 1 张")
    );
    assert_eq!(
        Standing::Priority.text(Lang::Zh).as_deref(),
        Some("每笔订单自动享有，无需操作")
    );
    assert_eq!(Standing::Described.text(Lang::En), None);
}
