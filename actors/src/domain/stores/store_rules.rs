//! Rules about a store as a whole (spec ordering §3, §5): which services it offers, whether its
//! data is usable, whether it delivers to a point, and which stores are nearest.

use crate::domain::catalogue::{LngLat, Store, DELIVERY, DINE_IN};
use crate::domain::geo::{distance_km, point_in_polygon};
use crate::domain::money::Fen;

/// The spec lists service methods sorted; unknown codes are dropped so no screen meets one.
pub fn normalized_service_methods(methods: &[u8]) -> Vec<u8> {
    let mut out: Vec<u8> = methods.iter().copied().filter(|&m| m <= DINE_IN).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Why a store record is unusable (spec §5: logged and ignored, the rest of the list still shows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreDataError {
    MissingStoreCode,
}

impl StoreDataError {
    pub fn message_zh(&self) -> &'static str {
        match self {
            StoreDataError::MissingStoreCode => "门店数据有误",
        }
    }

    pub fn message_en(&self) -> &'static str {
        match self {
            StoreDataError::MissingStoreCode => "Store data is invalid",
        }
    }
}

/// A store without a code cannot be selected, carted against or ordered from.
pub fn check_store(store: &Store) -> Result<(), StoreDataError> {
    if store.store_code.trim().is_empty() {
        Err(StoreDataError::MissingStoreCode)
    } else {
        Ok(())
    }
}

/// Delivery needs both the service and the point inside the polygon; a store with no polygon
/// delivers nowhere rather than everywhere.
pub fn delivers_to(store: &Store, p: LngLat) -> bool {
    store.service_methods.contains(&DELIVERY) && point_in_polygon(p, &store.delivery_area)
}

/// What a delivery order still lacks to the store's minimum (起送), on the product total after
/// promotions (the amount the free-delivery threshold reads too). Zero when there is no
/// minimum, it is reached, or the order is not a delivery. An empty cart lacks nothing: it has
/// nothing to submit, which is said otherwise.
pub fn delivery_minimum_gap(store: &Store, order_type: u8, products: Fen) -> Fen {
    let min = store.min_delivery_amount;
    if order_type != DELIVERY || min <= Fen::ZERO || products <= Fen::ZERO || products >= min {
        Fen::ZERO
    } else {
        min - products
    }
}

