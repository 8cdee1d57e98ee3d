//! Submit's rules case by case, on the demo chain at Monday 2026-11-23 12:00 China time.
#![allow(clippy::unwrap_used)]

use super::*;
use crate::domain::catalogue::seed::demo_catalogue;
use crate::domain::catalogue::{Catalogue, StoreStatus, PICKUP};
use std::sync::OnceLock;

const MONDAY_NOON: i64 = 1_795_406_400_000;
const MINUTE: i64 = 60_000;

fn demo() -> &'static Catalogue {
    static DEMO: OnceLock<Catalogue> = OnceLock::new();
    DEMO.get_or_init(|| demo_catalogue().unwrap())
}

fn store(code: &str) -> Store {
    demo()
        .stores
        .iter()
        .find(|s| s.store_code == code)
        .cloned()
        .unwrap()
}

#[test]
#[allow(clippy::type_complexity)]
fn order_type_must_be_the_carts_and_offered() {
    // (cart's, asked, offered, outcome)
    let cases: [(u8, u8, &[u8], Result<(), SubmitRefusal>); 5] = [
        (DELIVERY, DELIVERY, &[DELIVERY, PICKUP], Ok(())),
        (PICKUP, PICKUP, &[DELIVERY, PICKUP], Ok(())),
        (
            PICKUP,
            DELIVERY,
            &[DELIVERY, PICKUP],
            Err(SubmitRefusal::OrderTypeChanged),
        ),
        (
            DELIVERY,
            DELIVERY,
            &[PICKUP],
            Err(SubmitRefusal::OrderTypeNotOffered),
        ),
        // A change of type is named first, whatever the store offers.
        (
            DINE_IN,
            PICKUP,
            &[DELIVERY],
            Err(SubmitRefusal::OrderTypeChanged),
        ),
    ];
    for (cart, asked, offered, want) in cases {
        assert_eq!(
            check_order_type(cart, asked, offered),
            want,
            "{cart} {asked} {offered:?}"
        );
    }
}

#[test]
fn cash_on_delivery_is_for_delivery_only() {
    let cases = [
        (PaymentType::Online, DELIVERY, true),
        (PaymentType::Online, PICKUP, true),
        (PaymentType::Online, DINE_IN, true),
        (PaymentType::Offline, DELIVERY, true),
        (PaymentType::Offline, PICKUP, false),
        (PaymentType::Offline, DINE_IN, false),
    ];
    for (payment, order_type, ok) in cases {
        assert_eq!(
            check_payment(payment, order_type).is_ok(),
            ok,
            "{payment:?} {order_type}"
        );
    }
}

#[test]
fn tableware_up_to_twenty_sets() {
    for (sets, ok) in [
        (0, true),
        (1, true),
        (20, true),
        (21, false),
        (u32::MAX, false),
    ] {
        assert_eq!(check_tableware(sets).is_ok(), ok, "{sets}");
    }
}

#[test]
fn a_delivery_point_needs_usable_coordinates() {
    let cases = [
        ("31.230416", "121.473701", true),
        ("", "121.473701", false),
        ("abc", "121.473701", false),
        ("31.230416", "east", false),
        ("95", "121.473701", false),
    ];
    for (lat, lng, ok) in cases {
        assert_eq!(delivery_point(lat, lng).is_some(), ok, "{lat},{lng}");
    }
}

#[test]
fn the_receiver_typed_at_checkout_wins() {
    let profile = || ("王小明".to_string(), "13812345678".to_string());
    let got = receiver(DELIVERY, profile(), None, None).unwrap();
    assert_eq!(
        (got.name.as_str(), got.mobile.as_str()),
        ("王小明", "13812345678")
    );
    let got = receiver(DELIVERY, profile(), Some("李四"), Some("13900001111")).unwrap();
    assert_eq!(
        (got.name.as_str(), got.mobile.as_str()),
        ("李四", "13900001111")
    );
    // Blank typed fields fall back to the default.
    let got = receiver(PICKUP, profile(), Some("  "), Some("")).unwrap();
    assert_eq!(
        (got.name.as_str(), got.mobile.as_str()),
        ("王小明", "13812345678")
    );
    // A pickup needs no name; a delivery does.
    let nameless = || (String::new(), "13812345678".to_string());
    assert_eq!(receiver(PICKUP, nameless(), None, None).unwrap().name, "");
    assert!(matches!(
        receiver(DELIVERY, nameless(), None, None),
        Err(ReceiverError::Name(_))
    ));
    // Every order needs a mobile that parses.
    let bad_mobile = || ("王小明".to_string(), "12345".to_string());
    let err = receiver(PICKUP, bad_mobile(), None, None).unwrap_err();
    assert!(matches!(err, ReceiverError::Mobile(_)));
    assert!(!err.message(Lang::Zh).is_empty() && !err.message(Lang::En).is_empty());
}

