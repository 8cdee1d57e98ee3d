//! The one error type of the HTTP layer. Every error a user can see maps here to an errCode,
//! an HTTP status and a message in zh and en; the language is chosen per request.

use crate::http::edge::context::current_lang;
use crate::http::edge::envelope::Envelope;
use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use actors::domain::lang::Lang;
use std::borrow::Cow;
use std::fmt;

/// A user-facing text in both languages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Msg {
    pub zh: Cow<'static, str>,
    pub en: Cow<'static, str>,
}

impl Msg {
    pub const fn fixed(zh: &'static str, en: &'static str) -> Msg {
        Msg {
            zh: Cow::Borrowed(zh),
            en: Cow::Borrowed(en),
        }
    }

    pub fn new(zh: impl Into<Cow<'static, str>>, en: impl Into<Cow<'static, str>>) -> Msg {
        Msg {
            zh: zh.into(),
            en: en.into(),
        }
    }

    pub fn pick(&self, lang: Lang) -> &str {
        match lang {
            Lang::Zh => &self.zh,
            Lang::En => &self.en,
        }
    }
}

impl fmt::Display for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.en)
    }
}

/// One field of a form that failed, for forms that show every error at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub field: &'static str,
    pub msg: Msg,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Input that does not parse or breaks a rule; says which and why.
    #[error("bad input: {0}")]
    BadInput(Msg),
    /// Several form fields at once: errMsg is the first, data lists them all as
    /// `[{field, message}]`. Never empty.
    #[error("invalid fields: {0:?}")]
    Invalid(Vec<FieldError>),
    #[error("unknown channel")]
    UnknownChannel,
    #[error("login required")]
    LoginRequired,
    #[error("session expired")]
    SessionExpired,
    #[error("illegal request")]
    IllegalRequest,
    #[error("forbidden")]
    Forbidden,
    #[error("not found: {0}")]
    NotFound(Msg),
    /// Store lookups answer errCode "02" (spec ordering §7), sometimes still with a list.
    #[error("store lookup: {msg}")]
    StoreLookup {
        msg: Msg,
        status: StatusCode,
        data: Option<serde_json::Value>,
    },
    #[error("conflict: {0}")]
    Conflict(Msg),
    /// The cart cannot be checked out (spec ordering §8 cart hints: empty, no valid item):
    /// errCode "-20". Not "-4": spec account §4 gives the cart's "-4" one meaning, a success
    /// that asks the customer to bind the chat app's account (bindOpenIdAction), which this
    /// server does not send.
    #[error("cart: {0}")]
    Cart(Msg),
    /// The delivery address is outside the store's delivery area: errCode "-5".
    #[error("out of delivery area")]
    OutOfArea,
    /// The provider refused a refund: errCode "01", 退券失败，请联系客服 (spec §5, §8); data
    /// `{content, storeTel}` for the alert.
    #[error("refund refused: {content}")]
    RefundFailed { content: String, store_tel: String },
    /// The client's amounts differ from the server's: errCode "-6", data is the fresh cart.
    #[error("amounts changed")]
    AmountsChanged(serde_json::Value),
    /// A coupon the order uses was used or expired since the customer looked (another order,
    /// another device): errCode "-6" like any change of amounts, its name in the message,
    /// data is the fresh cart (priced without it).
    #[error("coupon taken: {}", names.en)]
    CouponTaken { names: Msg, cart: serde_json::Value },
    /// Items of the cart were marked sold out by the store since the customer looked: errCode
    /// "-7", the names in the message, data is the fresh cart (those items disabled).
    #[error("sold out: {}", names.en)]
    SoldOut { names: Msg, cart: serde_json::Value },
    /// A body over the size limit.
    #[error("payload too large")]
    PayloadTooLarge,
    /// A request target over the limit (`edge::head_limits`).
    #[error("uri too long")]
    UriTooLong,
    /// Header fields over the limit, or more of them than the parser reads.
    #[error("headers too large")]
    HeadersTooLarge,
    /// The customer chose a promotion that cannot save anything on this cart: errCode "-8",
    /// the reason (再买¥x可享, not in effect …) in the message, data is the cart unchanged.
    #[error("promotion refused: {}", msg.en)]
    RuleRefused { msg: Msg, cart: serde_json::Value },
    #[error("too frequent")]
    TooFrequent,
    /// Too frequent, with how long to wait: data `{retryAfterSeconds}` and a Retry-After header.
    #[error("rate limited: {msg}")]
    RateLimited { msg: Msg, retry_after_seconds: u64 },
    #[error("service unavailable: {0}")]
    Unavailable(Msg),
    #[error("internal error: {0:#}")]
    Internal(#[from] anyhow::Error),
}