/// Nearest first. Equal distances (stores sharing a building) fall back to the code so the
/// list never reshuffles between calls.
pub fn stores_by_distance(stores: &[Store], from: LngLat) -> Vec<(&Store, f64)> {
    let mut out: Vec<(&Store, f64)> = stores
        .iter()
        .map(|s| {
            let at = LngLat {
                lng: s.lng,
                lat: s.lat,
            };
            (s, distance_km(from, at))
        })
        .collect();
    // A NaN (bad coordinates) ranks as infinitely far: last, and no panic. total_cmp alone
    // would not do, as a computed NaN may carry the sign bit and sort first.
    let key = |d: f64| if d.is_nan() { f64::INFINITY } else { d };
    out.sort_by(|(a, da), (b, db)| {
        key(*da)
            .total_cmp(&key(*db))
            .then_with(|| a.store_code.cmp(&b.store_code))
    });
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::domain::catalogue::virtual_store;

    fn store(code: &str, lng: f64, lat: f64) -> Store {
        let mut s = virtual_store(None);
        s.store_code = code.into();
        s.lng = lng;
        s.lat = lat;
        s
    }

    fn pt(lng: f64, lat: f64) -> LngLat {
        LngLat { lng, lat }
    }

    #[test]
    fn normalized_service_methods_cases() {
        let cases: [(&[u8], &[u8]); 7] = [
            (&[], &[]),
            (&[0, 1, 2], &[0, 1, 2]),
            (&[2, 0, 1], &[0, 1, 2]),
            (&[1, 1, 0, 0], &[0, 1]),
            (&[3, 9, 2], &[2]),
            (&[255], &[]),
            (&[2, 2, 2], &[2]),
        ];
        for (input, want) in cases {
            assert_eq!(normalized_service_methods(input), want, "{input:?}");
        }
    }

    #[test]
    fn store_data_error_messages() {
        let e = StoreDataError::MissingStoreCode;
        assert_eq!(e.message_zh(), "门店数据有误");
        assert_eq!(e.message_en(), "Store data is invalid");
    }

    #[test]
    fn check_store_cases() {
        let cases = [
            ("S001", Ok(())),
            ("88888", Ok(())),
            ("", Err(StoreDataError::MissingStoreCode)),
            ("   ", Err(StoreDataError::MissingStoreCode)),
        ];
        for (code, want) in cases {
            assert_eq!(check_store(&store(code, 121.0, 31.0)), want, "{code:?}");
        }
    }

    #[test]
    fn delivers_to_cases() {
        let square = vec![
            pt(121.40, 31.20),
            pt(121.50, 31.20),
            pt(121.50, 31.30),
            pt(121.40, 31.30),
        ];
        let inside = pt(121.45, 31.25);
        let edge = pt(121.50, 31.25);
        let outside = pt(121.60, 31.25);
        let cases: [(&[u8], &[LngLat], LngLat, bool); 8] = [
            (&[0, 1, 2], &square, inside, true),
            (&[0], &square, edge, true),
            (&[0, 1], &square, outside, false),
            (&[1, 2], &square, inside, false), // no delivery service
            (&[], &square, inside, false),
            (&[0], &[], inside, false), // no polygon
            (&[0], &square[..2], inside, false),
            (&[2, 0], &square, inside, true),
        ];
        for (methods, area, p, want) in cases {
            let mut s = store("S001", 121.45, 31.25);
            s.service_methods = methods.to_vec();
            s.delivery_area = area.to_vec();
            assert_eq!(delivers_to(&s, p), want, "{methods:?} {p:?}");
        }
    }

    #[test]
    fn delivery_minimum_gap_cases() {
        use crate::domain::catalogue::{DINE_IN, PICKUP};
        // (minimum, order type, products, gap), fen
        let cases = [
            (2000, DELIVERY, 800, 1200),
            (2000, DELIVERY, 1999, 1),
            (2000, DELIVERY, 2000, 0), // reached exactly
            (2000, DELIVERY, 8900, 0),
            (2000, DELIVERY, 0, 0), // empty cart: said otherwise
            (2000, PICKUP, 800, 0), // only delivery has a minimum
            (2000, DINE_IN, 800, 0),
            (0, DELIVERY, 800, 0), // no minimum
            (-5, DELIVERY, 800, 0),
        ];
        for (min, order_type, products, want) in cases {
            let mut s = store("S001", 121.0, 31.0);
            s.min_delivery_amount = Fen(min);
            assert_eq!(
                delivery_minimum_gap(&s, order_type, Fen(products)),
                Fen(want),
                "{min} {order_type} {products}"
            );
        }
    }

    #[test]
    fn stores_by_distance_cases() {
        let from = pt(121.4737, 31.2304);
        let cases: [(Vec<Store>, &[&str]); 5] = [
            (vec![], &[]),
            (vec![store("A", 121.4737, 31.2304)], &["A"]),
            (
                vec![
                    store("FAR", 121.60, 31.23),
                    store("NEAR", 121.48, 31.23),
                    store("MID", 121.52, 31.23),
                ],
                &["NEAR", "MID", "FAR"],
            ),
            // Same spot: ordered by code.
            (
                vec![
                    store("B", 121.50, 31.23),
                    store("A", 121.50, 31.23),
                    store("C", 121.48, 31.23),
                ],
                &["C", "A", "B"],
            ),
            // Unusable coordinates sort last.
            (
                vec![store("NAN", f64::NAN, 31.0), store("OK", 121.5, 31.2)],
                &["OK", "NAN"],
            ),
        ];
        for (stores, want) in cases {
            let got = stores_by_distance(&stores, from);
            let codes: Vec<&str> = got.iter().map(|(s, _)| s.store_code.as_str()).collect();
            assert_eq!(codes, want);
            for (s, d) in &got {
                let direct = distance_km(from, pt(s.lng, s.lat));
                assert!(d.to_bits() == direct.to_bits(), "{} {d}", s.store_code);
            }
        }
    }
}
