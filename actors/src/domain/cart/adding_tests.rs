//! Adding to a cart, case by case, on the demo chain at Monday 2026-11-23 12:00 China time.
#![allow(clippy::unwrap_used)]

use super::*;
use crate::domain::catalogue::seed::demo_catalogue;
use crate::domain::catalogue::{Catalogue, StoreStatus, DELIVERY, DINE_IN, PICKUP};
use crate::domain::stores::hours::china_time;
use std::sync::OnceLock;

const MONDAY_NOON: i64 = 1_795_406_400_000;
const HOUR: i64 = 3_600_000;

fn demo() -> &'static Catalogue {
    static DEMO: OnceLock<Catalogue> = OnceLock::new();
    DEMO.get_or_init(|| demo_catalogue().unwrap())
}

fn product(code: &str) -> &'static Product {
    demo()
        .products
        .iter()
        .find(|p| p.product_code == code)
        .unwrap()
}

fn store(code: &str) -> Store {
    demo()
        .stores
        .iter()
        .find(|s| s.store_code == code)
        .cloned()
        .unwrap()
}

fn rules_at(store: &Store, at: i64, order_type: u8) -> RuleContext<'_> {
    RuleContext {
        at: china_time(at),
        store_code: &store.store_code,
        store_group: &store.group_code,
        order_type,
    }
}

#[test]
fn the_order_type_an_add_shops_for() {
    let both: &[u8] = &[DELIVERY, PICKUP];
    // (asked, offered, cart's, outcome)
    let cases = [
        (Some(PICKUP), both, DELIVERY, Ok(PICKUP)),
        (
            Some(DINE_IN),
            both,
            DELIVERY,
            Err(AddRefusal::OrderTypeNotOffered),
        ),
        (None, both, PICKUP, Ok(PICKUP)),
        (None, &[PICKUP][..], DELIVERY, Ok(PICKUP)),
        (None, &[][..], DELIVERY, Ok(0)),
    ];
    for (asked, offered, cart, want) in cases {
        assert_eq!(
            order_type_for_add(asked, offered, cart),
            want,
            "{asked:?} {offered:?} {cart}"
        );
    }
}

#[test]
fn gifts_and_hidden_products_are_not_sold_by_themselves() {
    let category = |code: &str| demo().categories.iter().find(|c| c.category_code == code);
    let pizza = product("PZ001");
    assert!(sold_by_itself(pizza, category(&pizza.category_code)));
    assert!(!sold_by_itself(pizza, category("GIFT")), "a gift");
    assert!(!sold_by_itself(pizza, None), "no category");
    let hidden = product("SD011");
    assert!(!sold_by_itself(hidden, category(&hidden.category_code)));
}

#[test]
fn an_item_is_checked_against_its_rule_the_store_and_the_sold_out_list() {
    let flagship = store("SH001");
    let noon = rules_at(&flagship, MONDAY_NOON, DELIVERY);
    let evening = rules_at(&flagship, MONDAY_NOON + 7 * HOUR, DELIVERY);
    let none: Vec<String> = Vec::new();
    let nine = Selection {
        size_code: Some("9".into()),
        ..Default::default()
    };
    // A pizza at noon, normalised with its default crust.
    let chosen = check_item(product("PZ001"), &noon, &none, &nine).unwrap();
    assert_eq!(chosen.size_code.as_deref(), Some("9"));
    assert!(chosen.pastry_code.is_some());
    // The lunch combo (11:00–14:00) is on sale at noon (its rounds still to be chosen), and not
    // at 19:00: the time is asked before the choices.
    assert!(matches!(
        check_item(product("CB004"), &noon, &none, &Selection::default()),
        Ok(_) | Err(AddRefusal::Selection(_))
    ));
    assert_eq!(
        check_item(product("CB004"), &evening, &none, &Selection::default()),
        Err(AddRefusal::OffTime)
    );
    // A delivery-only side is not sold for pickup.
    let pickup = rules_at(&flagship, MONDAY_NOON, PICKUP);
    assert_eq!(
        check_item(product("SD010"), &pickup, &none, &Selection::default()),
        Err(AddRefusal::NotHere)
    );
    // A size the pizza does not have.
    let wrong = Selection {
        size_code: Some("99".into()),
        ..Default::default()
    };
    assert!(matches!(
        check_item(product("PZ001"), &noon, &none, &wrong),
        Err(AddRefusal::Selection(_))
    ));
    // Sold out: the product itself, or one of what it is made with.
    let gone = vec!["PZ001".to_string()];
    assert_eq!(
        check_item(product("PZ001"), &noon, &gone, &nine),
        Err(AddRefusal::SoldOut)
    );
    let made_with = component_codes(product("PZ001"), &chosen);
    if let Some(component) = made_with.iter().find(|c| c.as_str() != "PZ001") {
        let gone = vec![component.clone()];
        assert_eq!(
            check_item(product("PZ001"), &noon, &gone, &nine),
            Err(AddRefusal::ComponentSoldOut)
        );
    }
}

#[test]
fn a_closed_store_takes_items_only_for_a_booking_it_takes() {
    let mut closed = store("SH001");
    closed.status = StoreStatus::Closed;
    let empty = Cart::default();
    assert_eq!(
        store_takes_items(&closed, &empty, DELIVERY, MONDAY_NOON),
        Err(NotTaking::Closed)
    );
    assert_eq!(
        store_takes_items(&store("SH001"), &empty, DELIVERY, MONDAY_NOON),
        Ok(())
    );
    // Booked at another store: still refused.
    let elsewhere = Cart {
        is_book: true,
        store_code: Some("BJ001".into()),
        order_time: Some(MONDAY_NOON + 26 * HOUR),
        ..Default::default()
    };
    assert!(store_takes_items(&closed, &elsewhere, DELIVERY, MONDAY_NOON).is_err());
}

#[test]
fn moving_a_cart_keeps_what_the_new_store_offers() {
    let flagship = store("SH001");
    let mut cart = Cart {
        store_code: Some("SH001".into()),
        ..Default::default()
    };
    assert!(!cart.move_to_store(&flagship), "already there");
    let mut pickup_only = flagship.clone();
    pickup_only.store_code = "X1".into();
    pickup_only.service_methods = vec![PICKUP];
    cart.order_type = DELIVERY;
    assert!(cart.move_to_store(&pickup_only));
    assert_eq!(cart.store_code.as_deref(), Some("X1"));
    assert_eq!(cart.order_type, PICKUP, "the store's first service method");
}

#[test]
fn refusals_read_in_both_languages() {
    let all = [
        AddRefusal::NothingChosen,
        AddRefusal::OrderTypeNotOffered,
        AddRefusal::NoSuchProduct,
        AddRefusal::OffTime,
        AddRefusal::NotHere,
        AddRefusal::SoldOut,
        AddRefusal::ComponentSoldOut,
    ];
    for r in all {
        assert!(
            r.message(Lang::Zh).chars().any(|c| c as u32 >= 0x4e00),
            "{r:?}"
        );
        assert!(r.message(Lang::En).is_ascii(), "{r:?}");
        assert_eq!(r.is_not_found(), matches!(r, AddRefusal::NoSuchProduct));
    }
}
