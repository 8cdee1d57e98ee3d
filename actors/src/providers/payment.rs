//! Payment providers (spec ordering §4 "Payment flow", §7 "Payment and order"; API.md
//! `POST /payments`, `POST /payments/notify/{provider}`). The trait is implemented in the
//! server (`src/providers/payment`): the sandbox (the embedded default, which behaves like a
//! real provider) and, later, real provider clients.
//!
//! A payment attempt is created at the provider, which answers channel-specific pay
//! instructions; the provider later POSTs a signed asynchronous notify to our notify URL and
//! repeats it until we answer [`PaymentProvider::notify_ack`]; `query` asks for the state when
//! the user comes back before the notify did; `refund` gives money back.
//!
//! The pure helpers here are the notify wire format every form-posting provider shares:
//! [`parse_form`] / [`encode_form`] (application/x-www-form-urlencoded) and the signature
//! [`sign_params`] / [`verify_params`] (HMAC-SHA256 over the sorted parameters, hex).

use crate::domain::channel::Channel;
use crate::domain::money::Fen;
use async_trait::async_trait;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use std::fmt;

type HmacSha256 = Hmac<Sha256>;

/// The parameter that carries the signature; it is not part of what is signed.
pub const SIGN_PARAM: &str = "sign";
const TAG_BYTES: usize = 32;

/// The refusal code of a refund (spec §4 refund, §8 "Refund failure alert"): error code 01
/// with a content text; the app shows 退券失败，请联系客服 with the store phone.
pub const REFUND_REFUSED: &str = "01";
/// The code a provider answers for a payment id it does not know.
pub const TRADE_NOT_EXIST: &str = "TRADE_NOT_EXIST";

/// How the customer pays (API.md `POST /payments` `method`), one per spec §7 creation call.
///
/// What each method's [`PayInstructions`] carry, and the spec call it stands for:
///
/// | method | spec call | instructions |
/// |---|---|---|
/// | `alipay_wap` | alipayWapCreateOrder | `html`: a form that submits itself to the cashier |
/// | `alipay_app` | alipayAppCreateOrder | `pay_info`: the order string for the Alipay SDK |
/// | `wechat_app` | getPrepayInfoApp | `pay_info`: the JSON for the WeChat SDK |
/// | `wechat_h5` | getPrepayInfoH5 | `url`: the page to redirect the browser to |
/// | `wechat_jsapi` | getPrepayInfoPubNum | `sign_info`: the JSON for WeixinJSBridge |
/// | `unionpay_app` | unionpayAppCreateOrder | `tn`: the UnionPay transaction number |
/// | `unionpay_web` | unionpayWebCreateOrder | `union_pay_paras`: the gateway form to submit |
/// | `ccb` | ccbLifeTOPay | `url`: the bank's pay page |
/// | `bbc` | bbcBankPay | `url`: the bank's pay page |
/// | `offline` | offlinePayment | none: pay on delivery needs no provider |
///
/// Which channel (`X-Channel-Id`) may use which method, [`PayMethod::allowed_in`]. The spec does
/// not give this table; it follows what each wallet allows: SDK methods need the native app, the
/// WeChat official-account pay (JSAPI) works only inside the WeChat browser and Alipay pages are
/// blocked there, WeChat H5 pay is for browsers outside WeChat (on a phone, wap, it opens WeChat;
/// on a computer, web, the provider's page shows the code to scan with it), the bank methods
/// belong to the bank channel, and pay on delivery is open everywhere. So inside WeChat only
/// WeChat Pay, inside Alipay only Alipay, and both in a phone's (wap) or a computer's (web)
/// browser (issue 22).
///
/// | method | 1 wap | 2 web | 3 android | 4 ios | 5 wechat | 9 alipay | 30 voucher | 31 carrier | 37 bank | 46 harmony |
/// |---|---|---|---|---|---|---|---|---|---|---|
/// | `alipay_wap` | ✓ | ✓ | | | | ✓ | ✓ | ✓ | | |
/// | `alipay_app` | | | ✓ | ✓ | | | | | | ✓ |
/// | `wechat_app` | | | ✓ | ✓ | | | | | | ✓ |
/// | `wechat_h5` | ✓ | ✓ | | | | | ✓ | ✓ | | |
/// | `wechat_jsapi` | | | | | ✓ | | | | | |
/// | `unionpay_app` | | | ✓ | ✓ | | | | | | ✓ |
/// | `unionpay_web` | ✓ | ✓ | | | | | ✓ | ✓ | ✓ | |
/// | `ccb` | | | | | | | | | ✓ | |
/// | `bbc` | | | | | | | | | ✓ | |
/// | `offline` | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PayMethod {
    AlipayWap,
    AlipayApp,
    WechatApp,
    WechatH5,
    WechatJsapi,
    UnionpayApp,
    UnionpayWeb,
    Ccb,
    Bbc,
    Offline,
}

