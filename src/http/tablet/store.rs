//! The store board from the tablet: the store's status and notice, its sold-out products, and
//! whether its tablets are online; and, for the chain, the stores with paid orders waiting and
//! no tablet to see them.

use crate::http::edge::context::pick;
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult};
use crate::http::edge::params;
use crate::http::edge::staff_session::StaffAuth;
use crate::state::AppState;
use actix_web::http::header;
use actix_web::{get, put, web, HttpRequest};
use actors::catalogue::Snapshot;
use actors::db::orders::OrderRepo;
use actors::domain::catalogue::Store;
use actors::domain::stores::store_board::{
    clean_notice, parse_status, shown_notice, status_name, SoldOutItem, StoreLive, NOTICE_MAX_CHARS,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StoreBoardDto {
    pub store_code: String,
    pub store_name: String,
    /// open, busy or closed, as customers meet the store now.
    #[schema(value_type = actors::domain::catalogue::StoreStatus)]
    pub status: String,
    pub notice: Option<String>,
    pub sold_out: Vec<String>,
    /// Tablets of this store connected now, on any node.
    pub tablets_online: u32,
    /// With none online: since when (epoch ms).
    pub no_tablet_since: Option<i64>,
}

async fn board(state: &AppState, ctx: &Ctx, shown: &Store, live: &StoreLive) -> StoreBoardDto {
    let presence = state
        .stores
        .presence(&shown.store_code, state.clock.now_ms())
        .await;
    StoreBoardDto {
        store_code: shown.store_code.clone(),
        store_name: pick(&shown.name, ctx.lang),
        status: status_name(shown.status).into(),
        notice: shown_notice(shown),
        sold_out: live.sold_out.clone(),
        tablets_online: presence.online,
        no_tablet_since: presence.none_since,
    }
}

fn staff_store(snapshot: &Snapshot, staff: &StaffAuth) -> ApiResult<Store> {
    snapshot
        .store(staff.store_code())
        .cloned()
        .ok_or_else(|| ApiError::not_found("门店不存在", "No such store"))
}

/// The tablet's store board: status, notice, sold-out products, tablets online.
#[utoipa::path(tag = "tablet",
    responses((status = 200, body = Envelope<StoreBoardDto>), (status = 401)))]
#[get("/tablet/store")]
pub async fn get_board(
    state: web::Data<AppState>,
    ctx: Ctx,
    staff: StaffAuth,
) -> ApiResult<Reply<StoreBoardDto>> {
    let snapshot = state.catalogue.get().await;
    let (shown, live) = state
        .stores
        .effective(&staff_store(&snapshot, &staff)?)
        .await?;
    Ok(Reply::new(board(&state, &ctx, &shown, &live).await))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusBody {
    /// open, busy or closed.
    status: String,
    /// Shown to customers (closed: instead of the menu; busy/open: on the menu). At most 100
    /// characters; empty or absent: the default words.
    notice: Option<String>,
}

/// Sets the store open, busy (promises lengthen by 15 minutes) or closed (the menu says so and
/// submit is refused), with a notice; every open app of the store hears `store:update`.
#[utoipa::path(tag = "tablet", request_body = StatusBody,
    responses((status = 200, body = Envelope<StoreBoardDto>), (status = 400), (status = 401)))]
#[put("/tablet/store/status")]
pub async fn set_status(
    state: web::Data<AppState>,
    ctx: Ctx,
    staff: StaffAuth,
    body: web::Json<StatusBody>,
) -> ApiResult<Reply<StoreBoardDto>> {
    let status = parse_status(body.status.trim()).ok_or_else(|| {
        ApiError::bad_input(
            "门店状态只能是营业、繁忙或暂停营业",
            "The status must be open, busy or closed",
        )
    })?;
    let notice = clean_notice(body.notice.as_deref()).map_err(|_| {
        ApiError::bad_input(
            format!("公告最多{NOTICE_MAX_CHARS}个字"),
            format!("The notice can be at most {NOTICE_MAX_CHARS} characters"),
        )
    })?;
    let snapshot = state.catalogue.get().await;
    let store = staff_store(&snapshot, &staff)?;
    let (shown, live) = state
        .stores
        .set_status(&store, status, notice.as_deref(), &staff.session.name)
        .await?;
    Ok(Reply::new(board(&state, &ctx, &shown, &live).await))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct ProductsQuery {
    /// Part of the name (either language) or the code.
    keyword: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BoardProductDto {
    pub product_code: String,
    pub name: String,
    pub category_name: String,
    pub image_url: String,
    pub sold_out: bool,
}

/// The products staff can mark sold out: everything the chain shows on menus (whatever the
/// hour: a product can be 86ed before its lunch slot opens), by category.
#[utoipa::path(tag = "tablet", params(ProductsQuery),
    responses((status = 200, body = Envelope<Vec<BoardProductDto>>), (status = 401)))]
