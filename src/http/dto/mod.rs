//! JSON shapes of the API (spec field names, camelCase, money in yuan). Built from domain
//! types in the request's language; the unsuffixed name fields are localised, the CN/EN
//! suffixed ones carry both.

pub mod account;
pub mod address;
pub mod cart;
pub mod cart_coupons;
pub mod coupon;
pub mod geography;
pub mod location;
pub mod loyalty;
pub mod product;
pub mod store;

use actors::domain::catalog::Bilingual;
use actors::domain::lang::Lang;

/// The text in the request's language, owned for a DTO (English falls back to Chinese).
pub fn pick(text: &Bilingual, lang: Lang) -> String {
    lang.pick(text).to_string()
}
