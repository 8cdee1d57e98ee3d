//! Malformed bodies, queries and paths answer the envelope too, never actix's plain text, and
//! never the parser's own words: "invalid type: string, expected u32 at line 1 column 12" or
//! "invalid digit found in string" mean nothing to a customer and tell an attacker which
//! library reads the input. What is said is ours, in the request's language; a missing field
//! may be named, since the name is our own schema's.

use crate::http::edge::error::{ApiError, Msg};
use actix_web::error::{JsonPayloadError, PathError, QueryPayloadError};
use actix_web::web;

/// The largest JSON body read; a bigger one is refused before it is parsed.
pub const JSON_LIMIT: usize = 256 * 1024;

const NOT_JSON: Msg = Msg::fixed(
    "请求内容不是有效的JSON",
    "The request body is not valid JSON",
);
const WRONG_TYPE: Msg = Msg::fixed(
    "请求内容的字段类型或取值不正确",
    "A field of the request body has the wrong type or value",
);
const CONTENT_TYPE: Msg = Msg::fixed(
    "请求内容须为JSON（Content-Type: application/json）",
    "The request body must be JSON (Content-Type: application/json)",
);
const UNREADABLE: Msg = Msg::fixed("请求内容读取失败", "The request body could not be read");
const BAD_QUERY: Msg = Msg::fixed("请求参数不正确", "The query parameters are not valid");
const BAD_PATH: Msg = Msg::fixed("请求路径不正确", "The request path is not valid");

/// The field serde says is missing ("missing field `storeCode`"), when it looks like one of
/// our field names; anything else a client could have put there is not repeated.
fn missing_field(text: &str) -> Option<&str> {
    let rest = text.split("missing field `").nth(1)?;
    let name = rest.split('`').next()?;
    let ok = !name.is_empty()
        && name.len() <= 40
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    ok.then_some(name)
}

fn missing_body_field(name: &str) -> ApiError {
    ApiError::bad_input(format!("缺少字段 {name}"), format!("Missing field {name}"))
}

/// A JSON body that did not become the handler's type: not JSON at all, or JSON of the wrong
/// shape. Also for handlers that read `serde_json::Value` first and convert it themselves.
pub fn body_error(err: &serde_json::Error) -> ApiError {
    use serde_json::error::Category;
    match err.classify() {
        Category::Syntax | Category::Eof | Category::Io => ApiError::BadInput(NOT_JSON),
        Category::Data => match missing_field(&err.to_string()) {
            Some(name) => missing_body_field(name),
            None => ApiError::BadInput(WRONG_TYPE),
        },
    }
}

fn json_error(err: &JsonPayloadError) -> ApiError {
    match err {
        JsonPayloadError::OverflowKnownLength { .. } | JsonPayloadError::Overflow { .. } => {
            ApiError::PayloadTooLarge
        }
        JsonPayloadError::ContentType => ApiError::BadInput(CONTENT_TYPE),
        JsonPayloadError::Deserialize(e) => body_error(e),
        _ => ApiError::BadInput(UNREADABLE),
    }
}

fn query_error(err: &QueryPayloadError) -> ApiError {
    let QueryPayloadError::Deserialize(e) = err else {
        return ApiError::BadInput(BAD_QUERY);
    };
    match missing_field(&e.to_string()) {
        Some(name) => ApiError::bad_input(
            format!("缺少参数 {name}"),
            format!("Missing query parameter {name}"),
        ),
        None => ApiError::BadInput(BAD_QUERY),
    }
}

pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(JSON_LIMIT)
        .error_handler(|err, _req| {
            tracing::debug!(error = %err, "malformed JSON body");
            json_error(&err).into()
        })
}

pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, _req| {
        tracing::debug!(error = %err, "malformed query");
        query_error(&err).into()
    })
}

pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|err: PathError, _req| {
        tracing::debug!(error = %err, "malformed path");
        ApiError::BadInput(BAD_PATH).into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Body {
        store_code: String,
        quantity: u32,
        kind: Option<Kind>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Kind {
        Pizza,
    }

    /// Words of serde, serde_json and the integer parsers that must never reach a user.
    const PARSER_WORDS: [&str; 9] = [
        "invalid type",
        "expected",
        "line 1",
        "column",
        "invalid digit",
        "ParseIntError",
        "unknown variant",
        "EOF",
        "`",
    ];

    fn ours(err: &ApiError) -> (String, String) {
        let m = err.message();
        for text in [&m.zh, &m.en] {
            for word in PARSER_WORDS {
                assert!(!text.contains(word), "{word:?} in {text:?}");
            }
        }
        (m.zh.into_owned(), m.en.into_owned())
    }

    #[test]
    fn bodies_are_described_in_our_words() {
        let cases: &[(&str, &str)] = &[
            (
                r#"{"storeCode": "SH001", "quantity": "two"}"#,
                "A field of the request body has the wrong type or value",
            ),
            (
                r#"{"storeCode": "SH001", "quantity": -1}"#,
                "A field of the request body has the wrong type or value",
            ),
            (
                r#"{"storeCode": "SH001", "quantity": 99999999999}"#,
                "A field of the request body has the wrong type or value",
            ),
            (
                r#"{"storeCode": "SH001", "quantity": 1, "kind": "pasta"}"#,
                "A field of the request body has the wrong type or value",
            ),
            (
                r#"{"storeCode": 7, "quantity": 1}"#,
                "A field of the request body has the wrong type or value",
            ),
            (r#"{"quantity": 1}"#, "Missing field storeCode"),
            (r#"{"storeCode": "SH001"}"#, "Missing field quantity"),
            (
                r#"{"storeCode": "SH001", "quantity": 1"#,
                "The request body is not valid JSON",
            ),
            (r#"{storeCode: 1}"#, "The request body is not valid JSON"),
            ("", "The request body is not valid JSON"),
            (
                "[1, 2]",
                "A field of the request body has the wrong type or value",
            ),
            (
                "null",
                "A field of the request body has the wrong type or value",
            ),
        ];
        for (text, want) in cases {
            let Err(e) = serde_json::from_str::<Body>(text) else {
                panic!("{text} parsed");
            };
            let (zh, en) = ours(&body_error(&e));
            assert_eq!(en, *want, "{text}");
            assert!(!zh.is_empty() && zh != en);
        }
    }

    #[test]
    fn only_our_own_field_names_are_repeated() {
        assert_eq!(
            missing_field("missing field `cellPhone` at line 1"),
            Some("cellPhone")
        );
        assert_eq!(missing_field("missing field `a b`"), None);
        assert_eq!(missing_field("missing field `<script>`"), None);
        assert_eq!(missing_field("invalid digit found in string"), None);
        assert_eq!(
            missing_field(&format!("missing field `{}`", "x".repeat(41))),
            None
        );
    }

    #[test]
    fn queries_paths_and_payloads_are_described_in_our_words() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Query {
            page: u32,
        }
        for (text, want) in [
            ("page=abc", "The query parameters are not valid"),
            ("page=-1", "The query parameters are not valid"),
            ("", "Missing query parameter page"),
        ] {
            let Err(e) = web::Query::<Query>::from_query(text) else {
                panic!("{text} parsed");
            };
            let (_, en) = ours(&query_error(&e));
            assert_eq!(en, want, "{text}");
        }
        let too_big = json_error(&JsonPayloadError::Overflow { limit: JSON_LIMIT });
        assert_eq!(too_big.code(), "413");
        ours(&too_big);
        let (_, en) = ours(&json_error(&JsonPayloadError::ContentType));
        assert!(en.contains("application/json"));
    }
}