#[get("/tablet/products")]
pub async fn products(
    state: web::Data<AppState>,
    ctx: Ctx,
    staff: StaffAuth,
    query: web::Query<ProductsQuery>,
) -> ApiResult<Reply<Vec<BoardProductDto>>> {
    let needle = query
        .keyword
        .as_deref()
        .map(|k| k.trim().to_lowercase())
        .unwrap_or_default();
    let snapshot = state.catalogue.get().await;
    let live = state.stores.live(staff.store_code()).await?;
    let mut found: Vec<(i32, BoardProductDto)> = snapshot
        .catalogue
        .products
        .iter()
        .filter(|p| p.is_show)
        .filter_map(|p| snapshot.category(&p.category_code).map(|c| (p, c)))
        .filter(|(p, _)| {
            needle.is_empty()
                || p.product_code.to_lowercase().contains(&needle)
                || p.name.cn.to_lowercase().contains(&needle)
                || p.name.en.to_lowercase().contains(&needle)
        })
        .map(|(p, c)| {
            (
                c.sort,
                BoardProductDto {
                    product_code: p.product_code.clone(),
                    name: pick(&p.name, ctx.lang),
                    category_name: pick(&c.name, ctx.lang),
                    image_url: p.image_url1.clone(),
                    sold_out: live.is_sold_out(&p.product_code),
                },
            )
        })
        .collect();
    found.sort_by(|(a, x), (b, y)| (a, &x.product_code).cmp(&(b, &y.product_code)));
    Ok(Reply::new(found.into_iter().map(|(_, p)| p).collect()))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AvailabilityBody {
    sold_out: bool,
}

/// Marks a product sold out ("86") or back on sale at the staff's store, at once: menus show
/// it, carts holding it show it disabled, submit refuses it (errCode -7).
#[utoipa::path(tag = "tablet", params(("productCode" = String, Path)), request_body = AvailabilityBody,
    responses((status = 200, body = Envelope<StoreBoardDto>), (status = 401), (status = 404)))]
#[put("/tablet/products/{productCode}/availability")]
pub async fn set_availability(
    state: web::Data<AppState>,
    ctx: Ctx,
    staff: StaffAuth,
    path: web::Path<String>,
    body: web::Json<AvailabilityBody>,
) -> ApiResult<Reply<StoreBoardDto>> {
    let code = params::code("productCode", &path)?;
    let snapshot = state.catalogue.get().await;
    if snapshot.product(&code).is_none() {
        return Err(ApiError::not_found("商品不存在", "No such product"));
    }
    let store = staff_store(&snapshot, &staff)?;
    let (shown, live) = state
        .stores
        .set_sold_out(&store, &code, body.sold_out)
        .await?;
    Ok(Reply::new(board(&state, &ctx, &shown, &live).await))
}

/// An ingredient or a flavour staff can mark sold out, wherever the menu uses it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BoardIngredientDto {
    pub code: String,
    #[schema(value_type = IngredientKind)]
    pub kind: &'static str,
    pub name: String,
    /// How many products use it (flavours: multi-flavour and half-and-half pizzas).
    pub used_by: u32,
    pub sold_out: bool,
}

/// What an ingredient is, for the document (the handler writes the same names).
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum IngredientKind {
    Sauce,
    /// A topping pizzas come with.
    Base,
    /// An added topping.
    Extra,
    Flavor,
}

/// What an ingredient or flavour code is in the catalogue, and how many products use it.
fn ingredient_kind(snapshot: &Snapshot, code: &str) -> Option<(SoldOutItem, &'static str, u32)> {
    let all = &snapshot.catalogue.products;
    let count = |f: &dyn Fn(&actors::domain::catalogue::Product) -> bool| {
        all.iter().filter(|p| f(p)).count() as u32
    };
    let kinds: [(&'static str, u32); 4] = [
        ("sauce", count(&|p| p.sauces.iter().any(|i| i.code == code))),
        (
            "base",
            count(&|p| p.base_ingredients.iter().any(|i| i.code == code)),
        ),
        (
            "extra",
            count(&|p| p.extra_ingredients.iter().any(|i| i.code == code)),
        ),
        (
            "flavor",
            count(&|p| p.flavors.iter().any(|f| f.flavor_code == code)),
        ),
    ];
    let (kind, used_by) = kinds.into_iter().find(|(_, n)| *n > 0)?;
    let item = if kind == "flavor" {
        SoldOutItem::Flavor(code.to_string())
    } else {
        SoldOutItem::Ingredient(code.to_string())
    };
    Some((item, kind, used_by))
}

/// The ingredients (sauces, base and extra toppings) and flavours staff can mark sold out
/// (issue 22), each once, with how many products use it.
#[utoipa::path(tag = "tablet",
    responses((status = 200, body = Envelope<Vec<BoardIngredientDto>>), (status = 401)))]
