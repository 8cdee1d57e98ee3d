//! The HTTP edge. This file is the route map: the whole API at a glance.

pub mod accounts;
pub mod addresses;
pub mod cart;
pub mod checkout;
pub mod dev;
pub mod edge;
pub mod geo;
pub mod loyalty;
pub mod menu;
pub mod openapi;
pub mod orders;
pub mod payments;
pub mod static_files;
pub mod stores;
pub mod system;
pub mod tablet;

use actix_web::web;
use std::path::Path;
use utoipa_swagger_ui::SwaggerUi;

/// Every route: the API first, since every pattern tried before a request's own costs it
/// (actix-web tries them in order); then `mounts` (the socket endpoint and `/metrics`, which
/// their own modules configure), the health checks, the docs, the sandbox's pages and, last,
/// the app's files, whose `/` prefix would shadow anything after it.
pub fn routes(
    cfg: &mut web::ServiceConfig,
    static_dir: &Path,
    mounts: impl FnOnce(&mut web::ServiceConfig),
) {
    cfg.service(
        web::scope("/api/v1")
            // actix-web tries the routes of a scope in order, and every pattern with a
            // `{…}` it passes costs a regular expression (about a microsecond). The most
            // read resources are scopes of their own, tried first: a request for one of
            // them passes only its neighbours (docs/benchmarks.md). Their handlers name
            // their full path for the OpenAPI document.
            .service(read("/system/time", system::time))
            .service(
                web::scope("/stores")
                    // Literal store paths before /stores/{storeCode}; the store card
                    // before the menu: the card is the cheaper answer, so one pattern
                    // more weighs less on the menu (26 KB) than on it.
                    .service(stores::default_store)
                    .service(stores::by_point)
                    .service(stores::nearby)
                    .service(stores::search)
                    .service(read("/{storeCode}", stores::by_code))
                    .service(read("/{storeCode}/menu", menu::store_menu))
                    .default_service(web::to(no_such_endpoint)),
            )
            .service(
                web::scope("/products")
                    // Literal product paths before /products/{productCode}.
                    .service(menu::search)
                    .service(menu::hot_words)
                    .service(read("/{productCode}", menu::product))
                    .default_service(web::to(no_such_endpoint)),
            )
            .service(
                web::scope("/orders")
                    // The order page's read first: no GET literal it could shadow has one
                    // segment (GET /orders/reservation and /orders/scan are not served,
                    // and would reach it anyway).
                    .service(read("/{orderNo}", orders::detail::detail))
                    .service(orders::reservation)
                    .service(orders::slots)
                    .service(orders::scan)
                    .service(checkout::submit)
                    .service(orders::list)
                    .service(orders::reorder)
                    .service(orders::actions::cancel)
                    .service(orders::actions::refund_again)
                    .service(orders::actions::comment)
                    .default_service(web::to(no_such_endpoint)),
            )
            .service(system::page_switch)
            .service(system::protocol)
            .service(geo::cities::city_list)
            .service(geo::cities::districts)
            .service(geo::ip)
            .service(geo::regeo)
            .service(geo::geocode)
            .service(geo::places)
            .service(geo::tips)
            .service(accounts::auth::send_code)
            .service(accounts::auth::register)
            .service(accounts::auth::login)
            .service(accounts::auth::login_sms)
            .service(accounts::auth::logout)
            .service(accounts::auth::reset_password)
            .service(accounts::auth::change_password)
            .service(accounts::me::get_me)
            .service(accounts::me::patch_me)
            .service(accounts::me::close_account)
            .service(accounts::me::get_privacy)
            .service(accounts::me::post_privacy)
            .service(accounts::me::patch_marketing)
            .service(accounts::me::post_recommendation)
            .service(loyalty::members::agreement)
            .service(loyalty::members::join)
            .service(loyalty::members::me)
            // Literal level paths before none: /members/levels/history is its own route.
            .service(loyalty::members::levels)
            .service(loyalty::members::history)
            .service(loyalty::gifts::list)
            .service(loyalty::gifts::claim)
            .service(loyalty::points::ledger)
            .service(loyalty::points::deduction_rule)
            // Literal coupon paths before /coupons/{couponCode}/transfer.
            .service(loyalty::coupons::list)
            .service(loyalty::coupons::offers)
            .service(loyalty::coupons::collect)
            .service(loyalty::coupons::exchange)
            .service(loyalty::coupons::transfer)
            // Literal address paths before /addresses/{id}.
            .service(addresses::smart_paste)
            .service(addresses::list)
            .service(addresses::create)
            .service(addresses::detail)
            .service(addresses::update)
            .service(addresses::remove)
            .service(addresses::set_default)
            .service(cart::get_cart)
            .service(cart::add_items)
            .service(cart::edit_items)
            .service(cart::delete_items)
            .service(cart::clear_cart)
            .service(cart::rules::choose_rule)
            .service(cart::coupons::cart_coupons)
            .service(cart::coupons::choose_coupons)
            .service(cart::coupons::add_coupon_item)
            .service(cart::coupons::remove_coupon_item)
            .service(cart::clear_unavailable)
            .service(cart::verify::verify)
            .service(tablet::login)
            .service(tablet::logout)
            .service(tablet::pin::change_pin)
            .service(tablet::queue)
            .service(tablet::accept)
            .service(tablet::refuse)
            .service(tablet::advance)
            .service(tablet::undo)
            .service(tablet::history::history)
            .service(tablet::store::get_board)
            .service(tablet::store::set_status)
            .service(tablet::store::products)
            .service(tablet::store::set_availability)
            .service(tablet::store::ingredients)
            .service(tablet::store::set_ingredient_availability)
            .service(tablet::store::unattended)
            .service(loyalty::chain::adjust)
            .service(loyalty::chain::reconcile)
            .service(loyalty::chain::refund_order)
            .service(loyalty::chain::coupon_templates)
            .service(loyalty::chain::issue_coupons)
            // Literal payment paths before /payments/{paymentId}.
            .service(payments::create)
            .service(payments::in_progress)
            .service(payments::notify)
            .service(payments::status)
            .service(dev::sms_outbox)
            .service(orders::dev_table_link)
            .default_service(web::to(no_such_endpoint)),
    )
    .configure(mounts)
    .service(system::health::live)
    .service(system::health::ready)
    // After the API: its pattern is a regular expression, which every request tried before
    // it would pay for.
    .service(
        SwaggerUi::new("/api-docs/{_:.*}")
            .external_url_unchecked("/api-docs/openapi.json", openapi::document()),
    )
    // The sandbox provider's own pages, outside the API (only while it is configured).
    .service(payments::sandbox::cashier_js)
    .service(payments::sandbox::cashier_css)
    .service(payments::sandbox::cashier)
    .service(payments::sandbox::pay)
    .configure(|cfg| static_files::configure(cfg, static_dir));
}

/// GET `path`, served by `handler`, for the most read resources: what `#[get(path)]` registers
/// less its method guard's bookkeeping. actix-web's guard records each method it is asked
/// about in the request's extensions, for an `Allow` header that a guard on the resource (the
/// macro's) never leads to: a request of another method goes on to `no_such_endpoint` either
/// way. Two allocations and three map operations on every request (docs/benchmarks.md,
/// seventh session).
fn read<F, Args>(path: &str, handler: F) -> actix_web::Resource
where
    F: actix_web::Handler<Args>,
    Args: actix_web::FromRequest + 'static,
    F::Output: actix_web::Responder + 'static,
{
    web::resource(path)
        .guard(actix_web::guard::fn_guard(|ctx| {
            ctx.head().method == actix_web::http::Method::GET
        }))
        .to(handler)
}

/// What the API answers for a path it does not have.
async fn no_such_endpoint() -> Result<actix_web::HttpResponse, edge::error::ApiError> {
    Err(edge::error::ApiError::not_found(
        "接口不存在",
        "No such endpoint",
    ))
}