impl PayMethod {
    pub const ALL: [PayMethod; 10] = [
        PayMethod::AlipayWap,
        PayMethod::AlipayApp,
        PayMethod::WechatApp,
        PayMethod::WechatH5,
        PayMethod::WechatJsapi,
        PayMethod::UnionpayApp,
        PayMethod::UnionpayWeb,
        PayMethod::Ccb,
        PayMethod::Bbc,
        PayMethod::Offline,
    ];

    /// The API.md name.
    pub fn as_str(self) -> &'static str {
        match self {
            PayMethod::AlipayWap => "alipay_wap",
            PayMethod::AlipayApp => "alipay_app",
            PayMethod::WechatApp => "wechat_app",
            PayMethod::WechatH5 => "wechat_h5",
            PayMethod::WechatJsapi => "wechat_jsapi",
            PayMethod::UnionpayApp => "unionpay_app",
            PayMethod::UnionpayWeb => "unionpay_web",
            PayMethod::Ccb => "ccb",
            PayMethod::Bbc => "bbc",
            PayMethod::Offline => "offline",
        }
    }

    /// Parses an API.md name, exactly (lower case, no spaces).
    pub fn parse(text: &str) -> Option<PayMethod> {
        PayMethod::ALL.into_iter().find(|m| m.as_str() == text)
    }

    /// Whether the method goes through a payment provider (everything but pay on delivery).
    pub fn needs_provider(self) -> bool {
        self != PayMethod::Offline
    }

    /// Whether a request from `channel` may pay this way (the table on [`PayMethod`]).
    pub fn allowed_in(self, channel: Channel) -> bool {
        use Channel as C;
        match self {
            PayMethod::AlipayWap => matches!(
                channel,
                C::Wap | C::Web | C::Alipay | C::MealVoucherPartner | C::MobileCarrier
            ),
            PayMethod::AlipayApp | PayMethod::WechatApp | PayMethod::UnionpayApp => {
                channel.is_app()
            }
            PayMethod::WechatH5 => matches!(
                channel,
                C::Wap | C::Web | C::MealVoucherPartner | C::MobileCarrier
            ),
            PayMethod::WechatJsapi => channel == C::Wechat,
            PayMethod::UnionpayWeb => matches!(
                channel,
                C::Wap | C::Web | C::MealVoucherPartner | C::MobileCarrier | C::Bank
            ),
            PayMethod::Ccb | PayMethod::Bbc => channel == C::Bank,
            PayMethod::Offline => true,
        }
    }

    /// The methods a channel offers, in [`PayMethod::ALL`] order.
    pub fn available_in(channel: Channel) -> Vec<PayMethod> {
        PayMethod::ALL
            .into_iter()
            .filter(|m| m.allowed_in(channel))
            .collect()
    }
}

impl fmt::Display for PayMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for PayMethod {
    type Err = String;
    fn from_str(s: &str) -> Result<PayMethod, String> {
        PayMethod::parse(s).ok_or_else(|| format!("unknown payment method {s:?}"))
    }
}

