//! The maps service through the maps provider: IP location, reverse geocode, geocode, place
//! search and input tips.

pub mod cities;
pub mod cities_dto;
pub mod dto;

use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult, Msg};
use crate::http::edge::params;
use crate::http::geo::dto::{LocationDoc, PoiDoc, PoiPageDoc};
use crate::state::AppState;
use actix_web::{get, web, HttpRequest};
use actors::domain::catalogue::LngLat;
use actors::domain::geo;
use actors::providers::maps::{LocationInfo, MapsError, Page, Poi};
use serde::Deserialize;
use std::net::IpAddr;
use utoipa::IntoParams;

/// Spec ordering §9: ip-to-point and reverse geocode are cached 18000 s by clients too,
/// an answer from the fallback service only 600 s.
const IP_SECONDS: u32 = 18_000;
const FALLBACK_SECONDS: u32 = 600;

/// Where the client is by its IP address (the sandbox gazetteer maps private ranges to the
/// default city).
#[utoipa::path(tag = "location",
    responses((status = 200, body = Envelope<LocationDoc>), (status = 404), (status = 503)))]
#[get("/geo/ip")]
pub async fn ip(
    state: web::Data<AppState>,
    ctx: Ctx,
    req: HttpRequest,
) -> ApiResult<Reply<LocationInfo>> {
    let ip = client_ip(&req);
    let info = state
        .maps
        .ip_location(ip, ctx.lang)
        .await
        .map_err(maps_error)?;
    let seconds = if info.from_fallback {
        FALLBACK_SECONDS
    } else {
        IP_SECONDS
    };
    Ok(Reply::new(info).cached_for(seconds))
}

/// The client's address (trusted proxies only, see client_ip), loopback without a peer.
fn client_ip(req: &HttpRequest) -> IpAddr {
    crate::http::edge::client_ip::client_addr(req).unwrap_or(IpAddr::from([127, 0, 0, 1]))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct RegeoQuery {
    latitude: Option<String>,
    longitude: Option<String>,
    /// gcj02 (default) or wgs84 (a browser's GPS fix; converted inside China only).
    coord_type: Option<String>,
}

/// The place at a point, with up to 20 points of interest within 1000 m.
#[utoipa::path(tag = "location", params(RegeoQuery),
    responses((status = 200, body = Envelope<LocationDoc>), (status = 404), (status = 503)))]
#[get("/geo/regeo")]
pub async fn regeo(
    state: web::Data<AppState>,
    ctx: Ctx,
    query: web::Query<RegeoQuery>,
) -> ApiResult<Reply<LocationInfo>> {
    let point = parse_point(query.latitude.as_deref(), query.longitude.as_deref())?;
    let point = match query.coord_type.as_deref().map(str::trim) {
        None | Some("") | Some("gcj02") => point,
        Some("wgs84") => geo::wgs84_to_gcj02(point),
        Some(_) => {
            return Err(ApiError::bad_input(
                "coordType 只能是 gcj02 或 wgs84",
                "coordType must be gcj02 or wgs84",
            ))
        }
    };
    let info = state
        .maps
        .reverse_geocode(point, ctx.lang)
        .await
        .map_err(maps_error)?;
    Ok(Reply::new(info).cached_for(IP_SECONDS))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct GeocodeQuery {
    address: Option<String>,
    city: Option<String>,
}

/// Points for an address text.
#[utoipa::path(tag = "location", params(GeocodeQuery),
    responses((status = 200, body = Envelope<Vec<PoiDoc>>), (status = 404), (status = 503)))]
#[get("/geo/geocode")]
pub async fn geocode(
    state: web::Data<AppState>,
    ctx: Ctx,
    query: web::Query<GeocodeQuery>,
) -> ApiResult<Reply<Vec<Poi>>> {
    let address = required_text("address", query.address.as_deref())?;
    let city = params::keyword(query.city.as_deref())?;
    let found = state
        .maps
        .geocode(&address, city.as_deref(), ctx.lang)
        .await
        .map_err(maps_error)?;
    Ok(Reply::new(found))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct PlacesQuery {
    keyword: Option<String>,
    city: Option<String>,
    page: Option<String>,
}

/// Place search by text, 15 a page.
#[utoipa::path(tag = "location", params(PlacesQuery),
    responses((status = 200, body = Envelope<PoiPageDoc>), (status = 404), (status = 503)))]
#[get("/geo/places")]
pub async fn places(
    state: web::Data<AppState>,
    ctx: Ctx,
    query: web::Query<PlacesQuery>,
) -> ApiResult<Reply<Page<Poi>>> {
    let keyword = required_text("keyword", query.keyword.as_deref())?;
    let city = params::keyword(query.city.as_deref())?;
    let page = params::page(query.page.as_deref())?;
    let found = state
        .maps
        .place_search(&keyword, city.as_deref(), page, ctx.lang)
        .await
        .map_err(maps_error)?;
    Ok(Reply::new(found))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct TipsQuery {
    keyword: Option<String>,
    city: Option<String>,
}

/// Input suggestions while typing an address (at most 15, limited to the city when given).
#[utoipa::path(tag = "location", params(TipsQuery),
    responses((status = 200, body = Envelope<Vec<PoiDoc>>), (status = 404), (status = 503)))]
#[get("/geo/tips")]
pub async fn tips(
    state: web::Data<AppState>,
    ctx: Ctx,
    query: web::Query<TipsQuery>,
) -> ApiResult<Reply<Vec<Poi>>> {
    let keyword = required_text("keyword", query.keyword.as_deref())?;
    let city = params::keyword(query.city.as_deref())?;
    let found = state
        .maps
        .input_tips(&keyword, city.as_deref(), ctx.lang)
        .await
        .map_err(maps_error)?;
    Ok(Reply::new(found))
}

fn required_text(field: &'static str, value: Option<&str>) -> ApiResult<String> {
    params::keyword(value)?.ok_or_else(|| {
        ApiError::bad_input(
            format!("{field} 不能为空"),
            format!("{field} cannot be empty"),
        )
    })
}

fn parse_point(latitude: Option<&str>, longitude: Option<&str>) -> ApiResult<LngLat> {
    geo::parse_query_point(latitude, longitude)
        .map_err(|err| ApiError::BadInput(Msg::fixed(err.message_zh(), err.message_en())))
}

fn maps_error(err: MapsError) -> ApiError {
    match err {
        MapsError::NotFound => ApiError::not_found(
            "抱歉，没有相关地址，请重新输入",
            "Sorry, there is no relevant address, please re-enter",
        ),
        MapsError::BadInput(detail) => ApiError::bad_input(
            format!("地址参数不正确：{detail}"),
            format!("Invalid address input: {detail}"),
        ),
        MapsError::Unavailable(detail) => {
            tracing::warn!(detail, "maps provider unavailable");
            ApiError::Unavailable(Msg::fixed(
                "地图服务暂不可用，请稍后再试",
                "The maps service is unavailable, please try again later",
            ))
        }
    }
}