/// The cart cannot be checked out (see [`ApiError::Cart`]).
pub const CART_NOT_READY: &str = "-20";

impl ApiError {
    pub fn bad_input(zh: impl Into<Cow<'static, str>>, en: impl Into<Cow<'static, str>>) -> Self {
        ApiError::BadInput(Msg::new(zh, en))
    }

    pub fn conflict(zh: impl Into<Cow<'static, str>>, en: impl Into<Cow<'static, str>>) -> Self {
        ApiError::Conflict(Msg::new(zh, en))
    }

    pub fn cart(zh: impl Into<Cow<'static, str>>, en: impl Into<Cow<'static, str>>) -> Self {
        ApiError::Cart(Msg::new(zh, en))
    }

    pub fn not_found(zh: impl Into<Cow<'static, str>>, en: impl Into<Cow<'static, str>>) -> Self {
        ApiError::NotFound(Msg::new(zh, en))
    }

    /// The standard 429 text with the seconds left in it.
    pub fn too_frequent_for(seconds: u64) -> Self {
        ApiError::RateLimited {
            msg: Msg::new(
                format!("请求频繁，请稍后再试（{seconds}秒）"),
                format!("Too many requests, please try again in {seconds} s"),
            ),
            retry_after_seconds: seconds,
        }
    }

    /// The customer's promotion choice cannot save anything: `why` says what is missing.
    pub fn rule_refused(rule: &Msg, why: &Msg, cart: serde_json::Value) -> Self {
        ApiError::RuleRefused {
            msg: Msg::new(
                format!("「{}」暂不可用：{}", rule.zh, why.zh),
                format!("{} cannot be used: {}", rule.en, why.en),
            ),
            cart,
        }
    }

