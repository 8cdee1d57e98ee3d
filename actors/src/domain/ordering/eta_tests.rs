use super::*;
use crate::domain::catalogue::{virtual_store, DINE_IN, PICKUP};

const T: i64 = 1_700_000_000_000;
const MIN: i64 = 60_000;

fn promise(order_type: u8, is_book: bool, order_time_ms: i64) -> Promise {
    Promise {
        order_type,
        is_book,
        order_time_ms,
        delivery_min: 30,
        estimate_min: 15,
    }
}

#[test]
fn nominal_stages_split_the_promise() {
    let delivery = promise(DELIVERY, false, T);
    let stages: Vec<Option<i64>> = [0, 1, 4, 10, 20, 30, 40, 50, 2, 3, 99]
        .iter()
        .map(|at| delivery.nominal_ms(*at))
        .collect();
    let s = 1_000;
    assert_eq!(
        stages,
        vec![
            Some(90 * s),
            Some(90 * s),
            Some(270 * s),
            Some(270 * s),
            Some(360 * s),
            Some(90 * s),
            Some(900 * s),
            None,
            None,
            None,
            None
        ]
    );
    assert_eq!(promise(PICKUP, false, T).nominal_ms(40), None);
    let quick = Promise {
        delivery_min: 20,
        ..delivery
    };
    assert_eq!(quick.nominal_ms(40), Some(10 * MIN));
    let store = virtual_store(None);
    assert_eq!(
        Promise::for_store(&store, DELIVERY, true, T),
        Promise {
            order_type: DELIVERY,
            is_book: true,
            order_time_ms: T,
            delivery_min: store.delivery_time,
            estimate_min: store.estimate_time,
        }
    );
}

/// One ETA case: name, promise, progress, history and now in seconds after T, the answer in
/// seconds after T.
type EtaRow<'a> = (&'a str, Promise, u8, &'a [(u8, i64)], i64, Option<i64>);

/// Defaults deliveryTime 30, estimateTime 15, so the nominal stages are 90 s (waiting), 90 s
/// (accepted), 270 s (making), 360 s (oven), 90 s (quality check), 900 s (ride). Paid at T.
#[test]
fn eta_table() {
    let asap = promise(DELIVERY, false, T + 30 * MIN);
    let pickup = promise(PICKUP, false, T + 15 * MIN);
    let dine = promise(DINE_IN, false, T + 15 * MIN);
    let booked = promise(DELIVERY, true, T + 180 * MIN);
    let booked_soon = promise(DELIVERY, true, T + 20 * MIN);
    let booked_later = promise(DELIVERY, true, T + 40 * MIN);
    let booked_pickup = promise(PICKUP, true, T + 60 * MIN);
    let slow_store = Promise {
        delivery_min: 45,
        estimate_min: 20,
        ..asap
    };
    let paid: &[(u8, i64)] = &[(99, -60), (0, 0)];
    let making: &[(u8, i64)] = &[(0, 0), (1, 120), (10, 180)];
    let oven: &[(u8, i64)] = &[(0, 0), (1, 120), (10, 180), (20, 300)];
    let undone: &[(u8, i64)] = &[(10, 180), (20, 300), (10, 360)];
    #[rustfmt::skip]
    let cases: Vec<EtaRow> = vec![
        ("paid now: the store's promise",   asap,          0,  paid,          0,    Some(1800)),
        ("waiting, on track",               asap,          0,  paid,          60,   Some(1800)),
        ("slow to accept: slides",          asap,          0,  paid,          300,  Some(300 + 1710)),
        ("making, started late",            asap,          10, making,        180,  Some(1800)),
        ("4 is making",                     asap,          4,  &[(4, 180)],   180,  Some(1800)),
        ("fast kitchen: earlier",           asap,          20, oven,          480,  Some(480 + 180 + 990)),
        ("quality check",                   asap,          30, &[(30, 720)],  720,  Some(720 + 990)),
        ("on the road",                     asap,          40, &[(40, 900)],  1200, Some(1800)),
        ("ride overran: now",               asap,          40, &[(40, 900)],  2400, Some(2400)),
        ("no row: the stage starts now",    asap,          40, &[],           1200, Some(2100)),
        ("row after now: no negative time", asap,          40, &[(40, 1260)], 1200, Some(2100)),
        ("undone: the first start counts",  asap,          10, undone,        360,  Some(1800)),
        ("booked: not before its time",     booked,        0,  paid,          0,    Some(10_800)),
        ("booked, running late",            booked_soon,   20, oven,          900,  Some(900 + 990)),
        ("booked, kitchen early",           booked_later,  20, oven,          360,  Some(2400)),
        ("pickup accepted",                 pickup,        1,  &[(1, 60)],    60,   Some(60 + 810)),
        ("pickup ready: since",             pickup,        40, &[(40, 720)],  840,  Some(720)),
        ("dine-in ready, no row: now",      dine,          40, &[],           840,  Some(840)),
        ("booked pickup ready early",       booked_pickup, 40, &[(40, 720)],  840,  Some(3600)),
        ("the store's own times",           slow_store,    0,  paid,          0,    Some(2700)),
        ("delivered",                       asap,          50, &[(50, 1740)], 1740, None),
        ("pickup completed",                pickup,        50, &[],           0,    None),
        ("refused",                         asap,          2,  &[],           0,    None),
        ("cancelled",                       asap,          3,  &[],           0,    None),
        ("unpaid",                          asap,          99, &[(99, 0)],    0,    None),
        ("unknown code",                    asap,          77, &[],           0,    None),
    ];
    let ms = |secs: i64| T + secs * 1000;
    for (name, promise, progress, history, now, want) in cases {
        let history: Vec<(u8, i64)> = history.iter().map(|(p, at)| (*p, ms(*at))).collect();
        assert_eq!(
            eta(&promise, progress, &history, ms(now)),
            want.map(ms),
            "{name}"
        );
    }
}