/// A payment attempt to create at the provider (spec §7 creation payload, as the server
/// computed it: client figures are never trusted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatePayment {
    /// Ours, unique per attempt; the provider's out-trade-number and the key of `query`,
    /// `refund` and the notify.
    pub payment_id: String,
    pub order_no: String,
    pub amount: Fen,
    /// What the customer sees at the cashier ("比萨订单 1234…").
    pub subject: String,
    pub method: PayMethod,
    /// Where the provider POSTs its asynchronous notify (absolute URL).
    pub notify_url: String,
    /// Where the browser goes after paying, failing or cancelling (spec §4: /order/status).
    pub return_url: String,
    /// The payer's IP (spec §7 `ip`; WeChat H5 checks it).
    pub client_ip: String,
    /// The payer's WeChat openId, needed by `wechat_jsapi` (spec §7 `openId`).
    pub open_id: Option<String>,
    /// Epoch ms after which the provider closes the unpaid attempt (the 30-minute
    /// pay-in-progress record).
    pub expires_at: i64,
}

/// What the client needs to hand the customer over to pay (spec §7 response fields). Which
/// field is set depends on the method (the table on [`PayMethod`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayInstructions {
    pub method: PayMethod,
    /// An HTML form that submits itself to the provider's cashier (the Alipay web flow).
    pub html: Option<String>,
    /// A page to send the browser to (H5 flows, bank pages).
    pub url: Option<String>,
    /// The string a native SDK takes (app flows).
    pub pay_info: Option<String>,
    /// Signed parameters for an in-browser bridge (WeChat JSAPI).
    pub sign_info: Option<String>,
    /// The UnionPay transaction number (unionpay_app).
    pub tn: Option<String>,
    /// The UnionPay gateway form (unionpay_web): `{action, method, params}`.
    pub union_pay_paras: Option<serde_json::Value>,
    /// The provider's own number for the trade.
    pub provider_trade_no: String,
}

impl PayInstructions {
    /// Instructions with nothing set but the method and the trade number.
    pub fn empty(method: PayMethod, provider_trade_no: impl Into<String>) -> PayInstructions {
        PayInstructions {
            method,
            html: None,
            url: None,
            pay_info: None,
            sign_info: None,
            tn: None,
            union_pay_paras: None,
            provider_trade_no: provider_trade_no.into(),
        }
    }
}

/// What the provider says about a payment attempt (`query`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProviderPaymentStatus {
    /// Created, not paid yet.
    Pending,
    /// Paid; a later refund does not change this answer.
    Paid {
        trade_no: String,
        amount: Fen,
        /// Epoch ms.
        paid_at: i64,
    },
    /// The payer failed or cancelled; the order may be paid with a new attempt.
    Failed { reason: String },
    /// Expired unpaid and closed by the provider.
    Closed,
}

/// The outcome an asynchronous notify reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotifyStatus {
    Paid,
    Failed,
    Cancelled,
}

impl NotifyStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            NotifyStatus::Paid => "paid",
            NotifyStatus::Failed => "failed",
            NotifyStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(text: &str) -> Option<NotifyStatus> {
        [
            NotifyStatus::Paid,
            NotifyStatus::Failed,
            NotifyStatus::Cancelled,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }
}

/// A verified asynchronous notify. The handler still checks the amount and the order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notify {
    pub payment_id: String,
    /// The provider's trade number.
    pub trade_no: String,
    pub status: NotifyStatus,
    pub amount: Fen,
    /// When the provider settled the payment, epoch ms.
    pub at: i64,
}

/// An accepted refund. Repeating a refund with the same `refund_id` answers the first result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundResult {
    pub refund_id: String,
    /// The provider's number for the refund.
    pub provider_refund_no: String,
    /// This refund.
    pub amount: Fen,
    /// Everything refunded on the payment so far, this refund included.
    pub refunded_total: Fen,
    /// Epoch ms.
    pub at: i64,
}