    pub fn internal(err: impl Into<anyhow::Error>) -> Self {
        ApiError::Internal(err.into())
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadInput(_) | ApiError::Invalid(_) | ApiError::UnknownChannel => "400",
            ApiError::LoginRequired => "401",
            ApiError::SessionExpired => "407",
            ApiError::IllegalRequest => "400233",
            ApiError::Forbidden => "403",
            ApiError::NotFound(_) => "404",
            ApiError::StoreLookup { .. } => "02",
            ApiError::Conflict(_) => "409",
            ApiError::Cart(_) => CART_NOT_READY,
            ApiError::OutOfArea => "-5",
            ApiError::AmountsChanged(_) | ApiError::CouponTaken { .. } => "-6",
            ApiError::SoldOut { .. } => "-7",
            ApiError::RuleRefused { .. } => "-8",
            ApiError::RefundFailed { .. } => "01",
            ApiError::TooFrequent | ApiError::RateLimited { .. } => "429",
            ApiError::PayloadTooLarge => "413",
            ApiError::UriTooLong => "414",
            ApiError::HeadersTooLarge => "431",
            ApiError::Unavailable(_) => "503",
            ApiError::Internal(_) => "500",
        }
    }

    pub fn message(&self) -> Msg {
        match self {
            ApiError::BadInput(m)
            | ApiError::NotFound(m)
            | ApiError::Conflict(m)
            | ApiError::Cart(m)
            | ApiError::Unavailable(m)
            | ApiError::StoreLookup { msg: m, .. }
            | ApiError::RateLimited { msg: m, .. } => m.clone(),
            ApiError::Invalid(fields) => fields.first().map_or_else(
                || Msg::fixed("请求内容不正确", "The request is not valid"),
                |f| f.msg.clone(),
            ),
            ApiError::UnknownChannel => Msg::fixed(
                "未知渠道，请检查 X-Channel-Id",
                "Unknown channel: check the X-Channel-Id header",
            ),
            ApiError::LoginRequired => Msg::fixed("未登录", "Not logged in"),
            ApiError::SessionExpired => {
                Msg::fixed("登录过期!", "Your session has expired, please log in again")
            }
            ApiError::IllegalRequest => Msg::fixed("非法请求", "Illegal request"),
            ApiError::Forbidden => Msg::fixed("无权操作", "You are not allowed to do this"),
            ApiError::PayloadTooLarge => {
                Msg::fixed("请求内容过大", "The request body is too large")
            }
            ApiError::UriTooLong => Msg::fixed("请求地址过长", "The request URI is too long"),
            ApiError::HeadersTooLarge => {
                Msg::fixed("请求头过大", "The request headers are too large")
            }
            ApiError::TooFrequent => Msg::fixed(
                "请求频繁，请稍后再试",
                "Too many requests, please try again later",
            ),
            ApiError::OutOfArea => Msg::fixed(
                "地址不在门店配送范围内",
                "That address is outside the store's delivery area",
            ),
            ApiError::RefundFailed { .. } => Msg::fixed(
                "退券失败，请联系客服",
                "Refund failed, please contact customer service",
            ),
            ApiError::SoldOut { names, .. } => Msg::new(
                format!("商品已售罄：{}", names.zh),
                format!("Sold out: {}", names.en),
            ),
            ApiError::RuleRefused { msg, .. } => msg.clone(),
            ApiError::CouponTaken { names, .. } => Msg::new(
                format!("优惠券「{}」已不可用，请重新确认订单", names.zh),
                format!(
                    "The coupon {} can no longer be used; please check your order again",
                    names.en
                ),
            ),
            ApiError::AmountsChanged(_) => Msg::fixed(
                "订单金额有变化，请确认后重新提交",
                "The amounts have changed; please check and submit again",
            ),
            ApiError::Internal(_) => Msg::fixed(
                "服务器异常，请稍后再试!",
                "Server error, please try again later!",
            ),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadInput(_)
            | ApiError::Invalid(_)
            | ApiError::UnknownChannel
            | ApiError::IllegalRequest => StatusCode::BAD_REQUEST,
            ApiError::LoginRequired | ApiError::SessionExpired => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::StoreLookup { status, .. } => *status,
            ApiError::Conflict(_)
            | ApiError::AmountsChanged(_)
            | ApiError::CouponTaken { .. }
            | ApiError::SoldOut { .. } => StatusCode::CONFLICT,
            ApiError::Cart(_) | ApiError::OutOfArea | ApiError::RuleRefused { .. } => {
                StatusCode::BAD_REQUEST
            }
            ApiError::RefundFailed { .. } => StatusCode::BAD_GATEWAY,
            ApiError::TooFrequent | ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UriTooLong => StatusCode::URI_TOO_LONG,
            ApiError::HeadersTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let ApiError::Internal(err) = self {
            // The cause goes to the log with the request span; the user gets the generic text.
            tracing::error!(error = format!("{err:#}"), "internal error");
        }
        let lang = current_lang();
        let data = match self {
            ApiError::StoreLookup { data, .. } => data.clone().unwrap_or(serde_json::Value::Null),
            ApiError::AmountsChanged(cart)
            | ApiError::CouponTaken { cart, .. }
            | ApiError::SoldOut { cart, .. }
            | ApiError::RuleRefused { cart, .. } => cart.clone(),
            ApiError::RefundFailed { content, store_tel } => {
                serde_json::json!({ "content": content, "storeTel": store_tel })
            }
            ApiError::Invalid(fields) => fields
                .iter()
                .map(|f| serde_json::json!({"field": f.field, "message": f.msg.pick(lang)}))
                .collect(),
            ApiError::RateLimited {
                retry_after_seconds,
                ..
            } => serde_json::json!({ "retryAfterSeconds": retry_after_seconds }),
            _ => serde_json::Value::Null,
        };
        let body = Envelope {
            err_code: self.code().into(),
            err_msg: self.message().pick(lang).to_string(),
            data,
        };
        let mut res = HttpResponse::build(self.status_code());
        res.insert_header((header::CACHE_CONTROL, "no-store"));
        if let ApiError::RateLimited {
            retry_after_seconds,
            ..
        } = self
        {
            res.insert_header((header::RETRY_AFTER, retry_after_seconds.to_string()));
        }
        res.json(body)
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// Repository failures are internal unless a caller maps them to something better first,
/// except text the database cannot store (PostgreSQL refuses NUL and invalid UTF-8 in text,
/// where SQLite keeps them): that is the request's fault, and the statement changed nothing.
impl From<actors::stores::BoardFailure> for ApiError {
    fn from(err: actors::stores::BoardFailure) -> Self {
        match err {
            actors::stores::BoardFailure::Db(e) => e.into(),
            actors::stores::BoardFailure::Unavailable => {
                ApiError::internal(anyhow::anyhow!("store actor unavailable"))
            }
        }
    }
}

/// A refused submit: each refusal its errCode and words (the cart's contents -20, a changed
/// price or coupon -6 with the cart as it is now, a sold-out line with its names).
impl From<actors::checkout::CheckoutError> for ApiError {
    fn from(err: actors::checkout::CheckoutError) -> Self {
        use actors::checkout::{CheckoutError as E, PointsRefusal};
        use actors::domain::loyalty::DeductionError;
        let words = |m: &dyn Fn(Lang) -> String| (m(Lang::Zh), m(Lang::En));
        match err {
            E::Refused(r) if r.is_about_the_cart() => {
                let (zh, en) = words(&|l| r.message(l));
                ApiError::cart(zh, en)
            }
            E::Refused(r) => {
                let (zh, en) = words(&|l| r.message(l));
                ApiError::bad_input(zh, en)
            }
            E::Receiver(r) => {
                let (zh, en) = words(&|l| r.message(l));
                ApiError::bad_input(zh, en)
            }
            E::NotTaking { zh, en } => ApiError::bad_input(zh, en),
            E::NoStoreChosen => ApiError::bad_input("请先选择门店", "Please choose a store first"),
            E::NoSuchStore => ApiError::not_found("门店不存在", "No such store"),
            E::NoSuchAddress => ApiError::not_found("地址不存在", "No such address"),
            E::OutOfArea => ApiError::OutOfArea,
            E::SoldOut { zh, en, cart } => ApiError::SoldOut {
                names: Msg::new(zh, en),
                cart,
            },
            E::AmountsChanged { cart } => ApiError::AmountsChanged(cart),
            E::CouponTaken { code, .. } => ApiError::CouponTaken {
                names: Msg::new(code.clone(), code),
                cart: serde_json::Value::Null,
            },
            E::Points(PointsRefusal::NotMember) => loyalty::deduction_not_member(),
            E::Points(PointsRefusal::Rule(rule)) => match rule {
                DeductionError::Negative => loyalty::deduction_negative(),
                DeductionError::BelowMinimum(min) => loyalty::deduction_below_minimum(min),
                DeductionError::NotEnough(n) => loyalty::not_enough(n),
                DeductionError::OverCap(usable) => loyalty::deduction_over_cap(usable),
            },
            E::Stale => ApiError::conflict(
                "购物车已更新，请重试",
                "Your cart changed meanwhile; please try again",
            ),
            E::NumberTaken => number_taken(),
            E::Cart(e) => e.into(),
            E::Board(e) => e.into(),
            E::Db(e) => e.into(),
            E::Inconsistent(what) => ApiError::internal(anyhow::anyhow!(what)),
        }
    }
}

/// Submit drew taken order numbers three times running (never seen; a 409 to submit again,
/// never a 500).
pub fn number_taken() -> ApiError {
    ApiError::conflict(
        "下单的人太多了，请重新提交",
        "Too many orders at this moment; please submit again",
    )
}

/// An item that does not go into the cart: 404 for a product that does not exist, else 400.
impl From<actors::domain::cart::adding::AddRefusal> for ApiError {
    fn from(refusal: actors::domain::cart::adding::AddRefusal) -> Self {
        let (zh, en) = (refusal.message(Lang::Zh), refusal.message(Lang::En));
        if refusal.is_not_found() {
            ApiError::not_found(zh, en)
        } else {
            ApiError::bad_input(zh, en)
        }
    }
}

/// A comment refused: 409 about the order's state, 400 about the comment itself.
impl From<actors::domain::ordering::comment::CommentRefusal> for ApiError {
    fn from(refusal: actors::domain::ordering::comment::CommentRefusal) -> Self {
        let (zh, en) = (refusal.message(Lang::Zh), refusal.message(Lang::En));
        if refusal.is_conflict() {
            ApiError::conflict(zh, en)
        } else {
            ApiError::bad_input(zh, en)
        }
    }
}

impl From<actors::db::DbError> for ApiError {
    fn from(err: actors::db::DbError) -> Self {
        if let actors::db::DbError::Sqlx(sqlx::Error::Database(db)) = &err {
            // character_not_in_repertoire, untranslatable_character
            if matches!(db.code().as_deref(), Some("22021") | Some("22P05")) {
                return ApiError::bad_input(
                    "请求内容包含无法保存的字符",
                    "The request contains characters that cannot be stored",
                );
            }
        }
        ApiError::Internal(err.into())
    }
}

/// An answer that would not serialise is a bug of ours (the reply cache serialises early).
impl From<serde_json::Error> for ApiError {
    fn from(err: serde_json::Error) -> Self {
        ApiError::Internal(err.into())
    }
}

/// So are session store failures (the database or Redis being unreachable).
impl From<actors::accounts::sessions::StoreError> for ApiError {
    fn from(err: actors::accounts::sessions::StoreError) -> Self {
        ApiError::Internal(err.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_has_a_code_status_and_both_messages() {
        let all = [
            ApiError::bad_input("坏", "bad"),
            ApiError::UnknownChannel,
            ApiError::LoginRequired,
            ApiError::SessionExpired,
            ApiError::IllegalRequest,
            ApiError::Forbidden,
            ApiError::not_found("无", "none"),
            ApiError::StoreLookup {
                msg: Msg::fixed("未查询到门店", "No store found"),
                status: StatusCode::NOT_FOUND,
                data: None,
            },
            ApiError::Conflict(Msg::fixed("冲突", "conflict")),
            ApiError::TooFrequent,
            ApiError::too_frequent_for(42),
            ApiError::Invalid(vec![FieldError {
                field: "name",
                msg: Msg::fixed("姓名不能为空", "Name cannot be empty"),
            }]),
            ApiError::Unavailable(Msg::fixed("不可用", "unavailable")),
            ApiError::internal(anyhow::anyhow!("boom")),
            ApiError::cart("购物车为空，无法结算", "Your cart is empty"),
            ApiError::OutOfArea,
            ApiError::AmountsChanged(serde_json::Value::Null),
            ApiError::RefundFailed {
                content: "x".into(),
                store_tel: "021".into(),
            },
            ApiError::SoldOut {
                names: Msg::fixed("可口可乐", "Coca-Cola"),
                cart: serde_json::Value::Null,
            },
            ApiError::PayloadTooLarge,
            ApiError::rule_refused(
                &Msg::fixed("满200减40", "¥40 off over ¥200"),
                &Msg::fixed("再买¥25.60可享", "Add ¥25.60 more to get it"),
                serde_json::Value::Null,
            ),
            ApiError::CouponTaken {
                names: Msg::fixed("满100减20", "¥20 off ¥100"),
                cart: serde_json::Value::Null,
            },
        ];
        let expected = [
            ("400", 400),
            ("400", 400),
            ("401", 401),
            ("407", 401),
            ("400233", 400),
            ("403", 403),
            ("404", 404),
            ("02", 404),
            ("409", 409),
            ("429", 429),
            ("429", 429),
            ("400", 400),
            ("503", 503),
            ("500", 500),
            ("-20", 400),
            ("-5", 400),
            ("-6", 409),
            ("01", 502),
            ("-7", 409),
            ("413", 413),
            ("-8", 400),
            ("-6", 409),
        ];
        for (err, (code, status)) in all.iter().zip(expected) {
            assert_eq!(err.code(), code, "{err:?}");
            assert_eq!(err.status_code().as_u16(), status, "{err:?}");
            let msg = err.message();
            assert!(!msg.zh.is_empty() && !msg.en.is_empty(), "{err:?}");
        }
        assert_eq!(ApiError::SessionExpired.message().zh, "登录过期!");
        assert_eq!(ApiError::IllegalRequest.message().zh, "非法请求");
        assert_eq!(ApiError::TooFrequent.message().zh, "请求频繁，请稍后再试");
        assert_eq!(
            ApiError::too_frequent_for(42).message().zh,
            "请求频繁，请稍后再试（42秒）"
        );
    }
}

pub mod loyalty;

pub mod coupons;

pub mod payments;
