//! The cart (spec §3, §4 cart, §7 cart calls; docs/cart-and-checkout.md). Every call answers
//! the whole cart, priced by the server for its store, order type and time.

pub mod coupons;
pub mod coupons_dto;
pub mod dto;
pub mod lines;
pub mod owner;
pub mod rules;
pub mod verify;
pub mod words;

use crate::http::cart::coupons::held_coupons;
use crate::http::cart::dto::{CartContext, CartDto};
use crate::http::cart::owner::{CartOwner, CART_TOKEN_HEADER};
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult, Msg};
use crate::http::edge::params;
use crate::state::AppState;
use actix_web::{delete, get, patch, post, web};
use actors::carts::pricing::{self, cart_store, cart_time, HeldCoupons};
use actors::carts::{CartFailure, CartKey, Mutation};
use actors::catalogue::Snapshot;
use actors::db::carts::StoredCart;
use actors::domain::cart::adding::{
    self, order_type_for_add, sold_by_itself, store_takes_items, AddRefusal,
};
use actors::domain::cart::item::Selection;
use actors::domain::cart::{Cart, CartError, Edit};
use actors::domain::catalogue::effective::RuleContext;
use actors::domain::catalogue::Store;
use actors::domain::lang::Lang;
use actors::domain::pricing::cart_pricing::PricedCart;
use actors::domain::stores::hours::china_time;
use actors::domain::stores::store_board::StoreLive;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::Arc;
use utoipa::{IntoParams, ToSchema};

/// The cart's store as customers meet it now (the staff's status over the catalogue's) and
/// its live state. Read once per request, so everything the request prices agrees.
pub async fn cart_board(
    state: &AppState,
    snapshot: &Snapshot,
    cart: &Cart,
) -> ApiResult<(Store, StoreLive)> {
    Ok(state
        .stores
        .effective_checked(&cart_store(snapshot, cart))
        .await?)
}

/// Prices the stored cart for `board` (from [`cart_board`]) now and hands both to `f`.
pub fn priced_with<R>(
    state: &AppState,
    snapshot: &Snapshot,
    cart: &Cart,
    board: &(Store, StoreLive),
    held: Option<&HeldCoupons>,
    f: impl FnOnce(&PricedCart, &Store) -> R,
) -> R {
    pricing::priced_with(snapshot, cart, board, held, state.clock.now_ms(), f)
}

/// The cart as the customer sees it, priced for `board`.
pub fn render_with(
    state: &AppState,
    ctx: &Ctx,
    snapshot: &Snapshot,
    owner: &CartOwner,
    stored: &StoredCart,
    board: &(Store, StoreLive),
    held: Option<&HeldCoupons>,
) -> CartDto {
    let now = state.clock.now_ms();
    priced_with(
        state,
        snapshot,
        &stored.cart,
        board,
        held,
        |priced, store| {
            let mut cart = stored.cart.clone();
            cart.order_time = Some(cart_time(&cart, now));
            CartDto::new(
                priced,
                &CartContext {
                    cart: &cart,
                    version: stored.version,
                    cart_token: owner.token(),
                    snapshot,
                    lang: ctx.lang,
                    now,
                },
            )
            .with_store(store, priced, ctx.lang, now)
        },
    )
}

/// The cart as the customer sees it, priced for its store now.
pub async fn render(
    state: &AppState,
    ctx: &Ctx,
    snapshot: &Snapshot,
    owner: &CartOwner,
    stored: &StoredCart,
) -> ApiResult<CartDto> {
    render_on(state, ctx, snapshot, owner, stored, None).await
}

