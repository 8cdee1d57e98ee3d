//! The OpenAPI document of every endpoint, served at /api-docs/openapi.json with a browsable
//! UI at /api-docs/.

use super::{cities, geo, health, menu, stores, system};
use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Pizza ordering API",
        description = "Every response is the envelope {errCode, errMsg, data}; errCode \"00\" is success. \
            Send Accept-Language (zh default, en) and X-Channel-Id (1 wap, 2 web, 3 android, 4 ios, \
            5 wechat, 9 alipay, 30, 31, 37, 46). Money is yuan with at most 2 decimals; times are epoch ms."
    ),
    servers((url = "/api/v1")),
    paths(
        system::time, system::page_switch,
        stores::default_store, stores::by_point, stores::nearby, stores::search, stores::by_code,
        cities::city_list, cities::districts,
        geo::ip, geo::regeo, geo::geocode, geo::places, geo::tips,
        menu::store_menu, menu::product, menu::search, menu::hot_words,
    ),
    tags(
        (name = "system"), (name = "stores"), (name = "location"), (name = "menu"),
    )
)]
pub struct ApiDoc;

#[derive(OpenApi)]
#[openapi(paths(health::live, health::ready))]
pub struct HealthDoc;

pub fn document() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    // Health lives outside /api/v1: give its paths their full form.
    let mut health = HealthDoc::openapi();
    for (path, item) in std::mem::take(&mut health.paths.paths) {
        doc.paths.paths.insert(format!("../..{path}"), item);
    }
    doc
}