#[test]
fn a_cart_needs_a_line_that_can_be_charged() {
    let cases = [
        (0, 0, Err(SubmitRefusal::EmptyCart)),
        (0, 3, Err(SubmitRefusal::NoValidItems)),
        (1, 0, Ok(())),
        (2, 5, Ok(())),
    ];
    for (valid, disabled, want) in cases {
        assert_eq!(
            check_submittable(valid, disabled),
            want,
            "{valid} {disabled}"
        );
    }
    assert!(SubmitRefusal::EmptyCart.is_about_the_cart());
    assert!(!SubmitRefusal::Tableware.is_about_the_cart());
}

fn amounts(products: i64, activity: i64, freight: i64, total: i64) -> ClientAmounts {
    ClientAmounts {
        products: Fen(products),
        activity: Fen(activity),
        freight: Fen(freight),
        total: Fen(total),
    }
}

#[test]
fn the_client_amounts_must_be_the_servers() {
    let server = ServerAmounts {
        products: Fen(10_000),
        discount: Fen(2_000),
        delivery_fee: Fen(900),
        total: Fen(8_900),
    };
    let codes = |c: &[&str]| c.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let none = (0, Fen::ZERO);
    let spent = (500, Fen(500));
    // (client, points, sent coupons, applied coupons, agree)
    let cases = [
        (
            amounts(10_000, 2_000, 900, 8_900),
            none,
            codes(&[]),
            codes(&[]),
            true,
        ),
        (
            amounts(10_001, 2_000, 900, 8_900),
            none,
            codes(&[]),
            codes(&[]),
            false,
        ),
        (
            amounts(10_000, 1_999, 900, 8_900),
            none,
            codes(&[]),
            codes(&[]),
            false,
        ),
        (
            amounts(10_000, 2_000, 0, 8_900),
            none,
            codes(&[]),
            codes(&[]),
            false,
        ),
        (
            amounts(10_000, 2_000, 900, 8_899),
            none,
            codes(&[]),
            codes(&[]),
            false,
        ),
        // With points the total may be sent before or after them.
        (
            amounts(10_000, 2_000, 900, 8_900),
            spent,
            codes(&[]),
            codes(&[]),
            true,
        ),
        (
            amounts(10_000, 2_000, 900, 8_400),
            spent,
            codes(&[]),
            codes(&[]),
            true,
        ),
        (
            amounts(10_000, 2_000, 900, 8_400),
            none,
            codes(&[]),
            codes(&[]),
            false,
        ),
        (
            amounts(10_000, 2_000, 900, 8_300),
            spent,
            codes(&[]),
            codes(&[]),
            false,
        ),
        // Coupons: the same set, in any order, repeats ignored.
        (
            amounts(10_000, 2_000, 900, 8_900),
            none,
            codes(&["B", "A", "A"]),
            codes(&["A", "B"]),
            true,
        ),
        (
            amounts(10_000, 2_000, 900, 8_900),
            none,
            codes(&["A"]),
            codes(&["A", "B"]),
            false,
        ),
        (
            amounts(10_000, 2_000, 900, 8_900),
            none,
            codes(&["A", "B"]),
            codes(&[]),
            false,
        ),
    ];
    for (client, points, sent, applied, agree) in cases {
        assert_eq!(
            amounts_agree(&client, &server, points, &sent, &applied),
            agree,
            "{client:?} {points:?} {sent:?} {applied:?}"
        );
    }
}

#[test]
fn order_numbers_read_as_china_time_and_six_digits() {
    let n = order_no(MONDAY_NOON, 42);
    assert_eq!((&n[..12], n.len()), ("261123120000", 18));
    assert!(n.bytes().all(|b| b.is_ascii_digit()), "{n}");
    assert_eq!(&order_no(MONDAY_NOON + 1_500, 7)[..12], "261123120001");
    assert_eq!(order_no(MONDAY_NOON, u64::MAX).len(), 18);
    // The digits are the counter's alone, whatever the time.
    assert_eq!(n[12..], order_no(MONDAY_NOON + 86_400_000, 42)[12..]);
    // Consecutive counters do not read as consecutive numbers.
    let next: u64 = order_no(MONDAY_NOON, 43)[12..].parse().unwrap();
    let this: u64 = n[12..].parse().unwrap();
    assert!(next.abs_diff(this) > 1, "{n} then {next}");
}