/// [`render`] with the board of the cart's store as the handler just read it, if it did (a
/// board of another store is read again).
pub async fn render_on(
    state: &AppState,
    ctx: &Ctx,
    snapshot: &Snapshot,
    owner: &CartOwner,
    stored: &StoredCart,
    read: Option<(Store, StoreLive)>,
) -> ApiResult<CartDto> {
    let wanted = cart_store(snapshot, &stored.cart).store_code;
    let board = match read {
        Some(board) if board.0.store_code == wanted => board,
        _ => cart_board(state, snapshot, &stored.cart).await?,
    };
    let held = held_coupons(state, ctx, owner).await?;
    let mut dto = render_with(state, ctx, snapshot, owner, stored, &board, held.as_ref());
    dto.points_deduction = points_deduction(state, owner, dto.order_amount).await?;
    Ok(dto)
}

/// The cart's points line: a member's available points, how many this cart may use and what
/// they save. None for visitors and non-members.
pub async fn points_deduction(
    state: &AppState,
    owner: &CartOwner,
    order_amount: actors::domain::money::Fen,
) -> ApiResult<Option<crate::http::loyalty::dto::PointsDeductionDto>> {
    let CartKey::User(user_id) = owner.key else {
        return Ok(None);
    };
    if state.loyalty.members().member(user_id).await?.is_none() {
        return Ok(None);
    }
    let available = state.loyalty.points().account(user_id).await?.available;
    let rule = actors::domain::loyalty::DEDUCTION;
    let usable = rule.usable(available, order_amount);
    Ok(Some(crate::http::loyalty::dto::PointsDeductionDto {
        available,
        usable_points: usable,
        amount: rule.amount(usable),
    }))
}

pub fn reply(owner: &CartOwner, dto: CartDto) -> Reply<CartDto> {
    let reply = Reply::new(dto);
    match (owner.issued, owner.token()) {
        (true, Some(token)) => reply.with_header(CART_TOKEN_HEADER, token),
        _ => reply,
    }
}

impl From<CartFailure> for ApiError {
    fn from(e: CartFailure) -> ApiError {
        match e {
            CartFailure::Rejected(CartError::NoSuchLine) => {
                ApiError::not_found("购物车中没有该商品", "That item is not in your cart")
            }
            CartFailure::Rejected(CartError::TooManyLines) => ApiError::bad_input(
                "购物车商品种类已达上限",
                "Your cart cannot hold more different items",
            ),
            CartFailure::Rejected(CartError::TooMany) => {
                ApiError::bad_input("商品数量超出上限", "That is more than one order can hold")
            }
            CartFailure::Stale | CartFailure::Contended => ApiError::conflict(
                "购物车已更新，请重试",
                "Your cart changed meanwhile; please try again",
            ),
            // Submit draws another number (checkout.rs); elsewhere it cannot occur.
            CartFailure::NumberTaken => crate::http::edge::error::number_taken(),
            CartFailure::Unavailable => {
                ApiError::internal(anyhow::anyhow!("cart session unavailable"))
            }
            CartFailure::Db(e) => e.into(),
            CartFailure::NotEnoughPoints { available } => {
                crate::http::edge::error::loyalty::not_enough(available)
            }
            // Submit answers this with the fresh cart (checkout.rs); elsewhere it cannot occur.
            CartFailure::CouponTaken(code) => ApiError::CouponTaken {
                names: Msg::new(code.clone(), code),
                cart: serde_json::Value::Null,
            },
        }
    }
}

pub async fn update_and_render(
    state: &AppState,
    ctx: &Ctx,
    owner: &CartOwner,
    mutation: Mutation,
) -> ApiResult<Reply<CartDto>> {
    update_and_render_from(state, ctx, owner, (None, None), mutation).await
}

/// [`update_and_render`] from the cart and its store's board as the handler just read them.
pub async fn update_and_render_from(
    state: &AppState,
    ctx: &Ctx,
    owner: &CartOwner,
    (cart, board): (Option<StoredCart>, Option<(Store, StoreLive)>),
    mutation: Mutation,
) -> ApiResult<Reply<CartDto>> {
    let stored = state.carts.update_from(&owner.key, cart, mutation).await?;
    let snapshot = state.catalogue.get().await;
    Ok(reply(
        owner,
        render_on(state, ctx, &snapshot, owner, &stored, board).await?,
    ))
}

