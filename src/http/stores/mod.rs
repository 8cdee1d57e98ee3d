//! Store endpoints: default store, store by code, by point (delivery), nearby and search.

pub mod dto;

use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult, Msg};
use crate::http::edge::params;
use crate::http::edge::reply_cache::{self, CachedReply, Stamp};
use crate::http::stores::dto::StoreDto;
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{get, web};
use actors::catalogue::Snapshot;
use actors::domain::catalogue::{virtual_store, LngLat, Store, StoreStatus, VIRTUAL_STORE_CODE};
use actors::domain::geo;
use actors::domain::stores::store_board::effective_store;
use actors::domain::stores::{hours, store_rules};
use serde::Deserialize;
use utoipa::IntoParams;

/// Spec ordering §9: store lists and store-by-point are cached 30 s.
const STORE_LIST_SECONDS: u32 = 30;
/// Nearby stores: how far "near" reaches, and how many are listed.
const NEARBY_RADIUS_KM: f64 = 20.0;
const NEARBY_LIMIT: usize = 10;

const NO_STORE: Msg = Msg::fixed("未查询到门店", "No store found");
const NO_NEARBY_STORE: Msg = Msg::fixed("附近暂无门店", "No nearby stores");

/// The chain's default store, or the virtual store 88888 when it has none.
#[utoipa::path(path = "/stores/default", tag = "stores", responses((status = 200, body = Envelope<StoreDto>)))]
#[get("/default")]
pub async fn default_store(state: web::Data<AppState>, ctx: Ctx) -> Reply<StoreDto> {
    let snapshot = state.catalogue.get().await;
    let now = state.clock.china_now();
    let dto = match snapshot.default_store() {
        // As its staff set it now, like any store card (a closed flagship says so); the
        // catalogue's when the board cannot be read.
        Some(listed) => {
            let store = match state.stores.effective(listed).await {
                Ok((shown, _)) => shown,
                Err(_) => listed.clone(),
            };
            StoreDto::new(&store, &snapshot, ctx.lang, now, None)
        }
        None => {
            let store = virtual_store(snapshot.catalogue.cities.first());
            StoreDto::new(&store, &snapshot, ctx.lang, now, None)
        }
    };
    Reply::new(dto).cached_for(STORE_LIST_SECONDS)
}

/// One store (getStoreInfoByCode); 88888 is the virtual default store.
#[utoipa::path(get, path = "/stores/{storeCode}", tag = "stores", params(("storeCode" = String, Path)),
    responses((status = 200, body = Envelope<StoreDto>), (status = 404)))]
pub async fn by_code(
    state: web::Data<AppState>,
    ctx: Ctx,
    path: web::Path<String>,
) -> ApiResult<CachedReply> {
    let code = params::code("storeCode", &path)?;
    let snapshot = state.catalogue.get().await;
    if code != VIRTUAL_STORE_CODE && snapshot.store(&code).is_none() {
        return Err(store_not_found());
    }
    let board = state.stores.board_of(&code).await?;
    let now_ms = state.clock.now_ms();
    let key = reply_cache::key(&["store", &code, ctx.lang.as_str()]);
    let stamp = Stamp::new(&snapshot, &board, now_ms);
    let card = state
        .replies
        .get_or_build(key, stamp, async {
            // The calendar only when the card is written, not on every read of a kept one.
            let now = actors::domain::stores::hours::china_time(now_ms);
            // As its staff set it now (busy, closed with their notice).
            let store = effective_store(&find_store(&snapshot, &code)?, &board.live);
            Ok::<_, ApiError>(StoreDto::new(&store, &snapshot, ctx.lang, now, None))
        })
        .await?;
    Ok(CachedReply::new(card).cached_for(STORE_LIST_SECONDS))
}

fn store_not_found() -> ApiError {
    ApiError::not_found("门店不存在", "Store not found")
}

/// A store by code, the virtual store included; unknown codes are 404.
pub fn find_store(snapshot: &Snapshot, code: &str) -> ApiResult<Store> {
    if code == VIRTUAL_STORE_CODE {
        return Ok(virtual_store(snapshot.catalogue.cities.first()));
    }
    snapshot.store(code).cloned().ok_or_else(store_not_found)
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct PointQuery {
    /// GCJ-02 latitude; its text must be longer than 5 characters.
    latitude: Option<String>,
    longitude: Option<String>,
    /// 1 when ordering for later: stores closed right now still qualify.
    is_book_order: Option<String>,
}

/// Stores that deliver to a point (getStoreForTaishan), nearest first; open ones first unless
/// booking. Spec §5 errors: 通过经纬度获取门店：无效经纬度 / 不合法的经纬度 / 未查询到门店.
#[utoipa::path(path = "/stores/by-point", tag = "stores", params(PointQuery),
    responses((status = 200, body = Envelope<Vec<StoreDto>>), (status = 400), (status = 404)))]
