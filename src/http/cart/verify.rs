//! The cart checked for a page (shoppingCarVerify): the menu, search and submit pages ask
//! whether it can go on.

use crate::http::cart::dto::CartDto;
use crate::http::cart::owner::{CartOwner, CART_TOKEN_HEADER};
use crate::http::cart::render;
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::ApiResult;
use crate::state::AppState;
use actix_web::{post, web};
use actors::domain::ordering::checkout;
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifyBody {
    page_type: String,
}

#[derive(Debug, serde::Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifyDto {
    /// The page does not check the cart (only menu, search and orderSubmit do).
    pub skipped: bool,
    pub cart: Option<CartDto>,
}

/// Checks the cart for a page (shoppingCarVerify); skipped outside menu, search and submit.
/// On the submit page an empty cart, or one with only disabled items, is errCode -20 (spec
/// account §4 keeps the cart's -4 for the chat app's bind confirm).
#[utoipa::path(tag = "cart", request_body = VerifyBody,
    responses((status = 200, body = Envelope<VerifyDto>), (status = 400)))]
#[post("/cart/verify")]
pub async fn verify(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
    body: web::Json<VerifyBody>,
) -> ApiResult<Reply<VerifyDto>> {
    let page = body.page_type.as_str();
    if !matches!(page, "menu" | "search" | "orderSubmit") {
        return Ok(Reply::new(VerifyDto {
            skipped: true,
            cart: None,
        }));
    }
    let snapshot = state.catalogue.get().await;
    let stored = state.carts.read(&owner.key).await?;
    let dto = render(&state, &ctx, &snapshot, &owner, &stored).await?;
    if page == "orderSubmit" {
        check_submittable(&dto)?;
    }
    let reply = Reply::new(VerifyDto {
        skipped: false,
        cart: Some(dto),
    });
    Ok(match (owner.issued, owner.token()) {
        (true, Some(token)) => reply.with_header(CART_TOKEN_HEADER, token),
        _ => reply,
    })
}

/// Spec §8 cart hints: empty cannot check out; no valid items.
pub fn check_submittable(dto: &CartDto) -> ApiResult<()> {
    let disabled = dto.sale_out_items_from_shopping_car.len()
        + dto.time_out_items.len()
        + dto.effect_out_items.len();
    checkout::check_submittable(dto.items.len(), disabled)
        .map_err(|r| actors::checkout::CheckoutError::Refused(r).into())
}
