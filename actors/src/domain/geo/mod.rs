//! Points on the map (spec ordering §3, §5, §9): distances, delivery polygons, the WGS-84 ⇄
//! GCJ-02 shift Chinese maps use, and the checks on coordinates a client sends as text.

pub mod address;
pub mod smart_read;

use crate::domain::catalogue::LngLat;
use std::f64::consts::PI;

/// Store distances use the WGS-84 equatorial radius (spec §9), so ours agree with the old app's.
pub const STORE_EARTH_RADIUS_KM: f64 = 6378.137;
/// The generic distance helper's radius (spec §9), the one Baidu's map library uses.
pub const HELPER_EARTH_RADIUS_M: f64 = 6370996.81;

/// Great-circle distance by the haversine formula. Both points should be in the same datum
/// (stores and addresses are both GCJ-02), the shift between datums being a few hundred metres.
pub fn distance_km(a: LngLat, b: LngLat) -> f64 {
    let (lat1, lat2) = (a.lat.to_radians(), b.lat.to_radians());
    let d_lat = lat2 - lat1;
    let d_lng = (b.lng - a.lng).to_radians();
    let h = (d_lat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (d_lng / 2.0).sin().powi(2);
    // min(1) guards asin against rounding just above 1 for antipodal points.
    2.0 * STORE_EARTH_RADIUS_KM * h.sqrt().min(1.0).asin()
}

/// The store list's distance text: 3 decimals with trailing zeros trimmed (spec §3).
/// Nonsense (NaN, infinite) shows as "0" rather than leaking "NaN" to the page.
pub fn format_distance_km(km: f64) -> String {
    if !km.is_finite() {
        return "0".into();
    }
    let fixed = format!("{km:.3}");
    let trimmed = fixed.trim_end_matches('0').trim_end_matches('.');
    // A tiny negative rounds to "-0.000"; a distance is never negative.
    if trimmed == "-0" {
        "0".into()
    } else {
        trimmed.into()
    }
}

/// Ray casting. Points on an edge or a vertex count as inside: a customer on the boundary
/// street is one the store expects to serve.
pub fn point_in_polygon(p: LngLat, polygon: &[LngLat]) -> bool {
    // Stored polygons are open, but some sources close them; a repeated first point would
    // add a zero-length edge, harmless for crossing but it must not count as a 4th vertex.
    let ring = match polygon {
        [first, .., last] if polygon.len() > 1 && first == last => &polygon[..polygon.len() - 1],
        _ => polygon,
    };
    if ring.len() < 3 {
        return false;
    }
    let mut inside = false;
    let mut j = ring.len() - 1;
    for i in 0..ring.len() {
        let (a, b) = (ring[i], ring[j]);
        if on_segment(p, a, b) {
            return true;
        }
        // The half-open test (>) counts a vertex on the ray once, not twice.
        if (a.lat > p.lat) != (b.lat > p.lat) {
            let x = a.lng + (p.lat - a.lat) * (b.lng - a.lng) / (b.lat - a.lat);
            if p.lng < x {
                inside = !inside;
            }
        }
        j = i;
    }
    inside
}

/// Within rounding of the segment a–b. 1e-12 degrees is far below a millimetre.
fn on_segment(p: LngLat, a: LngLat, b: LngLat) -> bool {
    const EPS: f64 = 1e-12;
    let cross = (b.lng - a.lng) * (p.lat - a.lat) - (b.lat - a.lat) * (p.lng - a.lng);
    cross.abs() <= EPS
        && p.lng >= a.lng.min(b.lng) - EPS
        && p.lng <= a.lng.max(b.lng) + EPS
        && p.lat >= a.lat.min(b.lat) - EPS
        && p.lat <= a.lat.max(b.lat) + EPS
}

/// The rectangle every GCJ-02 library uses; outside it no shift is applied (spec §5).
pub fn out_of_china(p: LngLat) -> bool {
    !(72.004..=137.8347).contains(&p.lng) || !(0.8293..=55.8271).contains(&p.lat)
}

/// Krasovsky 1940 ellipsoid, as the published GCJ-02 formula uses.
const GCJ_A: f64 = 6378245.0;
const GCJ_EE: f64 = 0.006693421622965943;

/// The standard published GCJ-02 offset; identity outside China.
pub fn wgs84_to_gcj02(p: LngLat) -> LngLat {
    if out_of_china(p) {
        return p;
    }
    let (x, y) = (p.lng - 105.0, p.lat - 35.0);
    let rad_lat = p.lat.to_radians();
    let magic = 1.0 - GCJ_EE * rad_lat.sin().powi(2);
    let sqrt_magic = magic.sqrt();
    let d_lat = shift_lat(x, y) * 180.0 / ((GCJ_A * (1.0 - GCJ_EE)) / (magic * sqrt_magic) * PI);
    let d_lng = shift_lng(x, y) * 180.0 / (GCJ_A / sqrt_magic * rad_lat.cos() * PI);
    LngLat {
        lng: p.lng + d_lng,
        lat: p.lat + d_lat,
    }
}

/// No closed form exists; the offset changes slowly, so subtracting the error repeatedly
/// converges to well under 1e-6 degrees in a handful of steps.
pub fn gcj02_to_wgs84(p: LngLat) -> LngLat {
    if out_of_china(p) {
        return p;
    }
    let mut guess = p;
    for _ in 0..30 {
        let shifted = wgs84_to_gcj02(guess);
        let (e_lng, e_lat) = (shifted.lng - p.lng, shifted.lat - p.lat);
        guess = LngLat {
            lng: guess.lng - e_lng,
            lat: guess.lat - e_lat,
        };
        if e_lng.abs() < 1e-10 && e_lat.abs() < 1e-10 {
            break;
        }
    }
    guess
}

fn shift_lat(x: f64, y: f64) -> f64 {
    let mut r = -100.0 + 2.0 * x + 3.0 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * x.abs().sqrt();
    r += (20.0 * (6.0 * x * PI).sin() + 20.0 * (2.0 * x * PI).sin()) * 2.0 / 3.0;
    r += (20.0 * (y * PI).sin() + 40.0 * (y / 3.0 * PI).sin()) * 2.0 / 3.0;
    r += (160.0 * (y / 12.0 * PI).sin() + 320.0 * (y * PI / 30.0).sin()) * 2.0 / 3.0;
    r
}

fn shift_lng(x: f64, y: f64) -> f64 {
    let mut r = 300.0 + x + 2.0 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * x.abs().sqrt();
    r += (20.0 * (6.0 * x * PI).sin() + 20.0 * (2.0 * x * PI).sin()) * 2.0 / 3.0;
    r += (20.0 * (x * PI).sin() + 40.0 * (x / 3.0 * PI).sin()) * 2.0 / 3.0;
    r += (150.0 * (x / 12.0 * PI).sin() + 300.0 * (x / 30.0 * PI).sin()) * 2.0 / 3.0;
    r
}

/// Why a store-by-coordinates query is refused (spec §5), with the app's own wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointError {
    /// Missing, or latitude text too short to be a real fix.
    Invalid,
    /// Present but not a usable point: not a number, out of range, or a placeholder.
    Illegal,
}