#[get("/by-point")]
pub async fn by_point(
    state: web::Data<AppState>,
    ctx: Ctx,
    query: web::Query<PointQuery>,
) -> ApiResult<Reply<Vec<StoreDto>>> {
    let point = parse_point(query.latitude.as_deref(), query.longitude.as_deref())?;
    let booking = params::flag("isBookOrder", query.is_book_order.as_deref())?;
    let snapshot = state.catalogue.get().await;
    let now = state.clock.china_now();
    // As their staff set them now: a store closed from its tablet takes no orders.
    let stores = state
        .stores
        .effective_all(&snapshot.catalogue.stores)
        .await?;
    let mut found: Vec<(&Store, f64, bool)> = store_rules::stores_by_distance(&stores, point)
        .into_iter()
        .filter(|(store, _)| store.status != StoreStatus::Closed)
        .filter(|(store, _)| store_rules::delivers_to(store, point))
        .map(|(store, km)| (store, km, hours::is_open_at(store, now)))
        .collect();
    if !booking {
        // Stable: open stores first, each group still nearest first.
        found.sort_by_key(|(_, _, open)| !open);
    }
    if found.is_empty() {
        return Err(ApiError::StoreLookup {
            msg: NO_STORE,
            status: StatusCode::NOT_FOUND,
            data: None,
        });
    }
    let list = found
        .into_iter()
        .map(|(store, _, _)| StoreDto::new(store, &snapshot, ctx.lang, now, Some(point)))
        .collect();
    Ok(Reply::new(list).cached_for(STORE_LIST_SECONDS))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct NearbyQuery {
    latitude: Option<String>,
    longitude: Option<String>,
}

/// The nearest stores (queryNearStoreList). When none is within 20 km the answer is errCode
/// "02" (no nearby stores) and still carries the nearest ones, as the spec says.
#[utoipa::path(path = "/stores/nearby", tag = "stores", params(NearbyQuery),
    responses((status = 200, body = Envelope<Vec<StoreDto>>), (status = 400)))]
#[get("/nearby")]
pub async fn nearby(
    state: web::Data<AppState>,
    ctx: Ctx,
    query: web::Query<NearbyQuery>,
) -> ApiResult<Reply<Vec<StoreDto>>> {
    let point = parse_point(query.latitude.as_deref(), query.longitude.as_deref())?;
    let snapshot = state.catalogue.get().await;
    let now = state.clock.china_now();
    let stores = state
        .stores
        .effective_all(&snapshot.catalogue.stores)
        .await?;
    let ranked = store_rules::stores_by_distance(&stores, point);
    let any_near = ranked
        .first()
        .is_some_and(|(_, km)| *km <= NEARBY_RADIUS_KM);
    let list: Vec<StoreDto> = ranked
        .into_iter()
        .filter(|(_, km)| !any_near || *km <= NEARBY_RADIUS_KM)
        .take(NEARBY_LIMIT)
        .map(|(store, _)| StoreDto::new(store, &snapshot, ctx.lang, now, Some(point)))
        .collect();
    if !any_near {
        return Err(ApiError::StoreLookup {
            msg: NO_NEARBY_STORE,
            status: StatusCode::OK,
            data: Some(serde_json::to_value(&list).map_err(ApiError::internal)?),
        });
    }
    Ok(Reply::new(list).cached_for(STORE_LIST_SECONDS))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct SearchQuery {
    city_code: Option<String>,
    district_code: Option<String>,
    /// Matches store names and addresses in both languages.
    keyword: Option<String>,
    latitude: Option<String>,
    longitude: Option<String>,
}

/// Stores by city, district, text and/or coordinates (newSearchStore). With coordinates the
/// list carries distances and is nearest first; otherwise it is by store code.
#[utoipa::path(path = "/stores/search", tag = "stores", params(SearchQuery),
    responses((status = 200, body = Envelope<Vec<StoreDto>>), (status = 400)))]
#[get("/search")]
pub async fn search(
    state: web::Data<AppState>,
    ctx: Ctx,
    query: web::Query<SearchQuery>,
) -> ApiResult<Reply<Vec<StoreDto>>> {
    let city = params::optional_code("cityCode", query.city_code.as_deref())?;
    let district = params::optional_code("districtCode", query.district_code.as_deref())?;
    let keyword = params::keyword(query.keyword.as_deref())?.map(|k| k.to_lowercase());
    let point = match (query.latitude.as_deref(), query.longitude.as_deref()) {
        (None, None) => None,
        (lat, lng) => Some(parse_point(lat, lng)?),
    };
    let snapshot = state.catalogue.get().await;
    let now = state.clock.china_now();
    let matches = |store: &Store| {
        city.as_ref().is_none_or(|c| &store.city_code == c)
            && district.as_ref().is_none_or(|d| &store.district_code == d)
            && keyword.as_ref().is_none_or(|k| {
                [
                    &store.name.cn,
                    &store.name.en,
                    &store.address.cn,
                    &store.address.en,
                ]
                .iter()
                .any(|text| text.to_lowercase().contains(k))
            })
    };
    let all = state
        .stores
        .effective_all(&snapshot.catalogue.stores)
        .await?;
    let stores: Vec<&Store> = match point {
        Some(p) => store_rules::stores_by_distance(&all, p)
            .into_iter()
            .map(|(s, _)| s)
            .filter(|s| matches(s))
            .collect(),
        None => all.iter().filter(|s| matches(s)).collect(),
    };
    let list = stores
        .into_iter()
        .map(|s| StoreDto::new(s, &snapshot, ctx.lang, now, point))
        .collect();
    Ok(Reply::new(list).cached_for(STORE_LIST_SECONDS))
}

fn parse_point(latitude: Option<&str>, longitude: Option<&str>) -> ApiResult<LngLat> {
    geo::parse_query_point(latitude, longitude).map_err(|err| ApiError::StoreLookup {
        msg: Msg::fixed(err.message_zh(), err.message_en()),
        status: StatusCode::BAD_REQUEST,
        data: None,
    })
}
