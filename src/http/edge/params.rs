//! Query and path inputs parsed once at the edge into trusted values, each with a clear zh/en
//! message when it does not parse.

use crate::http::edge::error::{ApiError, ApiResult};
use actors::domain::catalogue::{DELIVERY, DINE_IN, PICKUP};

/// A store, product, city or district code: 1 to 32 letters, digits, '-' or '_'.
pub fn code(field: &'static str, value: &str) -> ApiResult<String> {
    let v = value.trim();
    // Byte by byte (a byte of any other character is not ASCII, so fails too), in one pass
    // without an early exit, which the compiler vectorises: every store, product and order
    // read checks one.
    let ok = !v.is_empty()
        && v.len() <= 32
        && v.bytes().fold(true, |ok, b| {
            ok & (b.is_ascii_alphanumeric() | (b == b'-') | (b == b'_'))
        });
    if ok {
        Ok(v.to_string())
    } else {
        Err(ApiError::bad_input(
            format!("{field} 格式不正确"),
            format!("{field} is not a valid code"),
        ))
    }
}

pub fn optional_code(field: &'static str, value: Option<&str>) -> ApiResult<Option<String>> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(v) => code(field, v).map(Some),
    }
}

/// orderType: 0 delivery (the default), 1 pickup, 2 dine-in.
pub fn order_type(value: Option<&str>) -> ApiResult<u8> {
    match value.map(str::trim) {
        None | Some("") => Ok(DELIVERY),
        Some("0") => Ok(DELIVERY),
        Some("1") => Ok(PICKUP),
        Some("2") => Ok(DINE_IN),
        Some(_) => Err(ApiError::bad_input(
            "orderType 只能是 0（外送）、1（外带）或 2（堂食）",
            "orderType must be 0 (delivery), 1 (pickup) or 2 (dine-in)",
        )),
    }
}

/// An epoch-milliseconds time; absent means `now`. Years 2000 to 2100 only.
pub fn epoch_ms(field: &'static str, value: Option<&str>, now: i64) -> ApiResult<i64> {
    const MIN: i64 = 946_684_800_000; // 2000-01-01
    const MAX: i64 = 4_102_444_800_000; // 2100-01-01
    match value.map(str::trim) {
        None | Some("") => Ok(now),
        Some(v) => match v.parse::<i64>() {
            Ok(ms) if (MIN..MAX).contains(&ms) => Ok(ms),
            _ => Err(ApiError::bad_input(
                format!("{field} 必须是毫秒时间戳"),
                format!("{field} must be a time in epoch milliseconds"),
            )),
        },
    }
}

/// 0 or 1 flags such as isBookOrder; absent is 0.
pub fn flag(field: &'static str, value: Option<&str>) -> ApiResult<bool> {
    match value.map(str::trim) {
        None | Some("") | Some("0") => Ok(false),
        Some("1") => Ok(true),
        Some(_) => Err(ApiError::bad_input(
            format!("{field} 只能是 0 或 1"),
            format!("{field} must be 0 or 1"),
        )),
    }
}

/// A search keyword: trimmed, at most 50 characters; blank is None.
pub fn keyword(value: Option<&str>) -> ApiResult<Option<String>> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(v) if v.chars().count() <= 50 => Ok(Some(v.to_string())),
        Some(_) => Err(ApiError::bad_input(
            "搜索关键字不能超过50个字符",
            "The search keyword cannot exceed 50 characters",
        )),
    }
}

/// A 1-based page number, at most 1000.
pub fn page(value: Option<&str>) -> ApiResult<u32> {
    match value.map(str::trim) {
        None | Some("") => Ok(1),
        Some(v) => match v.parse::<u32>() {
            Ok(n) if (1..=1000).contains(&n) => Ok(n),
            _ => Err(ApiError::bad_input(
                "页码不正确",
                "page must be a number from 1 to 1000",
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes() {
        let cases = [
            ("SH001", true),
            (" 88888 ", true),
            ("a-b_c", true),
            ("", false),
            ("  ", false),
            ("SH 001", false),
            ("门店", false),
            ("'; DROP TABLE stores;--", false),
            (&"x".repeat(33), false),
            (&"x".repeat(32), true),
            ("\u{3000}SH001\u{3000}", true),
            ("SHé01", false),
            ("SH\u{ff10}01", false),
        ];
        for (v, ok) in cases {
            assert_eq!(code("storeCode", v).is_ok(), ok, "{v:?}");
        }
    }

    /// Random strings over an alphabet with every class the check tells apart, against the
    /// rule as written: 1 to 32 ASCII letters, digits, '-' or '_' once trimmed.
    #[test]
    fn codes_agree_with_the_rule_on_random_strings() {
        use rand::{Rng, SeedableRng};
        const ALPHABET: [char; 10] = ['a', 'Z', '7', '-', '_', ' ', '.', 'é', '\u{3000}', '门'];
        let mut rng = rand::rngs::StdRng::seed_from_u64(8);
        for _ in 0..20_000 {
            let len = rng.gen_range(0..36);
            let v: String = (0..len)
                .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())])
                .collect();
            let t = v.trim();
            let want = !t.is_empty()
                && t.len() <= 32
                && t.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            assert_eq!(
                code("storeCode", &v).ok(),
                want.then(|| t.to_string()),
                "{v:?}"
            );
        }
    }

    #[test]
    fn order_types() {
        let cases = [
            (None, Some(0)),
            (Some(""), Some(0)),
            (Some("0"), Some(0)),
            (Some("1"), Some(1)),
            (Some("2"), Some(2)),
            (Some("3"), None),
            (Some("-1"), None),
            (Some("delivery"), None),
        ];
        for (v, want) in cases {
            assert_eq!(order_type(v).ok(), want, "{v:?}");
        }
    }

    #[test]
    fn epoch_millis() {
        let now = 1_790_000_000_000;
        let cases = [
            (None, Some(now)),
            (Some("1790000000001"), Some(1_790_000_000_001)),
            (Some("12"), None),
            (Some("abc"), None),
            (Some("9999999999999999"), None),
        ];
        for (v, want) in cases {
            assert_eq!(epoch_ms("orderTime", v, now).ok(), want, "{v:?}");
        }
    }

    #[test]
    fn flags_keywords_pages() {
        assert_eq!(flag("isBookOrder", Some("1")).ok(), Some(true));
        assert_eq!(flag("isBookOrder", None).ok(), Some(false));
        assert!(flag("isBookOrder", Some("yes")).is_err());
        assert_eq!(keyword(Some("  ")).ok(), Some(None));
        assert_eq!(keyword(Some(" 榴莲 ")).ok(), Some(Some("榴莲".into())));
        assert!(keyword(Some(&"披".repeat(51))).is_err());
        assert_eq!(page(None).ok(), Some(1));
        assert!(page(Some("0")).is_err());
        assert!(page(Some("x")).is_err());
    }
}