/// A store that takes orders: real, known, not the virtual default; as its staff set it now
/// (busy promises, closed with their notice).
pub async fn orderable_store(
    state: &AppState,
    snapshot: &Snapshot,
    code: &str,
) -> ApiResult<Store> {
    Ok(orderable_board(state, snapshot, code).await?.0)
}

/// [`orderable_store`] with its live state (the sold-out list).
pub async fn orderable_board(
    state: &AppState,
    snapshot: &Snapshot,
    code: &str,
) -> ApiResult<(Store, StoreLive)> {
    Ok(state.checkout().orderable_board(snapshot, code).await?)
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(rename_all = "camelCase")]
pub struct CartQuery {
    /// menu or orderSubmit (spec shoppingCar GET).
    #[allow(dead_code)]
    page_name: Option<String>,
    /// Moves the cart to this store; every item is checked again for it.
    store_code: Option<String>,
}

/// The cart (shoppingCar GET).
#[utoipa::path(tag = "cart", params(CartQuery),
    responses((status = 200, body = Envelope<CartDto>), (status = 400), (status = 401)))]
#[get("/cart")]
pub async fn get_cart(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
    query: web::Query<CartQuery>,
) -> ApiResult<Reply<CartDto>> {
    let snapshot = state.catalogue.get().await;
    if let Some(code) = params::optional_code("storeCode", query.store_code.as_deref())? {
        let store = orderable_store(&state, &snapshot, &code).await?;
        let current = state.carts.read(&owner.key).await?;
        if current.cart.store_code.as_deref() != Some(store.store_code.as_str()) {
            return update_and_render(&state, &ctx, &owner, move_to_store(store)).await;
        }
        return Ok(reply(
            &owner,
            render(&state, &ctx, &snapshot, &owner, &current).await?,
        ));
    }
    let stored = state.carts.read(&owner.key).await?;
    Ok(reply(
        &owner,
        render(&state, &ctx, &snapshot, &owner, &stored).await?,
    ))
}

