//! The tablet's history: today's (China day) finished, refused and cancelled orders of the
//! staff member's store, newest first, searchable by order number, the receiver's phone tail,
//! desk or name. A store's day is a few hundred orders at most, so the search runs over that
//! day's rows here rather than as SQL over JSON that SQLite and PostgreSQL spell differently.

use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult};
use crate::http::edge::params;
use crate::http::edge::staff_session::StaffAuth;
use crate::state::AppState;
use actix_web::{get, web};
use actors::domain::ordering::order_machine::state as s;
use actors::domain::stores::hours::start_of_china_day;
use actors::orders::view::{tablet_order, TabletOrder};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

const DEFAULT_PAGE_SIZE: u32 = 20;
const MAX_PAGE_SIZE: u32 = 50;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct HistoryQuery {
    /// Part of the order number, the last digits of the receiver's phone, a desk or a name.
    keyword: Option<String>,
    /// From 1.
    page: Option<String>,
    /// 1 to 50; 20 by default.
    page_size: Option<String>,
    /// When given, must be the staff member's own store (403 otherwise).
    store_code: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TabletHistoryDto {
    pub list: Vec<TabletOrder>,
    pub page: u32,
    pub page_size: u32,
    pub total: u32,
    pub has_more: bool,
}

fn page_size(value: Option<&str>) -> ApiResult<u32> {
    match value.map(str::trim) {
        None | Some("") => Ok(DEFAULT_PAGE_SIZE),
        Some(v) => match v.parse::<u32>() {
            Ok(n) if (1..=MAX_PAGE_SIZE).contains(&n) => Ok(n),
            _ => Err(ApiError::bad_input(
                "每页条数须为1到50",
                "pageSize must be a number from 1 to 50",
            )),
        },
    }
}

/// Whether an order answers the search: the order number holds it, the receiver's phone ends
/// with it (the tail a customer reads out), the desk is it, or the receiver's name holds it.
pub fn matches(keyword: &str, order_no: &str, doc: &Value) -> bool {
    let k = keyword.trim().trim_start_matches('#').to_lowercase();
    if k.is_empty() {
        return true;
    }
    let field = |key: &str| doc.get(key).and_then(Value::as_str).unwrap_or("");
    let phone: String = field("receiverMobile")
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    order_no.to_lowercase().contains(&k)
        || (k.len() >= 3 && k.chars().all(|c| c.is_ascii_digit()) && phone.ends_with(&k))
        || field("deskNo").to_lowercase() == k
        || (!field("receiverName").is_empty() && field("receiverName").to_lowercase().contains(&k))
}

/// Today's closed orders of the staff member's store (completed, refused, cancelled by the
/// customer), newest first, with the search and pages.
#[utoipa::path(tag = "tablet", params(HistoryQuery),
    responses((status = 200, body = Envelope<TabletHistoryDto>), (status = 400),
        (status = 401), (status = 403)))]
#[get("/tablet/history")]
pub async fn history(
    state: web::Data<AppState>,
    staff: StaffAuth,
    query: web::Query<HistoryQuery>,
) -> ApiResult<Reply<TabletHistoryDto>> {
    if let Some(code) = params::optional_code("storeCode", query.store_code.as_deref())? {
        staff.check_store(&code)?;
    }
    let keyword = params::keyword(query.keyword.as_deref())?;
    let page = params::page(query.page.as_deref())?;
    let page_size = page_size(query.page_size.as_deref())?;
    let repo = state.orders.repo();
    let since = start_of_china_day(state.clock.now_ms());
    let closed = [s::COMPLETED, s::REFUSED_BY_STORE, s::CANCELLED_BY_CUSTOMER];
    let found: Vec<String> = repo
        .store_closed_since(staff.store_code(), &closed, since)
        .await?
        .into_iter()
        .filter(|(no, doc)| keyword.as_deref().is_none_or(|k| matches(k, no, doc)))
        .map(|(no, _)| no)
        .collect();
    let total = found.len() as u32;
    let skip = ((page - 1) * page_size) as usize;
    let mut list = Vec::new();
    for order_no in found.iter().skip(skip).take(page_size as usize) {
        if let Some(row) = repo.find(order_no).await? {
            list.push(tablet_order(&row, &repo.history(order_no).await?));
        }
    }
    let store = crate::http::tablet::live_store(&state, staff.store_code()).await;
    crate::http::tablet::stamp_all(list.iter_mut(), store.as_ref(), state.clock.now_ms());
    Ok(Reply::new(TabletHistoryDto {
        list,
        page,
        page_size,
        total,
        has_more: (skip as u32).saturating_add(page_size) < total,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_table() {
        let doc = serde_json::json!({"receiverMobile": "13812345678", "deskNo": "A12", "receiverName": "王先生"});
        let no = "202611251230001234";
        let cases = [
            ("", true),
            ("1234", true),
            ("#1234", true),
            ("20261125", true),
            ("5678", true),
            ("678", true),
            ("78", false),
            ("1381", false),
            ("a12", true),
            ("A1", false),
            ("王", true),
            ("李", false),
            ("999999", false),
        ];
        for (k, want) in cases {
            assert_eq!(matches(k, no, &doc), want, "{k:?}");
        }
        assert!(!matches("李", no, &serde_json::json!({})));
    }

    #[test]
    fn page_sizes() {
        for (v, want) in [
            (None, Some(20)),
            (Some(""), Some(20)),
            (Some("1"), Some(1)),
            (Some("50"), Some(50)),
            (Some("0"), None),
            (Some("51"), None),
            (Some("x"), None),
        ] {
            assert_eq!(page_size(v).ok(), want, "{v:?}");
        }
    }
}