/// What closing an attempt at the provider found (Alipay's `alipay.trade.close`, WeChat Pay's
/// close order). A provider closes only an unpaid trade: one paid meanwhile answers `Paid`, and
/// the caller settles it instead of cancelling the order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CloseOutcome {
    /// The attempt is closed (now, or before: closing is idempotent); it can never be paid.
    Closed,
    /// The payer paid before the close reached the provider.
    Paid {
        trade_no: String,
        amount: Fen,
        /// Epoch ms.
        paid_at: i64,
    },
}

/// Whether a statement line is money in or money out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StatementKind {
    Payment,
    Refund,
}

/// One line of the provider's statement of a period (Alipay's bill download,
/// `alipay.data.dataservice.bill.downloadurl.query`; WeChat Pay's `downloadbill`): every payment
/// that succeeded and every refund made in the period, by the provider's clock.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatementLine {
    pub kind: StatementKind,
    /// Ours (the out-trade-number).
    pub payment_id: String,
    /// The provider's trade number.
    pub trade_no: String,
    /// Set on refund lines: our refund id.
    pub refund_id: Option<String>,
    /// Positive for both kinds.
    pub amount: Fen,
    /// When it happened at the provider, epoch ms.
    pub at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PaymentError {
    /// The provider could not be reached or answered nothing usable (network, timeout, 5xx):
    /// the call may be repeated.
    #[error("payment provider unavailable: {0}")]
    Unavailable(String),
    /// The provider refused the call. Refunds are refused with [`REFUND_REFUSED`] and a
    /// content text (spec §8); an unknown payment id with [`TRADE_NOT_EXIST`].
    #[error("payment provider refused ({code}): {msg}")]
    Rejected { code: String, msg: String },
    /// A notify whose signature does not verify; nothing may change because of it.
    #[error("payment notify signature does not verify")]
    BadSignature,
    /// A notify or an answer that cannot be read (missing fields, bad encoding).
    #[error("malformed payment message: {0}")]
    Malformed(String),
}

impl PaymentError {
    pub fn rejected(code: impl Into<String>, msg: impl Into<String>) -> PaymentError {
        PaymentError::Rejected {
            code: code.into(),
            msg: msg.into(),
        }
    }
}

#[async_trait]
pub trait PaymentProvider: Send + Sync {
    /// The provider's name in `POST /payments/notify/{provider}` ("sandbox").
    fn name(&self) -> &'static str;

    /// Creates the attempt at the provider and answers the pay instructions for its method.
    /// Creating the same `payment_id` again while it is unpaid answers the same instructions.
    async fn create(&self, req: &CreatePayment) -> Result<PayInstructions, PaymentError>;

    /// The state of an attempt at the provider.
    async fn query(&self, payment_id: &str) -> Result<ProviderPaymentStatus, PaymentError>;

    /// Gives back `amount` of a paid attempt; `refund_id` makes it idempotent.
    async fn refund(
        &self,
        payment_id: &str,
        refund_id: &str,
        amount: Fen,
    ) -> Result<RefundResult, PaymentError>;

    /// Closes an unpaid attempt so that it can no longer be paid (before our order is
    /// cancelled at expiry). An unknown payment id is [`PaymentError::Rejected`] with
    /// [`TRADE_NOT_EXIST`].
    async fn close(&self, payment_id: &str) -> Result<CloseOutcome, PaymentError>;

    /// Every payment and refund the provider recorded with `from_ms <= at < to_ms`, for
    /// reconciliation.
    async fn statement(&self, from_ms: i64, to_ms: i64)
        -> Result<Vec<StatementLine>, PaymentError>;

    /// Reads and verifies a notify body as POSTed to us. A signature that does not verify is
    /// [`PaymentError::BadSignature`]; the caller must then change nothing.
    fn verify_notify(&self, body: &[u8]) -> Result<Notify, PaymentError>;

