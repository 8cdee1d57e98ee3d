//! Coupons at checkout (issue 24; docs/coupons.md "At checkout"): the customer's coupons for
//! this cart (GET /cart/coupons), the coupon choice (POST /cart/coupons), and product coupons
//! put in the cart as coupon items (POST/DELETE /cart/coupon-items, addShoppingCarByCoupon).
//! A choice is priced before it is kept, and refused (errCode -8) with the reason when a
//! chosen coupon would not apply; the cart is then unchanged. Visitors have no coupons, and
//! the meal-voucher partner channel (30) never sees any.

use crate::http::cart::coupons_dto::{reason_text, CartCouponsDto};
use crate::http::cart::dto::CartDto;
use crate::http::cart::owner::CartOwner;
use crate::http::cart::{cart_board, priced_with, render_with, update_and_render};
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult, Msg};
use crate::state::AppState;
use actix_web::{delete, get, post, web};
use actors::carts::pricing::HeldCoupons;
use actors::carts::{CartKey, Mutation};
use actors::catalogue::Snapshot;
use actors::db::carts::StoredCart;
use actors::domain::cart::Cart;
use actors::domain::catalogue::Store;
use actors::domain::channel::Channel;
use actors::domain::lang::Lang;
use actors::domain::pricing::cart_pricing::PricedCart;
use actors::domain::stores::store_board::StoreLive;
use serde::Deserialize;
use std::sync::Arc;
use utoipa::ToSchema;

/// None for visitors and in channel 30 (no coupons there at all).
pub async fn held_coupons(
    state: &AppState,
    ctx: &Ctx,
    owner: &CartOwner,
) -> ApiResult<Option<HeldCoupons>> {
    let CartKey::User(user_id) = owner.key else {
        return Ok(None);
    };
    held_for(state, ctx.channel, user_id).await
}

pub async fn held_for(
    state: &AppState,
    channel: Channel,
    user_id: i64,
) -> ApiResult<Option<HeldCoupons>> {
    Ok(HeldCoupons::read(&state.db, channel, user_id, state.clock.now_ms()).await?)
}

fn not_in_channel() -> ApiError {
    ApiError::not_found(
        "当前渠道暂不支持优惠券",
        "Coupons are not available in this channel",
    )
}

/// The coupons of a signed-in customer outside channel 30, or the refusal.
async fn held_or_refuse(state: &AppState, ctx: &Ctx, owner: &CartOwner) -> ApiResult<HeldCoupons> {
    if !matches!(owner.key, CartKey::User(_)) {
        return Err(ApiError::LoginRequired);
    }
    held_coupons(state, ctx, owner)
        .await?
        .ok_or_else(not_in_channel)
}

/// The customer's coupons for this cart: those that can be used (applied, or giving way to a
/// better or chosen combination) and those that cannot, each with what it saves and why not.
/// Visitors and channel 30: empty lists.
#[utoipa::path(tag = "cart",
    responses((status = 200, body = Envelope<CartCouponsDto>)))]
#[get("/cart/coupons")]
pub async fn cart_coupons(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
) -> ApiResult<Reply<CartCouponsDto>> {
    let Some(held) = held_coupons(&state, &ctx, &owner).await? else {
        return Ok(Reply::new(CartCouponsDto::empty()));
    };
    let snapshot = state.catalogue.get().await;
    let stored = state.carts.read(&owner.key).await?;
    let board = cart_board(&state, &snapshot, &stored.cart).await?;
    let auto = stored.cart.chosen_coupons.is_none();
    let dto = priced_with(
        &state,
        &snapshot,
        &stored.cart,
        &board,
        Some(&held),
        |p, _| CartCouponsDto::new(p, auto, ctx.lang, &|code| snapshot.product(code)),
    );
    Ok(Reply::new(dto))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChooseCouponsBody {
    /// The coupons to use; empty: the best combination.
    #[serde(default)]
    coupon_codes: Vec<String>,
    /// True: no coupon at all.
    #[serde(default)]
    none: bool,
}

/// Refuses a trial pricing when a coupon the customer asked for does not apply: its name and
/// why, in both languages.
fn refusal(priced: &PricedCart, codes: &[String]) -> Option<(Msg, Msg)> {
    codes.iter().find_map(|code| {
        let option = priced
            .coupons
            .iter()
            .find(|o| &o.coupon.coupon_code == code)?;
        if option.applied {
            return None;
        }
        let why = option.reason.as_ref()?;
        Some((
            Msg::new(
                option.template.name.cn.clone(),
                Lang::En.pick(&option.template.name).to_string(),
            ),
            Msg::new(
                reason_text(why, priced, Lang::Zh),
                reason_text(why, priced, Lang::En),
            ),
        ))
    })
}

/// Prices `trial` and, when a coupon of `codes` would not apply, answers the refusal with the
/// cart as it is.
#[allow(clippy::too_many_arguments)]
async fn check_trial(
    state: &AppState,
    ctx: &Ctx,
    snapshot: &Snapshot,
    owner: &CartOwner,
    current: &StoredCart,
    board: &(Store, StoreLive),
    held: &HeldCoupons,
    trial: &Cart,
    codes: &[String],
) -> ApiResult<()> {
    let refused = priced_with(state, snapshot, trial, board, Some(held), |p, _| {
        refusal(p, codes)
    });
    if let Some((name, why)) = refused {
        let mut dto = render_with(state, ctx, snapshot, owner, current, board, Some(held));
        dto.points_deduction =
            crate::http::cart::points_deduction(state, owner, dto.order_amount).await?;
        return Err(ApiError::rule_refused(
            &name,
            &why,
            serde_json::to_value(&dto).unwrap_or_default(),
        ));
    }
    Ok(())
}

fn unknown_coupon() -> ApiError {
    ApiError::not_found(
        "优惠券不存在或不可用",
        "No such coupon, or it cannot be used",
    )
}

/// Chooses the coupons (empty list: the best combination; `none`: no coupon). Each chosen
/// coupon must apply to this cart as it is, beside the others chosen: otherwise refused
/// (errCode -8) with the reason, the cart unchanged.
#[utoipa::path(tag = "cart", request_body = ChooseCouponsBody,
    responses((status = 200, body = Envelope<CartDto>), (status = 400), (status = 401), (status = 404)))]
