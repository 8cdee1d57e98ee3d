//! System calls: server time (getSysTime), page switches (pageColorShowSwitch) and the
//! agreements (getProtocol: the privacy policy and the user agreement).

pub mod health;

use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::Reply;
use crate::http::edge::error::{ApiError, ApiResult};
use crate::state::AppState;
use actix_web::{get, web};
use actors::domain::lang::Lang;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ServerTime {
    /// Epoch milliseconds.
    pub server_time: i64,
}

/// The server's clock, for the app's clock sync (spec: 500 ms timeout, retried).
#[utoipa::path(get, path = "/system/time", tag = "system", responses((status = 200, body = crate::http::edge::envelope::Envelope<ServerTime>)))]
pub async fn time(state: web::Data<AppState>) -> Reply<ServerTime> {
    Reply::new(ServerTime {
        server_time: state.clock.now_ms(),
    })
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageSwitch {
    /// Page codes shown in grey (mourning days).
    pub gray_page_list: Vec<String>,
    /// Whether the language switch is offered (the spec's field name).
    pub use1i8n: bool,
    pub product_search: bool,
}

/// Page switches; clients cache them 1 minute.
#[utoipa::path(tag = "system", responses((status = 200, body = crate::http::edge::envelope::Envelope<PageSwitch>)))]
#[get("/system/page-switch")]
pub async fn page_switch() -> Reply<PageSwitch> {
    Reply::new(PageSwitch {
        gray_page_list: Vec::new(),
        use1i8n: true,
        product_search: true,
    })
    .cached_for(60)
}

/// When the user agreement last changed (epoch ms, 2026-11-25 00:00 Beijing time).
pub const USER_AGREEMENT_UPDATED_AT: i64 = 1_795_536_000_000;

/// The texts, written for this product, in both languages (protocols/*.md beside this file).
fn protocol_text(code: &str, lang: Lang) -> Option<&'static str> {
    Some(match (code, lang) {
        ("privacyprotocol", Lang::Zh) => include_str!("protocols/privacy.zh.md"),
        ("privacyprotocol", Lang::En) => include_str!("protocols/privacy.en.md"),
        ("useragreement", Lang::Zh) => include_str!("protocols/user.zh.md"),
        ("useragreement", Lang::En) => include_str!("protocols/user.en.md"),
        _ => return None,
    })
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct ProtocolQuery {
    /// `privacyprotocol` (个人信息保护政策) or `useragreement` (用户协议).
    code: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProtocolDto {
    pub code: String,
    pub title: String,
    /// The version a reader agrees to: the update time's date, Beijing time (2026.01.01).
    pub version: String,
    /// When the text last changed (epoch ms). For the privacy policy it is the version users
    /// agree to ([privacy] policy_updated_at): an agreement older than it must be given again.
    pub update_time: i64,
    /// The text: a line "## …" starts a section, other lines are paragraphs (items numbered).
    pub content: String,
}

/// The date of `ms` in Beijing time, as 2026.01.01.
fn version_of(ms: i64) -> String {
    let days = (ms + 8 * 3_600_000).div_euclid(86_400_000);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year}.{month:02}.{day:02}")
}

/// The privacy policy or the user agreement (getProtocol), in the request's language, with its
/// version and update time; clients cache it 5 minutes (spec account §9).
#[utoipa::path(tag = "system", params(ProtocolQuery),
    responses((status = 200, body = crate::http::edge::envelope::Envelope<ProtocolDto>), (status = 404)))]
#[get("/system/protocol")]
pub async fn protocol(
    state: web::Data<AppState>,
    ctx: Ctx,
    query: web::Query<ProtocolQuery>,
) -> ApiResult<Reply<ProtocolDto>> {
    let code = query
        .code
        .as_deref()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let text = protocol_text(&code, ctx.lang)
        .ok_or_else(|| ApiError::not_found("协议不存在", "No such agreement"))?;
    let (title, content) = text.split_once('\n').unwrap_or((text, ""));
    let update_time = if code == "privacyprotocol" {
        state.privacy_policy_updated_at
    } else {
        USER_AGREEMENT_UPDATED_AT
    };
    Ok(Reply::new(ProtocolDto {
        title: title.trim_start_matches('#').trim().to_string(),
        content: content.trim().to_string(),
        version: version_of(update_time),
        update_time,
        code,
    })
    .cached_for(300))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_beijing_dates() {
        assert_eq!(version_of(USER_AGREEMENT_UPDATED_AT), "2026.11.25");
        assert_eq!(version_of(1_767_196_800_000), "2026.01.01");
        assert_eq!(version_of(0), "1970.01.01");
    }

    #[test]
    fn every_text_exists_in_both_languages_with_the_required_parts() {
        for code in ["privacyprotocol", "useragreement"] {
            for lang in [Lang::Zh, Lang::En] {
                let text = protocol_text(code, lang).unwrap_or_default();
                assert!(text.starts_with("# "), "{code} {lang:?}");
                assert!(text.matches("\n## ").count() >= 8, "{code} {lang:?}");
            }
        }
        let zh = protocol_text("privacyprotocol", Lang::Zh).unwrap_or_default();
        for part in [
            "手机号",
            "收货地址",
            "位置",
            "订单",
            "设备",
            "保存期限",
            "支付",
            "配送",
            "注销",
            "撤回",
            "联系",
        ] {
            assert!(zh.contains(part), "{part}");
        }
        let en = protocol_text("privacyprotocol", Lang::En).unwrap_or_default();
        for part in [
            "mobile number",
            "addresses",
            "Location",
            "Orders",
            "Device",
            "How long",
            "Payment",
            "Delivery",
            "close your account",
            "Withdrawing consent",
            "Contact",
        ] {
            assert!(en.contains(part), "{part}");
        }
        assert!(!en.chars().any(|c| ('\u{3400}'..='\u{9fff}').contains(&c)));
        assert!(protocol_text("memberagreement", Lang::Zh).is_none());
    }
}