impl PointError {
    pub fn message_zh(&self) -> &'static str {
        match self {
            PointError::Invalid => "通过经纬度获取门店：无效经纬度",
            PointError::Illegal => "不合法的经纬度",
        }
    }

    pub fn message_en(&self) -> &'static str {
        match self {
            PointError::Invalid => "Store lookup by coordinates: invalid coordinates",
            PointError::Illegal => "Illegal coordinates",
        }
    }
}

/// Texts clients send when they have no value: JavaScript's `undefined`/`null`/`NaN`,
/// Objective-C's `(null)`, Go's `nil`, Python's `None`. Compared case-insensitively.
const PLACEHOLDER_TEXTS: [&str; 6] = ["undefined", "null", "(null)", "nil", "none", "nan"];

/// Placeholder points, refused even though they parse:
/// - (0, 0): what an unset number serialises to;
/// - (1, 1): a test value some front ends ship as their "no location" default;
/// - any component that is a subnormal float such as 4.9E-324 (Java's Double.MIN_VALUE),
///   which Baidu's location SDK reports when a fix fails.
fn is_placeholder_pair(lng: f64, lat: f64) -> bool {
    let subnormal = |v: f64| v != 0.0 && !v.is_normal();
    (lng == 0.0 && lat == 0.0) || (lng == 1.0 && lat == 1.0) || subnormal(lng) || subnormal(lat)
}