#[get("/tablet/ingredients")]
pub async fn ingredients(
    state: web::Data<AppState>,
    ctx: Ctx,
    staff: StaffAuth,
) -> ApiResult<Reply<Vec<BoardIngredientDto>>> {
    let snapshot = state.catalogue.get().await;
    let live = state.stores.live(staff.store_code()).await?;
    let mut seen = std::collections::BTreeMap::new();
    for p in snapshot.catalogue.products.iter().filter(|p| p.is_show) {
        let ingredients = p
            .sauces
            .iter()
            .chain(&p.base_ingredients)
            .chain(&p.extra_ingredients);
        for i in ingredients {
            seen.entry(i.code.clone())
                .or_insert_with(|| pick(&i.name, ctx.lang));
        }
        for f in &p.flavors {
            seen.entry(f.flavor_code.clone())
                .or_insert_with(|| pick(&f.name, ctx.lang));
        }
    }
    let mut list: Vec<BoardIngredientDto> = seen
        .into_iter()
        .filter_map(|(code, name)| {
            let (item, kind, used_by) = ingredient_kind(&snapshot, &code)?;
            Some(BoardIngredientDto {
                sold_out: live.is_sold_out(&item.key()),
                code,
                kind,
                name,
                used_by,
            })
        })
        .collect();
    let rank = |k: &str| {
        ["flavor", "base", "extra", "sauce"]
            .iter()
            .position(|x| *x == k)
    };
    list.sort_by(|a, b| (rank(a.kind), &a.code).cmp(&(rank(b.kind), &b.code)));
    Ok(Reply::new(list))
}

/// Marks an ingredient (a sauce, a base or an extra topping) or a flavour sold out ("86") or
/// back on sale at the staff's store (issue 22): it leaves every product and half that uses it
/// at once — builders leave it out, menu cards of pizzas it leaves short of flavours show sold
/// out, carts holding it show the line disabled, adds and submit refuse it (errCode -7).
#[utoipa::path(tag = "tablet", params(("code" = String, Path)), request_body = AvailabilityBody,
    responses((status = 200, body = Envelope<StoreBoardDto>), (status = 401), (status = 404)))]
#[put("/tablet/ingredients/{code}/availability")]
pub async fn set_ingredient_availability(
    state: web::Data<AppState>,
    ctx: Ctx,
    staff: StaffAuth,
    path: web::Path<String>,
    body: web::Json<AvailabilityBody>,
) -> ApiResult<Reply<StoreBoardDto>> {
    let code = params::code("code", &path)?;
    let snapshot = state.catalogue.get().await;
    let (item, _, _) = ingredient_kind(&snapshot, &code)
        .ok_or_else(|| ApiError::not_found("配料或口味不存在", "No such ingredient or flavour"))?;
    let store = staff_store(&snapshot, &staff)?;
    let (shown, live) = state
        .stores
        .set_item_sold_out(&store, item, body.sold_out)
        .await?;
    Ok(Reply::new(board(&state, &ctx, &shown, &live).await))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnattendedStoreDto {
    pub store_code: String,
    pub store_name: String,
    pub store_tel: String,
    /// Paid or cash-on-delivery orders no one has accepted.
    pub orders_waiting: u32,
    /// The oldest of them reached the store at (epoch ms).
    pub oldest_waiting_since: i64,
    /// No tablet online since (epoch ms).
    pub no_tablet_since: Option<i64>,
}

/// The chain's operations token, compared in constant time; off (404) when none is set.
pub(crate) fn check_ops_token(state: &AppState, req: &HttpRequest) -> ApiResult<()> {
    let Some(expected) = state.ops_token.as_deref() else {
        return Err(ApiError::not_found("接口不存在", "No such endpoint"));
    };
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or(ApiError::LoginRequired)?;
    let same = given.len() == expected.len()
        && given
            .bytes()
            .zip(expected.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if same {
        Ok(())
    } else {
        Err(ApiError::Forbidden)
    }
}

/// For the chain: stores with orders waiting for acceptance and no tablet online, longest
/// unattended first. Someone should phone them.
#[utoipa::path(tag = "chain",
    responses((status = 403), (status = 404), (status = 200, body = Envelope<Vec<UnattendedStoreDto>>)))]
#[get("/chain/unattended-stores")]
pub async fn unattended(
    state: web::Data<AppState>,
    ctx: Ctx,
    req: HttpRequest,
) -> ApiResult<Reply<Vec<UnattendedStoreDto>>> {
    check_ops_token(&state, &req)?;
    let now = state.clock.now_ms();
    let waiting = OrderRepo::new(state.db.clone()).waiting_by_store().await?;
    let snapshot = state.catalogue.get().await;
    let mut out = Vec::new();
    for (store_code, count, oldest) in waiting {
        let presence = state.stores.presence(&store_code, now).await;
        if presence.online > 0 {
            continue;
        }
        let store = snapshot.store(&store_code);
        out.push(UnattendedStoreDto {
            store_name: store.map(|s| pick(&s.name, ctx.lang)).unwrap_or_default(),
            store_tel: store.map(|s| s.store_tel.clone()).unwrap_or_default(),
            store_code,
            orders_waiting: count,
            oldest_waiting_since: oldest,
            no_tablet_since: presence.none_since,
        });
    }
    out.sort_by_key(|s| s.oldest_waiting_since);
    Ok(Reply::new(out))
}
