//! JSON shapes of the API (spec field names, camelCase, money in yuan). Built from domain
//! types in the request's language; the unsuffixed name fields are localised, the CN/EN
//! suffixed ones carry both.

pub mod geography;
pub mod product;
pub mod store;

use actors::domain::catalog::Bilingual;
use actors::domain::lang::Lang;

pub fn pick(text: &Bilingual, lang: Lang) -> String {
    match lang {
        Lang::Zh => text.cn.clone(),
        Lang::En if text.en.is_empty() => text.cn.clone(),
        Lang::En => text.en.clone(),
    }
}