/// Length of the trimmed text in characters; the spec's "5 characters" rule counts what the
/// client typed, e.g. "31.23" is 5 (a 2-decimal fix, ~1 km, too coarse to pick a store).
fn trimmed_len(s: &str) -> usize {
    s.trim().chars().count()
}

/// Checks a store-by-coordinates query (spec §5). Invalid: something is missing or the
/// latitude text has 5 characters or fewer. Illegal: anything else that is not a real point.
pub fn parse_query_point(
    latitude: Option<&str>,
    longitude: Option<&str>,
) -> Result<LngLat, PointError> {
    let (Some(lat_text), Some(lng_text)) = (latitude, longitude) else {
        return Err(PointError::Invalid);
    };
    // A blank longitude is as missing as an absent one.
    if trimmed_len(lat_text) <= 5 || lng_text.trim().is_empty() {
        return Err(PointError::Invalid);
    }
    let lat = parse_coordinate(lat_text).ok_or(PointError::Illegal)?;
    let lng = parse_coordinate(lng_text).ok_or(PointError::Illegal)?;
    if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lng) {
        return Err(PointError::Illegal);
    }
    if is_placeholder_pair(lng, lat) {
        return Err(PointError::Illegal);
    }
    Ok(LngLat { lng, lat })
}

/// A finite number that is not a placeholder word. Rust's parser would accept "NaN" and "inf",
/// hence the finiteness check.
fn parse_coordinate(text: &str) -> Option<f64> {
    let t = text.trim();
    if PLACEHOLDER_TEXTS.iter().any(|w| t.eq_ignore_ascii_case(w)) {
        return None;
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// An address is illegal when its latitude is missing or 5 characters or fewer (spec §3, §5):
/// such an address was saved without a usable fix and must be re-picked before delivery.
pub fn is_illegal_latitude(lat: Option<&str>) -> bool {
    lat.is_none_or(|t| trimmed_len(t) <= 5)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn pt(lng: f64, lat: f64) -> LngLat {
        LngLat { lng, lat }
    }

    #[test]
    fn distance_km_haversine() {
        let shanghai = pt(121.4737, 31.2304);
        let beijing = pt(116.4074, 39.9042);
        let cases = [
            (shanghai, shanghai, 0.0, 1e-9),
            (shanghai, beijing, 1068.506, 1e-3),
            (beijing, shanghai, 1068.506, 1e-3),
            // One degree of longitude on the equator is R·π/180.
            (
                pt(0.0, 0.0),
                pt(1.0, 0.0),
                STORE_EARTH_RADIUS_KM * PI / 180.0,
                1e-9,
            ),
            (
                pt(0.0, 0.0),
                pt(0.0, 1.0),
                STORE_EARTH_RADIUS_KM * PI / 180.0,
                1e-9,
            ),
            (
                pt(0.0, 0.0),
                pt(180.0, 0.0),
                STORE_EARTH_RADIUS_KM * PI,
                1e-6,
            ),
            (pt(121.4737, 31.2304), pt(121.4837, 31.2304), 0.951881, 1e-6),
        ];
        for (a, b, want, tol) in cases {
            let got = distance_km(a, b);
            assert!((got - want).abs() <= tol, "{a:?} {b:?}: {got} vs {want}");
        }
    }

    #[test]
    fn format_distance_km_trims() {
        let cases = [
            (1.2, "1.2"),
            (2.0, "2"),
            (1.23456, "1.235"),
            (0.0004, "0"),
            (0.0005001, "0.001"),
            (0.0, "0"),
            (-0.0001, "0"),
            (10.0, "10"),
            (100.5, "100.5"),
            (12.3456789, "12.346"),
            (0.01, "0.01"),
            (1.9999, "2"),
            (f64::NAN, "0"),
            (f64::INFINITY, "0"),
        ];
        for (km, want) in cases {
            assert_eq!(format_distance_km(km), want, "{km}");
        }
    }

    #[test]
    fn point_in_polygon_cases() {
        let square = [pt(0.0, 0.0), pt(10.0, 0.0), pt(10.0, 10.0), pt(0.0, 10.0)];
        let closed = [
            pt(0.0, 0.0),
            pt(10.0, 0.0),
            pt(10.0, 10.0),
            pt(0.0, 10.0),
            pt(0.0, 0.0),
        ];
        // An L shape: the notch (7, 7) is outside.
        let ell = [
            pt(0.0, 0.0),
            pt(10.0, 0.0),
            pt(10.0, 5.0),
            pt(5.0, 5.0),
            pt(5.0, 10.0),
            pt(0.0, 10.0),
        ];
        let tri = [pt(121.4, 31.2), pt(121.6, 31.3), pt(121.4, 31.4)];
        let cases: [(LngLat, &[LngLat], bool); 22] = [
            (pt(5.0, 5.0), &square, true),
            (pt(15.0, 5.0), &square, false),
            (pt(-1.0, 5.0), &square, false),
            (pt(5.0, 11.0), &square, false),
            (pt(0.0, 5.0), &square, true),   // left edge
            (pt(10.0, 5.0), &square, true),  // right edge
            (pt(5.0, 0.0), &square, true),   // bottom edge
            (pt(5.0, 10.0), &square, true),  // top edge
            (pt(0.0, 0.0), &square, true),   // vertex
            (pt(10.0, 10.0), &square, true), // vertex
            (pt(5.0, 5.0), &closed, true),
            (pt(15.0, 5.0), &closed, false),
            (pt(2.0, 2.0), &ell, true),
            (pt(7.0, 7.0), &ell, false),
            (pt(7.0, 2.0), &ell, true),
            (pt(5.0, 7.0), &ell, true), // inner edge
            (pt(121.45, 31.3), &tri, true),
            (pt(121.5, 31.25), &tri, true), // on the slanted edge
            (pt(121.59, 31.39), &tri, false),
            (pt(5.0, 5.0), &[], false),
            (pt(5.0, 5.0), &square[..2], false),
            // Three points but the third repeats the first: a line, not a polygon.
            (
                pt(5.0, 0.0),
                &[pt(0.0, 0.0), pt(10.0, 0.0), pt(0.0, 0.0)],
                false,
            ),
        ];
        for (p, poly, want) in cases {
            assert_eq!(point_in_polygon(p, poly), want, "{p:?} in {poly:?}");
        }
    }

    #[test]
    fn out_of_china_rectangle() {
        let cases = [
            (pt(121.4737, 31.2304), false), // Shanghai
            (pt(116.4074, 39.9042), false), // Beijing
            (pt(139.6917, 35.6895), true),  // Tokyo
            (pt(-0.1276, 51.5072), true),   // London
            (pt(72.004, 30.0), false),      // west edge, inclusive
            (pt(72.003, 30.0), true),
            (pt(137.8347, 30.0), false), // east edge
            (pt(137.8348, 30.0), true),
            (pt(100.0, 0.8293), false), // south edge
            (pt(100.0, 0.8292), true),
            (pt(100.0, 55.8271), false), // north edge
            (pt(100.0, 55.8272), true),
        ];
        for (p, want) in cases {
            assert_eq!(out_of_china(p), want, "{p:?}");
        }
    }

    #[test]
    fn wgs84_to_gcj02_known_pairs() {
        let cases = [
            (pt(121.4737, 31.2304), pt(121.47814, 31.22844), 1e-4),
            // Outside China: unchanged, exactly.
            (pt(139.6917, 35.6895), pt(139.6917, 35.6895), 0.0),
            (pt(-0.1276, 51.5072), pt(-0.1276, 51.5072), 0.0),
        ];
        for (wgs, gcj, tol) in cases {
            let got = wgs84_to_gcj02(wgs);
            assert!(
                (got.lng - gcj.lng).abs() <= tol && (got.lat - gcj.lat).abs() <= tol,
                "{wgs:?} -> {got:?}, want {gcj:?}"
            );
        }
    }

    #[test]
    fn gcj02_round_trips() {
        let cases = [
            pt(121.4737, 31.2304), // Shanghai
            pt(116.4074, 39.9042), // Beijing
            pt(113.2644, 23.1291), // Guangzhou
            pt(104.0668, 30.5728), // Chengdu
            pt(87.6168, 43.8256),  // Urumqi
            pt(126.5349, 45.8038), // Harbin
            pt(139.6917, 35.6895), // Tokyo: identity both ways
            pt(-0.1276, 51.5072),  // London
        ];
        for wgs in cases {
            let back = gcj02_to_wgs84(wgs84_to_gcj02(wgs));
            assert!(
                (back.lng - wgs.lng).abs() < 1e-6 && (back.lat - wgs.lat).abs() < 1e-6,
                "{wgs:?} -> {back:?}"
            );
        }
    }

    #[test]
    fn point_error_messages() {
        let cases = [
            (
                PointError::Invalid,
                "通过经纬度获取门店：无效经纬度",
                "Store lookup by coordinates: invalid coordinates",
            ),
            (PointError::Illegal, "不合法的经纬度", "Illegal coordinates"),
        ];
        for (e, zh, en) in cases {
            assert_eq!((e.message_zh(), e.message_en()), (zh, en));
        }
    }

    #[test]
    fn parse_query_point_branches() {
        use PointError::{Illegal, Invalid};
        let ok = |lng, lat| Ok(pt(lng, lat));
        type Case<'a> = (Option<&'a str>, Option<&'a str>, Result<LngLat, PointError>);
        let cases: [Case; 33] = [
            (Some("31.230"), Some("121.47"), ok(121.47, 31.23)),
            (Some("31.2304"), Some("121.4737"), ok(121.4737, 31.2304)),
            (Some(" 31.2304 "), Some(" 121.4737 "), ok(121.4737, 31.2304)),
            (Some("-33.8688"), Some("151.2093"), ok(151.2093, -33.8688)),
            (Some("90.000"), Some("180"), ok(180.0, 90.0)),
            (Some("-90.000"), Some("-180"), ok(-180.0, -90.0)),
            (Some("1.00000"), Some("2"), ok(2.0, 1.0)), // lat 1 alone is fine
            // Missing → Invalid.
            (None, Some("121.4737"), Err(Invalid)),
            (Some("31.2304"), None, Err(Invalid)),
            (None, None, Err(Invalid)),
            (Some("31.2304"), Some("  "), Err(Invalid)),
            // Latitude text of 5 characters or fewer → Invalid.
            (Some("31.23"), Some("121.4737"), Err(Invalid)),
            (Some(" 31.23 "), Some("121.4737"), Err(Invalid)),
            (Some("31"), Some("121.4737"), Err(Invalid)),
            (Some(""), Some("121.4737"), Err(Invalid)),
            (Some("null"), Some("121.4737"), Err(Invalid)),
            (Some("0"), Some("0"), Err(Invalid)),
            // Not a number → Illegal.
            (Some("abcdef"), Some("121.4737"), Err(Illegal)),
            (Some("31.2304"), Some("east"), Err(Illegal)),
            (Some("31.23.04"), Some("121.4737"), Err(Illegal)),
            (Some("undefined"), Some("undefined"), Err(Illegal)),
            (Some("31.2304"), Some("null"), Err(Illegal)),
            (Some("31.2304"), Some("NaN"), Err(Illegal)),
            (Some("infinity"), Some("121.4737"), Err(Illegal)),
            (Some("31.2304"), Some("-inf"), Err(Illegal)),
            // Out of range → Illegal.
            (Some("90.0001"), Some("121.4737"), Err(Illegal)),
            (Some("-90.001"), Some("121.4737"), Err(Illegal)),
            (Some("31.2304"), Some("180.001"), Err(Illegal)),
            (Some("121.4737"), Some("31.2304"), Err(Illegal)), // swapped
            // Placeholder pairs → Illegal.
            (Some("0.00000"), Some("0.0000"), Err(Illegal)),
            (Some("4.9E-324"), Some("4.9E-324"), Err(Illegal)),
            (Some("4.9E-324"), Some("121.4737"), Err(Illegal)),
            (Some("1.00000"), Some("1.0"), Err(Illegal)),
        ];
        for (lat, lng, want) in cases {
            assert_eq!(parse_query_point(lat, lng), want, "lat {lat:?} lng {lng:?}");
        }
    }

    #[test]
    fn is_illegal_latitude_cases() {
        let cases = [
            (None, true),
            (Some(""), true),
            (Some("31"), true),
            (Some("31.23"), true),
            (Some(" 31.23 "), true),
            (Some("31.230"), false),
            (Some("31.2304"), false),
            (Some("-31.23"), false),
        ];
        for (lat, want) in cases {
            assert_eq!(is_illegal_latitude(lat), want, "{lat:?}");
        }
    }
}
