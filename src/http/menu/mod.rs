//! The menu of a store for an order type and time (productNavList + productList), product
//! detail (productInfo), product search and hot words.

pub mod dto;

use crate::http::edge::context::pick;
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult};
use crate::http::edge::params;
use crate::http::edge::reply_cache::{self, CachedReply, Stamp};
use crate::http::menu::dto::{product_sold_out, ProductCardDto, ProductDetailDto};
use crate::http::stores::find_store;
use crate::state::AppState;
use actix_web::{get, web};
use actors::catalogue::Snapshot;
use actors::domain::catalogue::effective::RuleContext;
use actors::domain::catalogue::menu;
use actors::domain::catalogue::Store;
use actors::domain::stores::hours;
use actors::domain::stores::store_board::{effective_store, status_name};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use utoipa::{IntoParams, ToSchema};

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct MenuQuery {
    /// 0 delivery (default), 1 pickup, 2 dine-in.
    order_type: Option<String>,
    /// Epoch ms; default now. Time-limited products follow it.
    order_time: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MenuCategoryDto {
    pub category_code: String,
    pub category_name: String,
    #[serde(rename = "categoryNameEN")]
    pub category_name_en: String,
    #[serde(rename = "categoryNameCN")]
    pub category_name_cn: String,
    pub sort: i32,
    pub products: Vec<ProductCardDto>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MenuDto {
    /// The order time the menu is for (epoch ms), as asked. Always present in the answer; it
    /// is written in front of the kept bytes (`CachedReply::with_first_field`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = i64, required = true)]
    pub order_time: Option<i64>,
    pub store_code: String,
    pub order_type: u8,
    /// open, busy or closed.
    #[schema(value_type = actors::domain::catalogue::StoreStatus)]
    pub store_status: String,
    /// Set when the store is temporarily closed: reselect a store.
    pub stop_store_notice: Option<String>,
    /// What the staff tell customers while open or busy (busy: orders take longer).
    pub business_notice: Option<String>,
    pub categories: Vec<MenuCategoryDto>,
}

/// The store's menu: hidden products, the gift category and empty categories are dropped;
/// time-limited products appear only when date, time, weekday, store, store group and order
/// type all match.
#[utoipa::path(get, path = "/stores/{storeCode}/menu", tag = "menu", params(("storeCode" = String, Path), MenuQuery),
    responses((status = 200, body = Envelope<MenuDto>), (status = 400), (status = 404)))]
pub async fn store_menu(
    state: web::Data<AppState>,
    ctx: Ctx,
    path: web::Path<String>,
    query: web::Query<MenuQuery>,
) -> ApiResult<CachedReply> {
    let code = params::code("storeCode", &path)?;
    let order_type = params::order_type(query.order_type.as_deref())?;
    let order_time = params::epoch_ms(
        "orderTime",
        query.order_time.as_deref(),
        state.clock.now_ms(),
    )?;
    let snapshot = state.catalogue.get().await;
    let listed = listed_store(&snapshot, &code)?;
    let board = state.stores.board_of(&code).await?;
    // The whole answer but its exact order time depends on nothing the request names but the
    // store, order type, time (to the second) and language: kept serialised (`reply_cache`).
    let key = reply_cache::key(&[
        "menu",
        &code,
        order_type_text(order_type),
        ctx.lang.as_str(),
    ]);
    let stamp = Stamp::new(&snapshot, &board, order_time);
    let menu = state
        .replies
        .get_or_build(key, stamp, async {
            let store = effective_store(&listed, &board.live);
            let rules = rule_context(&store, order_type, order_time);
            let categories: Vec<MenuCategoryDto> = menu::build_menu(
                &snapshot.catalogue.categories,
                &snapshot.catalogue.products,
                &rules,
            )
            .into_iter()
            .map(|(category, products)| MenuCategoryDto {
                category_code: category.category_code.clone(),
                category_name: pick(&category.name, ctx.lang),
                category_name_en: category.name.en.clone(),
                category_name_cn: category.name.cn.clone(),
                sort: category.sort,
                products: products
                    .into_iter()
                    .map(|p| ProductCardDto::new(p, ctx.lang, product_sold_out(p, &board.live)))
                    .collect(),
            })
            .collect();
            Ok::<_, ApiError>(MenuDto {
                order_time: None,
                store_code: store.store_code.clone(),
                order_type,
                store_status: status_name(store.status).into(),
                stop_store_notice: store.stop_store_notice.as_ref().map(|n| pick(n, ctx.lang)),
                business_notice: store.business_notice.as_ref().map(|n| pick(n, ctx.lang)),
                categories,
            })
        })
        .await?;
    Ok(CachedReply::with_first_field(menu, "orderTime", order_time))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct ProductQuery {
    /// Default: the chain's default store.
    store_code: Option<String>,
    order_type: Option<String>,
    order_time: Option<String>,
}

/// One product with everything its page needs: sizes, crusts, flavours, sauces, toppings,
/// combo rounds, style options. A product not on this store's menu now is 404.
#[utoipa::path(get, path = "/products/{productCode}", tag = "menu", params(("productCode" = String, Path), ProductQuery),
    responses((status = 200, body = Envelope<ProductDetailDto>), (status = 404)))]