    /// The body to answer a notify we have taken (or already had), so the provider stops
    /// repeating it ("success", as Alipay expects).
    fn notify_ack(&self) -> &'static str;
}

// ---- the wire format: form encoding and the signature -------------------------------------

/// Reads an application/x-www-form-urlencoded body: `+` is a space, `%XX` a byte, the result
/// UTF-8. Empty segments are skipped; a segment without `=` is a key with an empty value. A
/// key given twice is malformed (which one was signed would be ambiguous).
pub fn parse_form(body: &[u8]) -> Result<Vec<(String, String)>, PaymentError> {
    let mut out: Vec<(String, String)> = Vec::new();
    for segment in body.split(|&b| b == b'&').filter(|s| !s.is_empty()) {
        let (key, value) = match segment.iter().position(|&b| b == b'=') {
            Some(i) => (&segment[..i], &segment[i + 1..]),
            None => (segment, &[][..]),
        };
        let key = decode_component(key)?;
        let value = decode_component(value)?;
        if out.iter().any(|(k, _)| *k == key) {
            return Err(PaymentError::Malformed(format!(
                "parameter {key:?} given twice"
            )));
        }
        out.push((key, value));
    }
    Ok(out)
}

/// Writes parameters as an application/x-www-form-urlencoded body, in the order given: RFC
/// 3986 unreserved characters as they are, every other UTF-8 byte `%XX` (a space is `%20`).
pub fn encode_form<K: AsRef<str>, V: AsRef<str>>(params: &[(K, V)]) -> String {
    params
        .iter()
        .map(|(k, v)| {
            format!(
                "{}={}",
                encode_component(k.as_ref()),
                encode_component(v.as_ref())
            )
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// The value of `key`, if present.
pub fn param<'a, K: AsRef<str>, V: AsRef<str>>(params: &'a [(K, V)], key: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(k, _)| k.as_ref() == key)
        .map(|(_, v)| v.as_ref())
}

/// What is signed: every parameter but [`SIGN_PARAM`], sorted by key (then value), as
/// `k=v` joined by `&`, each key and value percent-encoded like [`encode_form`] so that a value
/// holding `&` or `=` cannot pose as other parameters.
pub fn signing_string<K: AsRef<str>, V: AsRef<str>>(params: &[(K, V)]) -> String {
    let mut pairs: Vec<(&str, &str)> = params
        .iter()
        .map(|(k, v)| (k.as_ref(), v.as_ref()))
        .filter(|(k, _)| *k != SIGN_PARAM)
        .collect();
    pairs.sort_unstable();
    encode_form(&pairs)
}

fn mac_of<K: AsRef<str>, V: AsRef<str>>(secret: &[u8], params: &[(K, V)]) -> Option<HmacSha256> {
    // HMAC takes a key of any length, so this never fails; no panic path either way.
    let mut mac = HmacSha256::new_from_slice(secret).ok()?;
    mac.update(signing_string(params).as_bytes());
    Some(mac)
}

/// The signature of the parameters (any `sign` among them is ignored): lower-case hex of the
/// HMAC-SHA256 of [`signing_string`] under `secret`.
pub fn sign_params<K: AsRef<str>, V: AsRef<str>>(secret: &[u8], params: &[(K, V)]) -> String {
    mac_of(secret, params)
        .map(|m| crate::hex::encode(&m.finalize().into_bytes()))
        .unwrap_or_default()
}

/// Whether the parameters carry a `sign` that is their signature, compared in constant time.
/// A missing sign, or one that is not 64 hex digits (either case), is false.
pub fn verify_params<K: AsRef<str>, V: AsRef<str>>(secret: &[u8], params: &[(K, V)]) -> bool {
    let Some(tag) = param(params, SIGN_PARAM).and_then(from_hex) else {
        return false;
    };
    tag.len() == TAG_BYTES && mac_of(secret, params).is_some_and(|m| m.verify_slice(&tag).is_ok())
}

/// Percent-encodes a form key or value (see [`encode_form`]).
pub fn encode_component(s: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0x0f)]));
        }
    }
    out
}

