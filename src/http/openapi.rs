//! The OpenAPI document of every endpoint, served at /api-docs/openapi.json with a browsable
//! UI at /api-docs/.

use super::edge::openapi_shared;
use super::{
    accounts, addresses, cart, checkout, dev, geo, loyalty, menu, orders, payments, stores, system,
    tablet,
};
use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Pizza ordering API",
        description = "Every response is the envelope {errCode, errMsg, data}; errCode \"00\" is success. \
            Send Accept-Language (zh default, en) and X-Channel-Id (1 wap, 2 web, 3 android, 4 ios, \
            5 wechat, 9 alipay, 30, 31, 37, 46). Money is yuan with at most 2 decimals; times are epoch ms."
    ),
    paths(
        system::time, system::page_switch, system::protocol,
        stores::default_store, stores::by_point, stores::nearby, stores::search, stores::by_code,
        geo::cities::city_list, geo::cities::districts,
        geo::ip, geo::regeo, geo::geocode, geo::places, geo::tips,
        menu::store_menu, menu::product, menu::search, menu::hot_words,
        accounts::auth::send_code, accounts::auth::register, accounts::auth::login, accounts::auth::login_sms, accounts::auth::logout,
        accounts::auth::reset_password, accounts::auth::change_password,
        accounts::me::get_me, accounts::me::patch_me, accounts::me::close_account, accounts::me::get_privacy, accounts::me::post_privacy,
        accounts::me::patch_marketing, accounts::me::post_recommendation,
        addresses::list, addresses::detail, addresses::create, addresses::update, addresses::remove,
        addresses::set_default, addresses::smart_paste,
        cart::get_cart, cart::add_items, cart::edit_items, cart::delete_items, cart::clear_cart,
        cart::rules::choose_rule, cart::clear_unavailable, cart::verify::verify,
        cart::coupons::cart_coupons, cart::coupons::choose_coupons, cart::coupons::add_coupon_item,
        cart::coupons::remove_coupon_item,
        orders::reservation, orders::slots, orders::scan, checkout::submit, orders::list, orders::detail::detail,
        orders::actions::cancel, orders::actions::refund_again, orders::actions::comment,
        orders::reorder,
        tablet::login, tablet::logout, tablet::pin::change_pin, tablet::queue, tablet::accept, tablet::refuse,
        tablet::advance, tablet::undo, tablet::history::history,
        tablet::store::get_board, tablet::store::set_status, tablet::store::products,
        tablet::store::set_availability, tablet::store::ingredients,
        tablet::store::set_ingredient_availability, tablet::store::unattended,
        payments::create, payments::in_progress, payments::status, payments::notify,
        dev::sms_outbox, orders::dev_table_link,
        loyalty::members::agreement, loyalty::members::join, loyalty::members::me,
        loyalty::members::levels, loyalty::members::history, loyalty::gifts::list,
        loyalty::gifts::claim, loyalty::points::ledger, loyalty::points::deduction_rule,
        loyalty::chain::adjust, loyalty::chain::reconcile, loyalty::chain::refund_order,
        loyalty::coupons::list, loyalty::coupons::offers, loyalty::coupons::collect,
        loyalty::coupons::exchange, loyalty::coupons::transfer,
        loyalty::chain::coupon_templates, loyalty::chain::issue_coupons,
    ),
    tags(
        (name = "system"), (name = "stores"), (name = "location"), (name = "menu"),
        (name = "auth", description = "Sign-up and sign-in. Without a token a protected call is \
            errCode 401; with an expired or logged-out token errCode 407 (登录过期!)."),
        (name = "me"), (name = "addresses"),
        (name = "cart", description = "A visitor's cart is named by X-Cart-Token (issued by the \
            first cart call, in the response header and cartToken); a logged-in user's by the token. \
            Every call answers the whole cart, priced by the server. See docs/cart-and-checkout.md."),
        (name = "orders", description = "Order type and time, scan-to-order, submit \
            (Idempotency-Key) and the order."),
        (name = "payments", description = "Payment attempts, the pay-in-progress record and the \
            provider's notify. See docs/payments-and-orders.md."),
        (name = "tablet", description = "Store tablets: a staff token (POST /tablet/login) scoped \
            to its store."),
        (name = "chain", description = "The chain's operations view, behind the \
            `[ordering] ops_token` bearer token (off when unset)."),
        (name = "loyalty", description = "The member club and points (issue 23): joining, \
            levels, gifts, the points ledger and the deduction rule. See docs/loyalty.md."),
        (name = "coupons", description = "Coupons (issue 24): the customer's coupons, offers \
            to collect, exchange by code, transfer. Not in channel 30. See docs/coupons.md."),
        (name = "dev", description = "Only while the sandbox providers are configured."),
    )
)]
pub struct ApiDoc;

#[derive(OpenApi)]
#[openapi(paths(system::health::live, system::health::ready))]
pub struct HealthDoc;

/// The served document: what the annotations say, completed by [`edge::openapi_shared::complete`]
/// (full paths, access rules, shared headers and error responses).
pub fn document() -> serde_json::Value {
    let mut doc = serde_json::to_value(ApiDoc::openapi()).unwrap_or_default();
    let health = serde_json::to_value(HealthDoc::openapi()).unwrap_or_default();
    openapi_shared::complete(&mut doc, &health);
    doc
}
