//! System calls: server time (getSysTime) and page switches (pageColorShowSwitch).

use super::envelope::Reply;
use crate::state::AppState;
use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ServerTime {
    /// Epoch milliseconds.
    pub server_time: i64,
}

/// The server's clock, for the app's clock sync (spec: 500 ms timeout, retried).
#[utoipa::path(tag = "system", responses((status = 200, body = super::envelope::Envelope<ServerTime>)))]
#[get("/system/time")]
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
#[utoipa::path(tag = "system", responses((status = 200, body = super::envelope::Envelope<PageSwitch>)))]
#[get("/system/page-switch")]
pub async fn page_switch() -> Reply<PageSwitch> {
    Reply::new(PageSwitch {
        gray_page_list: Vec::new(),
        use1i8n: true,
        product_search: true,
    })
    .cached_for(60)
}
