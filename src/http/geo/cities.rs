//! Cities (newCityList) and districts (newGetDistrictList).

use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult};
use crate::http::edge::params;
use crate::http::geo::cities_dto::{CityDto, DistrictDto};
use crate::state::AppState;
use actix_web::{get, web};
use serde::Deserialize;
use utoipa::IntoParams;

/// Spec ordering §9 cache lifetimes.
const CITY_LIST_SECONDS: u32 = 10_800;
const DISTRICT_LIST_SECONDS: u32 = 7_200;

/// Every city with stores, hot cities first.
#[utoipa::path(tag = "location", responses((status = 200, body = Envelope<Vec<CityDto>>)))]
#[get("/cities")]
pub async fn city_list(state: web::Data<AppState>, ctx: Ctx) -> Reply<Vec<CityDto>> {
    let snapshot = state.catalogue.get().await;
    let mut cities: Vec<_> = snapshot.catalogue.cities.iter().collect();
    cities.sort_by_key(|c| !c.hot);
    Reply::new(
        cities
            .into_iter()
            .map(|c| CityDto::new(c, ctx.lang))
            .collect(),
    )
    .cached_for(CITY_LIST_SECONDS)
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct DistrictQuery {
    /// 1: prepend the 全部 (all) entry.
    all: Option<String>,
}

/// A city's districts.
#[utoipa::path(tag = "location", params(("cityCode" = String, Path), DistrictQuery),
    responses((status = 200, body = Envelope<Vec<DistrictDto>>), (status = 404)))]
#[get("/cities/{cityCode}/districts")]
pub async fn districts(
    state: web::Data<AppState>,
    ctx: Ctx,
    path: web::Path<String>,
    query: web::Query<DistrictQuery>,
) -> ApiResult<Reply<Vec<DistrictDto>>> {
    let city_code = params::code("cityCode", &path)?;
    let with_all = params::flag("all", query.all.as_deref())?;
    let snapshot = state.catalogue.get().await;
    if snapshot.city(&city_code).is_none() {
        return Err(ApiError::not_found("城市不存在", "City not found"));
    }
    let mut list = Vec::new();
    if with_all {
        list.push(DistrictDto::all(&city_code, ctx.lang));
    }
    list.extend(
        snapshot
            .catalogue
            .districts
            .iter()
            .filter(|d| d.city_code == city_code)
            .map(|d| DistrictDto::new(d, ctx.lang)),
    );
    Ok(Reply::new(list).cached_for(DISTRICT_LIST_SECONDS))
}
