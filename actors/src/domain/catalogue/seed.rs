//! The demo chain, embedded in the binary.
//!
//! The seed is one [`Catalogue`] written as four files under `actors/seed/`:
//! `geography.json` (cities, districts), `stores.json` (stores), `menu.json` (categories,
//! products, hot words) and `promotions.json` (the cart's promotion rules). Money is in fen,
//! coordinates are GCJ-02. Product images are served from `frontend/public/images/products/`
//! and drawn by `actors/seed/make_images.py`.

use crate::domain::catalogue::{Bilingual, Catalogue, Category, City, District, Product, Store};
use crate::domain::pricing::promotion::Promotion;
use serde::Deserialize;

const GEOGRAPHY: &str = include_str!("../../../seed/geography.json");
const STORES: &str = include_str!("../../../seed/stores.json");
const MENU: &str = include_str!("../../../seed/menu.json");
const PROMOTIONS: &str = include_str!("../../../seed/promotions.json");

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct GeographyFile {
    cities: Vec<City>,
    districts: Vec<District>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StoresFile {
    stores: Vec<Store>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PromotionsFile {
    promotions: Vec<Promotion>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct MenuFile {
    categories: Vec<Category>,
    products: Vec<Product>,
    hot_words: Vec<Bilingual>,
}

/// The demo chain: the three embedded seed files, parsed and merged into one catalogue.
pub fn demo_catalogue() -> Result<Catalogue, serde_json::Error> {
    let geography: GeographyFile = serde_json::from_str(GEOGRAPHY)?;
    let stores: StoresFile = serde_json::from_str(STORES)?;
    let menu: MenuFile = serde_json::from_str(MENU)?;
    let promotions: PromotionsFile = serde_json::from_str(PROMOTIONS)?;
    Ok(Catalogue {
        cities: geography.cities,
        districts: geography.districts,
        stores: stores.stores,
        categories: menu.categories,
        products: menu.products,
        hot_words: menu.hot_words,
        promotions: promotions.promotions,
    })
}

#[cfg(test)]
#[path = "seed_tests.rs"]
mod tests;