fn decode_component(raw: &[u8]) -> Result<String, PaymentError> {
    let hex = |b: u8| {
        char::from(b)
            .to_digit(16)
            .and_then(|d| u8::try_from(d).ok())
    };
    let mut bytes = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'+' => bytes.push(b' '),
            b'%' => {
                let pair = raw
                    .get(i + 1)
                    .copied()
                    .and_then(hex)
                    .zip(raw.get(i + 2).copied().and_then(hex));
                let Some((hi, lo)) = pair else {
                    return Err(PaymentError::Malformed("bad percent escape".into()));
                };
                bytes.push((hi << 4) | lo);
                i += 2;
            }
            b => bytes.push(b),
        }
        i += 1;
    }
    String::from_utf8(bytes).map_err(|_| PaymentError::Malformed("not UTF-8".into()))
}

fn from_hex(s: &str) -> Option<Vec<u8>> {
    let digit = |b: u8| {
        char::from(b)
            .to_digit(16)
            .and_then(|d| u8::try_from(d).ok())
    };
    let bytes = s.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    bytes
        .chunks_exact(2)
        .map(|pair| Some((digit(pair[0])? << 4) | digit(pair[1])?))
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const SECRET: &[u8] = b"test-secret";

    type Params = Vec<(String, String)>;

    fn pairs(list: &[(&str, &str)]) -> Params {
        list.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn methods_parse_from_their_api_names_only() {
        let cases = [
            ("alipay_wap", Some(PayMethod::AlipayWap)),
            ("alipay_app", Some(PayMethod::AlipayApp)),
            ("wechat_app", Some(PayMethod::WechatApp)),
            ("wechat_h5", Some(PayMethod::WechatH5)),
            ("wechat_jsapi", Some(PayMethod::WechatJsapi)),
            ("unionpay_app", Some(PayMethod::UnionpayApp)),
            ("unionpay_web", Some(PayMethod::UnionpayWeb)),
            ("ccb", Some(PayMethod::Ccb)),
            ("bbc", Some(PayMethod::Bbc)),
            ("offline", Some(PayMethod::Offline)),
            ("ALIPAY_WAP", None),
            (" offline", None),
            ("alipay", None),
            ("", None),
        ];
        for (text, want) in cases {
            assert_eq!(PayMethod::parse(text), want, "{text:?}");
        }
        for m in PayMethod::ALL {
            assert_eq!(PayMethod::parse(m.as_str()), Some(m));
            assert_eq!(m.to_string(), m.as_str());
            // serde uses the same names
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(json, format!("\"{}\"", m.as_str()));
            assert_eq!(serde_json::from_str::<PayMethod>(&json).unwrap(), m);
        }
        assert!(!PayMethod::Offline.needs_provider());
        assert!(PayMethod::Ccb.needs_provider());
    }

    #[test]
    fn the_channel_table() {
        use Channel as C;
        // Columns: wap, web, android, ios, wechat, alipay, 30, 31, 37, harmony.
        let columns = [
            C::Wap,
            C::Web,
            C::Android,
            C::Ios,
            C::Wechat,
            C::Alipay,
            C::MealVoucherPartner,
            C::MobileCarrier,
            C::Bank,
            C::Harmony,
        ];
        let table = [
            (PayMethod::AlipayWap, "xx...xxx.."),
            (PayMethod::AlipayApp, "..xx.....x"),
            (PayMethod::WechatApp, "..xx.....x"),
            (PayMethod::WechatH5, "xx....xx.."),
            (PayMethod::WechatJsapi, "....x....."),
            (PayMethod::UnionpayApp, "..xx.....x"),
            (PayMethod::UnionpayWeb, "xx....xxx."),
            (PayMethod::Ccb, "........x."),
            (PayMethod::Bbc, "........x."),
            (PayMethod::Offline, "xxxxxxxxxx"),
        ];
        assert_eq!(table.len(), PayMethod::ALL.len());
        for (method, row) in table {
            for (channel, mark) in columns.iter().zip(row.chars()) {
                assert_eq!(
                    method.allowed_in(*channel),
                    mark == 'x',
                    "{method} in {channel:?}"
                );
            }
        }
        assert_eq!(
            PayMethod::available_in(C::Wechat),
            vec![PayMethod::WechatJsapi, PayMethod::Offline]
        );
        // The labels the app shows: WeChat Pay only inside WeChat, Alipay only inside Alipay,
        // both in a phone's or a computer's browser (issue 22).
        let wallets = |channel| {
            let methods = PayMethod::available_in(channel);
            (
                methods.iter().any(|m| m.as_str().starts_with("wechat")),
                methods.iter().any(|m| m.as_str().starts_with("alipay")),
            )
        };
        assert_eq!(wallets(C::Wechat), (true, false));
        assert_eq!(wallets(C::Alipay), (false, true));
        assert_eq!(wallets(C::Wap), (true, true));
        assert_eq!(wallets(C::Web), (true, true));
        // Every channel can pay somehow online.
        for channel in C::ALL {
            assert!(
                PayMethod::available_in(channel)
                    .iter()
                    .any(|m| m.needs_provider()),
                "{channel:?}"
            );
        }
    }

    #[test]
    fn notify_statuses_round_trip() {
        for (text, want) in [
            ("paid", Some(NotifyStatus::Paid)),
            ("failed", Some(NotifyStatus::Failed)),
            ("cancelled", Some(NotifyStatus::Cancelled)),
            ("success", None),
            ("", None),
        ] {
            assert_eq!(NotifyStatus::parse(text), want, "{text:?}");
            if let Some(s) = want {
                assert_eq!(s.as_str(), text);
            }
        }
    }

    #[test]
    fn forms_parse() {
        let cases: [(&[u8], Result<Params, ()>); 9] = [
            (b"a=1&b=2", Ok(pairs(&[("a", "1"), ("b", "2")]))),
            (b"", Ok(vec![])),
            (b"&&a=1&", Ok(pairs(&[("a", "1")]))),
            (b"a=&b", Ok(pairs(&[("a", ""), ("b", "")]))),
            (b"s=a+b%20c%2B", Ok(pairs(&[("s", "a b c+")]))),
            (
                b"x=%E6%AF%94%e8%90%a8&y=a%3Db%26c",
                Ok(pairs(&[("x", "比萨"), ("y", "a=b&c")])),
            ),
            (b"a=1&a=2", Err(())),
            (b"a=%4", Err(())),
            (b"a=%FF", Err(())),
        ];
        for (body, want) in cases {
            let got = parse_form(body).map_err(|_| ());
            assert_eq!(got, want, "{:?}", String::from_utf8_lossy(body));
        }
    }

    #[test]
    fn forms_round_trip() {
        let params = pairs(&[
            ("payment_id", "p-1"),
            ("subject", "比萨 order #12 & more=yes"),
            ("empty", ""),
            ("tilde", "a~b.c_d-e"),
        ]);
        let body = encode_form(&params);
        assert_eq!(
            body,
            "payment_id=p-1&subject=%E6%AF%94%E8%90%A8%20order%20%2312%20%26%20more%3Dyes&empty=&tilde=a~b.c_d-e"
        );
        assert_eq!(parse_form(body.as_bytes()).unwrap(), params);
        assert_eq!(param(&params, "empty"), Some(""));
        assert_eq!(param(&params, "missing"), None);
    }

    #[test]
    fn signing_string_sorts_skips_sign_and_encodes() {
        let cases = [
            (vec![("b", "2"), ("a", "1")], "a=1&b=2"),
            (vec![("b", "2"), ("sign", "zz"), ("a", "1")], "a=1&b=2"),
            (
                vec![("amount", "8990"), ("at", "1"), ("a", "")],
                "a=&amount=8990&at=1",
            ),
            // a value cannot pose as two parameters
            (vec![("a", "1&b=2")], "a=1%26b%3D2"),
            (vec![], ""),
        ];
        for (params, want) in cases {
            assert_eq!(signing_string(&params), want, "{params:?}");
        }
    }

    #[test]
    fn signature_matches_a_known_vector() {
        // python3: hmac.new(b"test-secret", b"amount=8990&at=1700000000000&payment_id=p1&status=paid&trade_no=T1", "sha256").hexdigest()
        let params = [
            ("payment_id", "p1"),
            ("trade_no", "T1"),
            ("status", "paid"),
            ("amount", "8990"),
            ("at", "1700000000000"),
        ];
        let sign = sign_params(SECRET, &params);
        assert_eq!(sign.len(), 64);
        assert!(sign
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        assert_eq!(
            sign,
            "824d37971ef6687e7e632e9b38c8bcb76f612c6f8f32951b46057957e0a80692"
        );
    }

    #[test]
    fn verification_table() {
        let base = [("payment_id", "p1"), ("status", "paid"), ("amount", "8990")];
        let good = sign_params(SECRET, &base);
        let with = |params: &[(&str, &str)], sign: &str| {
            let mut v = pairs(params);
            v.push(("sign".into(), sign.into()));
            v
        };
        let cases: Vec<(&str, &[u8], Params, bool)> = vec![
            ("genuine", SECRET, with(&base, &good), true),
            (
                "upper-case hex",
                SECRET,
                with(&base, &good.to_uppercase()),
                true,
            ),
            (
                "order does not matter",
                SECRET,
                with(
                    &[("amount", "8990"), ("status", "paid"), ("payment_id", "p1")],
                    &good,
                ),
                true,
            ),
            ("other secret", b"other", with(&base, &good), false),
            (
                "amount changed",
                SECRET,
                with(
                    &[("payment_id", "p1"), ("status", "paid"), ("amount", "1")],
                    &good,
                ),
                false,
            ),
            (
                "status changed",
                SECRET,
                with(
                    &[
                        ("payment_id", "p1"),
                        ("status", "failed"),
                        ("amount", "8990"),
                    ],
                    &good,
                ),
                false,
            ),
            (
                "field added",
                SECRET,
                with(
                    &[
                        ("payment_id", "p1"),
                        ("status", "paid"),
                        ("amount", "8990"),
                        ("x", ""),
                    ],
                    &good,
                ),
                false,
            ),
            ("no sign", SECRET, pairs(&base), false),
            ("empty sign", SECRET, with(&base, ""), false),
            ("short sign", SECRET, with(&base, &good[..62]), false),
            ("not hex", SECRET, with(&base, &"g".repeat(64)), false),
            ("odd length", SECRET, with(&base, &good[..63]), false),
        ];
        for (name, secret, params, want) in cases {
            assert_eq!(verify_params(secret, &params), want, "{name}");
        }
    }

    #[test]
    fn a_signed_form_survives_the_wire() {
        let mut params = pairs(&[("payment_id", "p 1"), ("subject", "比萨&=+%")]);
        let sign = sign_params(SECRET, &params);
        params.push(("sign".into(), sign));
        let parsed = parse_form(encode_form(&params).as_bytes()).unwrap();
        assert!(verify_params(SECRET, &parsed));
    }

    #[test]
    fn errors_read_well() {
        assert_eq!(
            PaymentError::rejected("01", "退款金额超过可退金额").to_string(),
            "payment provider refused (01): 退款金额超过可退金额"
        );
        assert_eq!(
            PaymentError::BadSignature.to_string(),
            "payment notify signature does not verify"
        );
    }
}