#[test]
fn any_million_counters_in_a_row_have_digits_of_their_own() {
    for start in [0u64, 999_999, 987_654_321, u64::MAX - 1_000_000] {
        let mut seen = vec![false; 1_000_000];
        for counter in start..start + 1_000_000 {
            let digits = order_digits(counter) as usize;
            assert!(!seen[digits], "counter {counter} repeats digits {digits}");
            seen[digits] = true;
        }
    }
    // A million apart in one second is the one way to repeat a number: why submit draws again
    // when the database says a number is taken.
    assert_eq!(
        order_no(MONDAY_NOON, 5),
        order_no(MONDAY_NOON + 999, 1_000_005)
    );
}

/// The property: nodes take turns drawing from the one counter (any number of them, in any
/// order; the node does not enter the number, the counter they share does), at instants that
/// share a millisecond, a second, or neither, the counter starting anywhere (across a multiple
/// of a million too): fewer than a million draws never give a number twice.
#[test]
fn numbers_never_repeat_over_nodes_and_instants() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::collections::HashMap;
    let mut rng = StdRng::seed_from_u64(34);
    let offsets = [0, 0, 1, 999, 1_000, 1_001, 59_999, 3_600_000];
    for round in 0..300 {
        let nodes = rng.gen_range(1..=8usize);
        let mut counter: u64 = match rng.gen_range(0..3) {
            0 => rng.gen_range(0..1_000),
            1 => rng.gen_range(1..50) * 1_000_000 - rng.gen_range(1..2_000),
            _ => rng.gen::<u32>().into(),
        };
        let instants: Vec<i64> = (0..rng.gen_range(1..=4))
            .map(|_| MONDAY_NOON + offsets[rng.gen_range(0..offsets.len())])
            .collect();
        let mut seen: HashMap<String, (usize, i64)> = HashMap::new();
        for _ in 0..rng.gen_range(1..4_000) {
            let node = rng.gen_range(0..nodes);
            counter += 1;
            let at = instants[rng.gen_range(0..instants.len())];
            let number = order_no(at, counter);
            if let Some(first) = seen.insert(number.clone(), (node, at)) {
                panic!("round {round}: {number} drawn by node {first:?} and node {node} at {at}");
            }
        }
    }
}

#[test]
fn the_order_time_of_each_kind_of_order() {
    let open = store("SH001");
    let asap_delivery = order_time(&open, DELIVERY, None, false, MONDAY_NOON).unwrap();
    assert_eq!(asap_delivery, asap_time(&open, DELIVERY, MONDAY_NOON));
    assert!(asap_delivery > MONDAY_NOON);
    // Dine-in at a scanned table is for now; without a table it is as soon as possible.
    if open.service_methods.contains(&DINE_IN) {
        assert_eq!(
            order_time(&open, DINE_IN, None, true, MONDAY_NOON).unwrap(),
            MONDAY_NOON
        );
        assert_eq!(
            order_time(&open, DINE_IN, None, false, MONDAY_NOON).unwrap(),
            asap_time(&open, DINE_IN, MONDAY_NOON)
        );
    }
    // A store its staff closed takes nothing for now.
    let mut closed = open.clone();
    closed.status = StoreStatus::Closed;
    assert_eq!(
        order_time(&closed, PICKUP, None, false, MONDAY_NOON),
        Err(NotTaking::Closed)
    );
    // A booking too soon is refused with its reason.
    assert!(matches!(
        order_time(
            &open,
            PICKUP,
            Some(MONDAY_NOON + MINUTE),
            false,
            MONDAY_NOON
        ),
        Err(NotTaking::Booking(_))
    ));
}

#[test]
fn refusals_read_in_both_languages() {
    let all = [
        SubmitRefusal::OrderTypeChanged,
        SubmitRefusal::OrderTypeNotOffered,
        SubmitRefusal::CashOnlyForDelivery,
        SubmitRefusal::Tableware,
        SubmitRefusal::NoAddress,
        SubmitRefusal::EmptyCart,
        SubmitRefusal::NoValidItems,
        SubmitRefusal::BelowDeliveryMinimum {
            gap: Fen(1_250),
            min: Fen(3_000),
        },
    ];
    for refusal in all {
        let (zh, en) = (refusal.message(Lang::Zh), refusal.message(Lang::En));
        assert!(zh.chars().any(|c| c as u32 > 0x4e00), "{refusal:?}: {zh}");
        assert!(en.is_ascii() || en.contains('¥'), "{refusal:?}: {en}");
    }
    assert_eq!(
        SubmitRefusal::BelowDeliveryMinimum {
            gap: Fen(1_250),
            min: Fen(3_000)
        }
        .message(Lang::Zh),
        "还差¥12.50起送（本店外送¥30.00起送），请再选些商品"
    );
}