#[post("/cart/coupons")]
pub async fn choose_coupons(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
    body: web::Json<ChooseCouponsBody>,
) -> ApiResult<Reply<CartDto>> {
    let held = held_or_refuse(&state, &ctx, &owner).await?;
    let body = body.into_inner();
    let mut codes: Vec<String> = Vec::new();
    for code in &body.coupon_codes {
        let code = code.trim().to_string();
        let (_, template) = held
            .coupons
            .iter()
            .find(|(c, _)| c.coupon_code == code)
            .ok_or_else(unknown_coupon)?;
        if template.kind.product_code().is_some() {
            return Err(ApiError::bad_input(
                "商品券请通过“加入购物车”使用",
                "Add a product coupon to the cart to use it",
            ));
        }
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    if body.none && !codes.is_empty() {
        return Err(ApiError::bad_input(
            "不使用优惠券时请勿选择优惠券",
            "Choose coupons or none, not both",
        ));
    }
    let choice = match (body.none, codes.is_empty()) {
        (true, _) => Some(Vec::new()),
        (false, true) => None,
        (false, false) => Some(codes.clone()),
    };
    let snapshot = state.catalogue.get().await;
    let current = state.carts.read(&owner.key).await?;
    let board = cart_board(&state, &snapshot, &current.cart).await?;
    let mut trial = current.cart.clone();
    trial.chosen_coupons = choice.clone();
    check_trial(
        &state, &ctx, &snapshot, &owner, &current, &board, &held, &trial, &codes,
    )
    .await?;
    let mutation: Mutation = Arc::new(move |cart: &mut Cart| {
        if cart.chosen_coupons == choice {
            return Ok(false);
        }
        cart.chosen_coupons = choice.clone();
        Ok(true)
    });
    update_and_render(&state, &ctx, &owner, mutation).await
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CouponItemBody {
    coupon_code: String,
}

/// Puts a product coupon's product in the cart as a coupon item (addShoppingCarByCoupon): at
/// the coupon's price (a ¥9.9 换购) or free (an exchange coupon). Refused (errCode -8) with the
/// reason when it would not apply to this cart (below its threshold, excluded by a chosen
/// coupon, its product sold out …).
#[utoipa::path(tag = "cart", request_body = CouponItemBody,
    responses((status = 200, body = Envelope<CartDto>), (status = 400), (status = 401), (status = 404)))]
#[post("/cart/coupon-items")]
pub async fn add_coupon_item(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
    body: web::Json<CouponItemBody>,
) -> ApiResult<Reply<CartDto>> {
    let held = held_or_refuse(&state, &ctx, &owner).await?;
    let code = body.into_inner().coupon_code.trim().to_string();
    let (_, template) = held
        .coupons
        .iter()
        .find(|(c, _)| c.coupon_code == code)
        .ok_or_else(unknown_coupon)?;
    if template.kind.product_code().is_none() {
        return Err(ApiError::bad_input(
            "该优惠券不是商品券",
            "That coupon does not give a product",
        ));
    }
    let snapshot = state.catalogue.get().await;
    let current = state.carts.read(&owner.key).await?;
    let board = cart_board(&state, &snapshot, &current.cart).await?;
    let mut trial = current.cart.clone();
    trial.add_coupon_item(&code);
    check_trial(
        &state,
        &ctx,
        &snapshot,
        &owner,
        &current,
        &board,
        &held,
        &trial,
        std::slice::from_ref(&code),
    )
    .await?;
    let mutation: Mutation = Arc::new(move |cart: &mut Cart| Ok(cart.add_coupon_item(&code)));
    update_and_render(&state, &ctx, &owner, mutation).await
}

/// Takes a coupon item out of the cart; the coupon stays the customer's.
#[utoipa::path(tag = "cart", params(("couponCode" = String, Path)),
    responses((status = 200, body = Envelope<CartDto>), (status = 401), (status = 404)))]
#[delete("/cart/coupon-items/{couponCode}")]
pub async fn remove_coupon_item(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
    path: web::Path<String>,
) -> ApiResult<Reply<CartDto>> {
    if !matches!(owner.key, CartKey::User(_)) {
        return Err(ApiError::LoginRequired);
    }
    let code = path.into_inner();
    let current = state.carts.read(&owner.key).await?;
    if !current.cart.coupon_items.contains(&code) {
        return Err(ApiError::not_found(
            "购物车中没有该商品券",
            "That coupon item is not in your cart",
        ));
    }
    let mutation: Mutation = Arc::new(move |cart: &mut Cart| Ok(cart.remove_coupon_item(&code)));
    update_and_render(&state, &ctx, &owner, mutation).await
}
