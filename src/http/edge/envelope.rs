//! The response envelope `{"errCode": "00", "errMsg": "", "data": …}` and the success reply.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, Responder, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Envelope<T> {
    /// "00" on success; see the error catalogue otherwise.
    pub err_code: String,
    /// Empty on success; in the request's language otherwise.
    pub err_msg: String,
    pub data: T,
}

/// A successful answer: the envelope with errCode "00", optionally cacheable by clients for
/// the lifetimes of spec ordering §9.
pub struct Reply<T> {
    data: T,
    max_age_seconds: Option<u32>,
    headers: Vec<(&'static str, String)>,
}

impl<T: Serialize> Reply<T> {
    pub fn new(data: T) -> Reply<T> {
        Reply {
            data,
            max_age_seconds: None,
            headers: Vec::new(),
        }
    }

    pub fn into_data(self) -> T {
        self.data
    }

    /// Adds a response header (e.g. a newly issued `X-Cart-Token`).
    pub fn with_header(mut self, name: &'static str, value: String) -> Reply<T> {
        self.headers.push((name, value));
        self
    }

    pub fn cached_for(mut self, seconds: u32) -> Reply<T> {
        self.max_age_seconds = Some(seconds);
        self
    }
}

impl<T: Serialize> Responder for Reply<T> {
    type Body = BoxBody;

    fn respond_to(self, _req: &HttpRequest) -> HttpResponse {
        let envelope = Envelope {
            err_code: "00".into(),
            err_msg: String::new(),
            data: self.data,
        };
        let mut body = Vec::with_capacity(128);
        if let Err(e) = serde_json::to_writer(&mut body, &envelope) {
            return crate::http::edge::error::ApiError::Internal(anyhow::anyhow!(
                "serialising a reply: {e}"
            ))
            .error_response();
        }
        let mut response = ok_json(self.max_age_seconds, BoxBody::new(body));
        for (name, value) in self.headers {
            match (HeaderName::try_from(name), HeaderValue::try_from(value)) {
                (Ok(name), Ok(value)) => {
                    response.headers_mut().insert(name, value);
                }
                _ => tracing::error!(name, "a reply header that is no header"),
            }
        }
        response
    }
}

/// A 200 answer with a JSON body in the request's language: the headers every successful API
/// answer carries, set directly rather than through a builder (which parses each one).
pub fn ok_json<B: MessageBody + 'static>(max_age_seconds: Option<u32>, body: B) -> HttpResponse<B> {
    let mut response = HttpResponse::with_body(StatusCode::OK, body);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::CACHE_CONTROL, cache_control(max_age_seconds));
    // The body is in the request's language.
    headers.insert(header::VARY, HeaderValue::from_static("Accept-Language"));
    response
}

fn cache_control(max_age_seconds: Option<u32>) -> HeaderValue {
    match max_age_seconds {
        None => HeaderValue::from_static("no-store"),
        // The lifetimes the API uses, without formatting each time.
        Some(30) => HeaderValue::from_static("public, max-age=30"),
        Some(60) => HeaderValue::from_static("public, max-age=60"),
        Some(300) => HeaderValue::from_static("public, max-age=300"),
        Some(s) => HeaderValue::try_from(format!("public, max-age={s}"))
            .unwrap_or_else(|_| HeaderValue::from_static("no-store")),
    }
}

/// The `data` of an answer that only says it worked (`Reply<()>`, serialised as null), for the
/// OpenAPI document: `()` cannot be a generic argument of a documented type.
pub struct NoData;

impl utoipa::PartialSchema for NoData {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Null)
            .into()
    }
}

impl ToSchema for NoData {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kept values are what formatting would write, and any other lifetime is formatted.
    #[test]
    fn cache_control_says_the_lifetime_or_no_store() {
        assert_eq!(cache_control(None), "no-store");
        for seconds in [0, 1, 30, 60, 300, 7_200, 10_800, 18_000, u32::MAX] {
            assert_eq!(
                cache_control(Some(seconds)),
                format!("public, max-age={seconds}").as_str(),
                "{seconds}"
            );
        }
    }

    #[test]
    fn a_reply_is_the_envelope_with_its_headers() {
        let req = actix_web::test::TestRequest::default().to_http_request();
        let res = Reply::new(serde_json::json!({"a": 1}))
            .cached_for(60)
            .with_header("X-Cart-Token", "t1".to_string())
            .respond_to(&req);
        assert_eq!(res.status(), StatusCode::OK);
        let header = |name: &str| {
            res.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        assert_eq!(header("content-type").as_deref(), Some("application/json"));
        assert_eq!(
            header("cache-control").as_deref(),
            Some("public, max-age=60")
        );
        assert_eq!(header("vary").as_deref(), Some("Accept-Language"));
        assert_eq!(header("x-cart-token").as_deref(), Some("t1"));
    }
}