pub async fn product(
    state: web::Data<AppState>,
    ctx: Ctx,
    path: web::Path<String>,
    query: web::Query<ProductQuery>,
) -> ApiResult<CachedReply> {
    let code = params::code("productCode", &path)?;
    let snapshot = state.catalogue.get().await;
    let store = store_or_default(&snapshot, query.store_code.as_deref())?;
    let store = store.as_ref();
    let order_type = params::order_type(query.order_type.as_deref())?;
    let order_time = params::epoch_ms(
        "orderTime",
        query.order_time.as_deref(),
        state.clock.now_ms(),
    )?;
    let board = state.stores.board_of(&store.store_code).await?;
    let key = reply_cache::key(&[
        "product",
        &code,
        &store.store_code,
        order_type_text(order_type),
        ctx.lang.as_str(),
    ]);
    let stamp = Stamp::new(&snapshot, &board, order_time);
    let detail = state
        .replies
        .get_or_build(key, stamp, async {
            let rules = rule_context(store, order_type, order_time);
            let product = snapshot
                .product(&code)
                .filter(|p| menu::is_listed(p, snapshot.category(&p.category_code), &rules))
                .ok_or_else(|| {
                    ApiError::not_found("商品不存在或已下架", "This product is not available")
                })?;
            Ok::<_, ApiError>(ProductDetailDto::new(
                product,
                &snapshot,
                ctx.lang,
                &board.live,
            ))
        })
        .await?;
    Ok(CachedReply::new(detail))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct SearchQuery {
    store_code: Option<String>,
    keyword: Option<String>,
    order_type: Option<String>,
}

/// Products whose name, description or keywords contain the keyword (either language).
#[utoipa::path(path = "/products/search", tag = "menu", params(SearchQuery),
    responses((status = 200, body = Envelope<Vec<ProductCardDto>>), (status = 400)))]
#[get("/search")]
pub async fn search(
    state: web::Data<AppState>,
    ctx: Ctx,
    query: web::Query<SearchQuery>,
) -> ApiResult<Reply<Vec<ProductCardDto>>> {
    let keyword = params::keyword(query.keyword.as_deref())?;
    let order_type = params::order_type(query.order_type.as_deref())?;
    let snapshot = state.catalogue.get().await;
    let store = store_or_default(&snapshot, query.store_code.as_deref())?;
    let rules = rule_context(&store, order_type, state.clock.now_ms());
    let live = state.stores.live(&store.store_code).await?;
    let found = match keyword {
        None => Vec::new(),
        Some(k) => menu::search_products(
            &snapshot.catalogue.products,
            &snapshot.catalogue.categories,
            &rules,
            &k,
        )
        .into_iter()
        .map(|p| ProductCardDto::new(p, ctx.lang, product_sold_out(p, &live)))
        .collect(),
    };
    Ok(Reply::new(found))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct HotWordsQuery {
    store_code: Option<String>,
}

/// Suggested search words (searchHotWordsByStore), in the request's language.
#[utoipa::path(path = "/products/hot-words", tag = "menu", params(HotWordsQuery),
    responses((status = 200, body = Envelope<Vec<String>>)))]
#[get("/hot-words")]
pub async fn hot_words(
    state: web::Data<AppState>,
    ctx: Ctx,
    query: web::Query<HotWordsQuery>,
) -> ApiResult<Reply<Vec<String>>> {
    let snapshot = state.catalogue.get().await;
    // The store is checked so a bad code is reported; the chain shares one list today.
    store_or_default(&snapshot, query.store_code.as_deref())?;
    let words = snapshot
        .catalogue
        .hot_words
        .iter()
        .map(|w| pick(w, ctx.lang))
        .collect();
    Ok(Reply::new(words).cached_for(300))
}

/// The store asked for (or the chain's default), borrowed from the snapshot when listed: the
/// hot reads build nothing per request.
fn store_or_default<'s>(snapshot: &'s Snapshot, code: Option<&str>) -> ApiResult<Cow<'s, Store>> {
    match params::optional_code("storeCode", code)? {
        Some(code) => listed_store(snapshot, &code),
        None => Ok(match snapshot.default_store() {
            Some(store) => Cow::Borrowed(store),
            None => Cow::Owned(actors::domain::catalogue::virtual_store(
                snapshot.catalogue.cities.first(),
            )),
        }),
    }
}

/// [`find_store`] without copying a listed store.
fn listed_store<'s>(snapshot: &'s Snapshot, code: &str) -> ApiResult<Cow<'s, Store>> {
    match snapshot.store(code) {
        Some(store) => Ok(Cow::Borrowed(store)),
        None => find_store(snapshot, code).map(Cow::Owned),
    }
}

fn rule_context(store: &Store, order_type: u8, order_time: i64) -> RuleContext<'_> {
    RuleContext {
        at: hours::china_time(order_time),
        store_code: &store.store_code,
        store_group: &store.group_code,
        order_type,
    }
}

/// An order type's digit, for a kept reply's key.
fn order_type_text(order_type: u8) -> &'static str {
    match order_type {
        0 => "0",
        1 => "1",
        2 => "2",
        _ => "?",
    }
}
