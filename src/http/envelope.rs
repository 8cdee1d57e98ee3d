//! The response envelope `{"errCode": "00", "errMsg": "", "data": …}` and the success reply.

use actix_web::body::BoxBody;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, Responder};
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
        let cache = match self.max_age_seconds {
            Some(s) => HeaderValue::try_from(format!("public, max-age={s}"))
                .unwrap_or_else(|_| HeaderValue::from_static("no-store")),
            None => HeaderValue::from_static("no-store"),
        };
        let mut response = HttpResponse::Ok();
        for (name, value) in self.headers {
            response.insert_header((name, value));
        }
        response
            .insert_header((header::CACHE_CONTROL, cache))
            // The body is in the request's language.
            .insert_header((header::VARY, "Accept-Language"))
            .json(Envelope {
                err_code: "00".into(),
                err_msg: String::new(),
                data: self.data,
            })
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