/// Moving a cart to another store (`Cart::move_to_store`).
fn move_to_store(store: Store) -> Mutation {
    Arc::new(move |cart: &mut Cart| Ok(cart.move_to_store(&store)))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SelectionIn {
    #[serde(flatten)]
    pub selection: Selection,
    pub quantity: Option<u32>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddItem {
    pub product_code: String,
    #[serde(default)]
    pub quantity: Option<u32>,
    pub selection: Option<SelectionIn>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddBody {
    store_code: Option<String>,
    /// The order type the customer is shopping for (0 delivery, 1 pickup, 2 dine-in).
    service_method: Option<u8>,
    items: Vec<AddItem>,
}

/// Adds items (shoppingCar POST). The same product with the same choices adds to its line.
#[utoipa::path(tag = "cart", request_body = AddBody,
    responses((status = 200, body = Envelope<CartDto>), (status = 400), (status = 404)))]
#[post("/cart/items")]
pub async fn add_items(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
    body: web::Json<AddBody>,
) -> ApiResult<Reply<CartDto>> {
    let body = body.into_inner();
    if body.items.is_empty() {
        return Err(AddRefusal::NothingChosen.into());
    }
    let snapshot = state.catalogue.get().await;
    let current = state.carts.read(&owner.key).await?;
    let store_code = match params::optional_code("storeCode", body.store_code.as_deref())? {
        Some(code) => code,
        None => cart_store(&snapshot, &current.cart).store_code,
    };
    // The store and its live state (the sold-out list) in one read of its board.
    let board = orderable_board(&state, &snapshot, &store_code).await?;
    let (store, live) = (&board.0, &board.1);
    let order_type = order_type_for_add(
        body.service_method,
        &store.service_methods,
        current.cart.order_type,
    )?;
    check_store_takes(store, &current.cart, order_type, state.clock.now_ms())?;
    let at = cart_time(&current.cart, state.clock.now_ms());
    let sold_out = &live.sold_out;
    let rules = RuleContext {
        at: china_time(at),
        store_code: &store.store_code,
        store_group: &store.group_code,
        order_type,
    };
    let mut lines = Vec::new();
    for item in body.items {
        lines.push(check_item(&snapshot, &rules, sold_out, item)?);
    }
    let mutation = add_lines(store_code, order_type, lines, state.clock.now_ms());
    update_and_render_from(&state, &ctx, &owner, (Some(current), Some(board)), mutation).await
}

/// A store its staff closed (休息中) takes no items (`adding::store_takes_items`), saying why
/// and what to do.
pub fn check_store_takes(store: &Store, cart: &Cart, order_type: u8, now: i64) -> ApiResult<()> {
    store_takes_items(store, cart, order_type, now).map_err(|why| {
        ApiError::bad_input(why.message(store, Lang::Zh), why.message(store, Lang::En))
    })
}

/// A line ready for the cart: product code, normalized selection, quantity, minSale.
pub type NewLine = (String, Selection, u32, u32);

/// Whether an item can go into the cart here and now (`adding::check_item`), and its
/// normalized form.
pub fn check_item(
    snapshot: &Snapshot,
    rules: &RuleContext,
    sold_out: &[String],
    item: AddItem,
) -> ApiResult<NewLine> {
    let code = params::code("productCode", &item.product_code)?;
    let product = snapshot
        .product(&code)
        .filter(|p| sold_by_itself(p, snapshot.category(&p.category_code)))
        .ok_or(AddRefusal::NoSuchProduct)?;
    let (selection, quantity) = match item.selection {
        Some(s) => (s.selection, s.quantity.or(item.quantity)),
        None => (Selection::default(), item.quantity),
    };
    let selection = adding::check_item(product, rules, sold_out, &selection)?;
    Ok((
        product.product_code.clone(),
        selection,
        quantity.unwrap_or(1),
        product.min_sale,
    ))
}

/// Adds checked lines to the cart, moving it to `store_code` and `order_type`.
pub fn add_lines(store_code: String, order_type: u8, lines: Vec<NewLine>, now: i64) -> Mutation {
    Arc::new(move |cart: &mut Cart| {
        if cart.store_code.as_deref() != Some(store_code.as_str()) {
            cart.store_code = Some(store_code.clone());
        }
        cart.set_order_type(order_type);
        for (code, selection, quantity, min_sale) in &lines {
            cart.add(
                code,
                selection.clone(),
                *quantity,
                *min_sale,
                new_line_id(),
                now,
            )?;
        }
        Ok(true)
    })
}

fn new_line_id() -> String {
    format!("l_{}", &uuid::Uuid::new_v4().simple().to_string()[..12])
}

/// Each line's product minimum, for edits.
fn min_sales(snapshot: &Snapshot, cart: &Cart) -> HashMap<String, u32> {
    cart.lines
        .iter()
        .map(|l| {
            let min = snapshot
                .product(&l.product_code)
                .map_or(1, |p| p.min_sale.max(1));
            (l.id.clone(), min)
        })
        .collect()
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EditItem {
    id: String,
    /// increase, decrease or quantity.
    action: String,
    quantity: Option<u32>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct EditBody {
    items: Vec<EditItem>,
}

/// Changes quantities (shoppingCarEdit): below the product's minimum removes the line.
#[utoipa::path(tag = "cart", request_body = EditBody,
    responses((status = 200, body = Envelope<CartDto>), (status = 400), (status = 404)))]
#[patch("/cart/items")]
pub async fn edit_items(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
    body: web::Json<EditBody>,
) -> ApiResult<Reply<CartDto>> {
    let mut edits = Vec::new();
    for item in body.into_inner().items {
        let edit = match (item.action.as_str(), item.quantity) {
            ("increase", _) => Edit::Increase,
            ("decrease", _) => Edit::Decrease,
            ("quantity", Some(q)) => Edit::Quantity(q),
            _ => {
                return Err(ApiError::bad_input(
                    "操作无效",
                    "action must be increase, decrease or quantity (with a quantity)",
                ))
            }
        };
        edits.push((item.id, edit));
    }
    let snapshot = state.catalogue.get().await;
    let current = state.carts.read(&owner.key).await?;
    let mins = min_sales(&snapshot, &current.cart);
    let mutation: Mutation = Arc::new(move |cart: &mut Cart| {
        for (id, edit) in &edits {
            cart.edit(id, *edit, mins.get(id).copied().unwrap_or(1))?;
        }
        Ok(true)
    });
    update_and_render(&state, &ctx, &owner, mutation).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LineRef {
    id: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct DeleteBody {
    items: Vec<LineRef>,
}

/// Removes lines (shoppingCarDel).
#[utoipa::path(tag = "cart", request_body = DeleteBody,
    responses((status = 200, body = Envelope<CartDto>), (status = 404)))]
#[delete("/cart/items")]
pub async fn delete_items(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
    body: web::Json<DeleteBody>,
) -> ApiResult<Reply<CartDto>> {
    let ids: Vec<String> = body.into_inner().items.into_iter().map(|i| i.id).collect();
    let mutation: Mutation = Arc::new(move |cart: &mut Cart| {
        for id in &ids {
            cart.remove(id)?;
        }
        Ok(true)
    });
    update_and_render(&state, &ctx, &owner, mutation).await
}

/// Empties the cart (clearShoppingCars); store, order type and time stay.
#[utoipa::path(tag = "cart", responses((status = 200, body = Envelope<CartDto>)))]
#[delete("/cart")]
pub async fn clear_cart(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
) -> ApiResult<Reply<CartDto>> {
    let mutation: Mutation = Arc::new(|cart: &mut Cart| {
        let changed = !cart.lines.is_empty();
        cart.clear();
        Ok(changed)
    });
    update_and_render(&state, &ctx, &owner, mutation).await
}

/// Drops every disabled item: sold out, off time, expired (clearSaleOutItmes).
#[utoipa::path(tag = "cart", responses((status = 200, body = Envelope<CartDto>)))]
#[post("/cart/clear-unavailable")]
pub async fn clear_unavailable(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
) -> ApiResult<Reply<CartDto>> {
    let snapshot = state.catalogue.get().await;
    let current = state.carts.read(&owner.key).await?;
    let board = cart_board(&state, &snapshot, &current.cart).await?;
    let held = held_coupons(&state, &ctx, &owner).await?;
    // Disabled lines, and coupon items whose product cannot be had (sold out, off time, gone or
    // the coupon no longer usable); a coupon item that only misses its threshold stays.
    let (disabled, gone_items): (Vec<String>, Vec<String>) = priced_with(
        &state,
        &snapshot,
        &current.cart,
        &board,
        held.as_ref(),
        |priced, _| {
            use actors::domain::pricing::cart_coupons::CouponItemStatus;
            let lines = priced
                .lines
                .iter()
                .filter(|l| l.status != actors::domain::pricing::cart_pricing::LineStatus::Valid)
                .map(|l| l.line.id.clone())
                .collect();
            let items = priced
                .coupon_items
                .iter()
                .filter(|i| {
                    matches!(
                        i.status,
                        CouponItemStatus::SoldOut
                            | CouponItemStatus::OffTime
                            | CouponItemStatus::Expired
                    )
                })
                .map(|i| i.coupon_code.clone())
                .collect();
            (lines, items)
        },
    );
    let mutation: Mutation = Arc::new(move |cart: &mut Cart| {
        let before = (cart.lines.len(), cart.coupon_items.len());
        cart.lines.retain(|l| !disabled.contains(&l.id));
        cart.coupon_items.retain(|c| !gone_items.contains(c));
        Ok((cart.lines.len(), cart.coupon_items.len()) != before)
    });
    update_and_render(&state, &ctx, &owner, mutation).await
}
