//! The customer's promotion choice (chooseRule, `POST /cart/rules`): priced before it is kept,
//! and refused with the reason when it would save nothing (docs/cart-and-checkout.md "How
//! offers are chosen").

use crate::http::cart::dto::CartDto;
use crate::http::cart::owner::CartOwner;
use crate::http::cart::words::left_out_text;
use crate::http::cart::{cart_board, priced_with, render_with, update_and_render};
use crate::http::edge::context::Ctx;
use crate::http::edge::envelope::{Envelope, Reply};
use crate::http::edge::error::{ApiError, ApiResult, Msg};
use crate::state::AppState;
use actix_web::{post, web};
use actors::carts::Mutation;
use actors::domain::cart::Cart;
use actors::domain::lang::Lang;
use actors::domain::pricing::promotion::mutex_group_of;
use serde::Deserialize;
use std::sync::Arc;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChooseRuleBody {
    rule_id: String,
}

/// Chooses a promotion (chooseRule): within its mutex group it replaces the other members.
/// Honoured only when it then saves something on this cart; otherwise refused (errCode -8)
/// with the reason (not in effect, no items, 再买¥x可享 …) and the cart unchanged.
#[utoipa::path(tag = "cart", request_body = ChooseRuleBody,
    responses((status = 200, body = Envelope<CartDto>), (status = 400), (status = 404)))]
#[post("/cart/rules")]
pub async fn choose_rule(
    state: web::Data<AppState>,
    ctx: Ctx,
    owner: CartOwner,
    body: web::Json<ChooseRuleBody>,
) -> ApiResult<Reply<CartDto>> {
    let snapshot = state.catalogue.get().await;
    let rule = snapshot
        .catalogue
        .promotions
        .iter()
        .find(|r| r.rule_id == body.rule_id)
        .ok_or_else(|| ApiError::not_found("活动不存在", "No such promotion"))?;
    let group = mutex_group_of(&snapshot.catalogue.promotions, rule);
    let rule_id = rule.rule_id.clone();
    // Priced with the choice before it is kept: a choice that saves nothing is never stored.
    let current = state.carts.read(&owner.key).await?;
    let board = cart_board(&state, &snapshot, &current.cart).await?;
    let held = crate::http::cart::coupons::held_coupons(&state, &ctx, &owner).await?;
    let mut trial = current.cart.clone();
    trial.choose_rule(&rule_id, &group);
    let refusal = priced_with(
        &state,
        &snapshot,
        &trial,
        &board,
        held.as_ref(),
        |priced, _| {
            let option = priced.rules.iter().find(|o| o.rule.rule_id == rule_id)?;
            let why = option.left_out.as_ref()?;
            let name_of = |lang: Lang| {
                move |id: &str| {
                    priced
                        .rules
                        .iter()
                        .find(|o| o.rule.rule_id == id)
                        .map_or_else(|| id.to_string(), |o| lang.pick(&o.rule.name).to_string())
                }
            };
            Some((
                Msg::new(rule.name.cn.clone(), lang_en(&rule.name)),
                Msg::new(
                    left_out_text(why, Lang::Zh, &name_of(Lang::Zh)).1,
                    left_out_text(why, Lang::En, &name_of(Lang::En)).1,
                ),
            ))
        },
    );
    if let Some((rule, why)) = refusal {
        let dto = render_with(
            &state,
            &ctx,
            &snapshot,
            &owner,
            &current,
            &board,
            held.as_ref(),
        );
        return Err(ApiError::rule_refused(
            &rule,
            &why,
            serde_json::to_value(&dto).unwrap_or_default(),
        ));
    }
    let mutation: Mutation = Arc::new(move |cart: &mut Cart| {
        if cart.chosen_rules.contains(&rule_id) {
            return Ok(false);
        }
        cart.choose_rule(&rule_id, &group);
        Ok(true)
    });
    update_and_render(&state, &ctx, &owner, mutation).await
}

/// The English name, or the Chinese one when a rule has none.
fn lang_en(name: &actors::domain::catalogue::Bilingual) -> String {
    Lang::En.pick(name).to_string()
}
