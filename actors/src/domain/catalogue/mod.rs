//! The chain's catalogue as the domain sees it: cities, districts, stores, categories, products.
//! These types are also the seed file format (`actors/seed/*.json`) and the stored document
//! format, so one definition serves seed, database and rules. Money is in fen.

pub mod effective;
pub mod menu;
pub mod seed;

use crate::domain::money::Fen;
use crate::domain::pricing::promotion::Promotion;
use serde::{Deserialize, Serialize};

/// A text in both product languages.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Bilingual {
    pub cn: String,
    pub en: String,
}

/// A point as the maps speak it: longitude first. Store and address points are GCJ-02.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LngLat {
    pub lng: f64,
    pub lat: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct City {
    pub city_code: String,
    pub name: Bilingual,
    pub lat: f64,
    pub lng: f64,
    #[serde(default = "yes")]
    pub delivery_display: bool,
    /// Hot cities are listed first in the city picker.
    #[serde(default)]
    pub hot: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct District {
    pub city_code: String,
    pub district_code: String,
    pub name: Bilingual,
    /// Centre of the district, for the offline gazetteer.
    pub lat: f64,
    pub lng: f64,
}

/// A daily time window in China time, "HH:MM:SS" both ends, end inclusive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TimeWindow {
    pub start: String,
    pub end: String,
}

/// Days a store takes no bookings: dates "YYYY-MM-DD", times "HH:MM:SS".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExclusionDay {
    pub start_date: String,
    pub end_date: String,
    pub start_time: String,
    pub end_time: String,
}

/// A notice shown when the store is chosen (spec serviceNotice).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceNotice {
    pub content: Bilingual,
    /// 1 confirm dialog, 2 toast.
    pub pop_up_model: u8,
    pub left_btn: Option<Bilingual>,
    pub right_btn: Option<Bilingual>,
}

/// Whether the store takes orders. `Closed` is "temporarily closed" with `stop_store_notice`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum StoreStatus {
    #[default]
    Open,
    Busy,
    Closed,
}

/// Service methods (= order types): 0 delivery, 1 pickup, 2 dine-in.
pub const DELIVERY: u8 = 0;
pub const PICKUP: u8 = 1;
pub const DINE_IN: u8 = 2;

pub const DEFAULT_DELIVERY_TIME_MIN: u32 = 30;
pub const DEFAULT_ESTIMATE_TIME_MIN: u32 = 15;
pub const DEFAULT_OPEN: &str = "10:00:00";
pub const DEFAULT_CLOSE: &str = "23:59:00";
/// The virtual default store: answered when no real default store exists, never saved as a selection.
pub const VIRTUAL_STORE_CODE: &str = "88888";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Store {
    pub store_code: String,
    pub name: Bilingual,
    pub address: Bilingual,
    /// GCJ-02.
    pub lat: f64,
    pub lng: f64,
    pub city_code: String,
    pub district_code: String,
    pub group_code: String,
    pub store_tel: String,
    #[serde(default)]
    pub standby_tel: Option<String>,
    /// Sorted and deduplicated when read; 0 delivery, 1 pickup, 2 dine-in.
    pub service_methods: Vec<u8>,
    #[serde(default = "default_delivery_time")]
    pub delivery_time: u32,
    #[serde(default = "default_estimate_time")]
    pub estimate_time: u32,
    /// Empty means the default 10:00:00 to 23:59:00.
    #[serde(default)]
    pub business_hours: Vec<TimeWindow>,
    /// Delivery polygon, GCJ-02, not closed (the first point is not repeated).
    #[serde(default)]
    pub delivery_area: Vec<LngLat>,
    #[serde(default)]
    pub status: StoreStatus,
    #[serde(default)]
    pub stop_store_notice: Option<Bilingual>,
    #[serde(default)]
    pub business_notice: Option<Bilingual>,
    #[serde(default)]
    pub service_notice: Option<ServiceNotice>,
    #[serde(default)]
    pub book_enable: bool,
    #[serde(default)]
    pub book_days: u32,
    #[serde(default)]
    pub default_book_time: Option<String>,
    #[serde(default)]
    pub exclusion_day_list: Vec<ExclusionDay>,
    /// Delivery fee for delivery orders below the threshold.
    #[serde(default)]
    pub delivery_fee: Fen,
    /// Product total at or above which delivery is free; 0 means never free.
    #[serde(default)]
    pub free_delivery_threshold: Fen,
    /// The chain's default store (answered by getDefaultStore).
    #[serde(default)]
    pub is_default: bool,
    /// Delivery orders start at this product total (after promotions, before the fee): the
    /// store's 起送 amount; 0: no minimum. Per store in its seed document.
    #[serde(default)]
    pub min_delivery_amount: Fen,
}

fn default_delivery_time() -> u32 {
    DEFAULT_DELIVERY_TIME_MIN
}
fn default_estimate_time() -> u32 {
    DEFAULT_ESTIMATE_TIME_MIN
}
fn yes() -> bool {
    true
}
fn one() -> u32 {
    1
}
fn four() -> u32 {
    4
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Category {
    pub category_code: String,
    pub name: Bilingual,
    pub sort: i32,
}

/// The gift category's name: its products are never listed on the menu.
pub const GIFT_CATEGORY_NAME: &str = "赠品";

/// Product type codes (productType): 0 single, 1 pizza or multi-flavour, 2 combo, 7 juice, 9 two-flavour.
pub mod product_type {
    pub const SINGLE: u8 = 0;
    pub const PIZZA: u8 = 1;
    pub const COMBO: u8 = 2;
    pub const JUICE: u8 = 7;
    pub const TWO_FLAVOUR: u8 = 9;
    pub const ALL: [u8; 5] = [SINGLE, PIZZA, COMBO, JUICE, TWO_FLAVOUR];
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SizeOption {
    pub size_code: String,
    pub name: Bilingual,
    /// Full price of the product at this size with the default crust.
    pub price: Fen,
    #[serde(default)]
    pub is_default: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PastryOption {
    pub pastry_code: String,
    pub name: Bilingual,
    /// Added to the size price.
    pub extra_price: Fen,
    /// Sizes this crust exists in; empty means every size.
    #[serde(default)]
    pub size_codes: Vec<String>,
    #[serde(default)]
    pub is_default: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SizePrice {
    pub size_code: String,
    pub price: Fen,
}

/// A flavour of a multi-flavour (type 1 with flavours) or two-flavour (type 9) pizza.
/// The pizza is priced by its dearest chosen flavour at the chosen size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlavorOption {
    pub flavor_code: String,
    pub name: Bilingual,
    pub image_url: String,
    pub prices: Vec<SizePrice>,
}

/// A sauce, base or extra topping. Base toppings come on the pizza (`is_default`) and can be
/// removed; extras cost `price` each, up to `max_quantity`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ingredient {
    pub code: String,
    pub name: Bilingual,
    #[serde(default)]
    pub price: Fen,
    #[serde(default)]
    pub is_default: bool,
    #[serde(default = "one")]
    pub max_quantity: u32,
}

/// One round of a combo: choose `choose_num` of `choices`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ComboRound {
    pub round_code: String,
    pub name: Bilingual,
    pub choose_num: u32,
    pub choices: Vec<ComboChoice>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ComboChoice {
    pub product_code: String,
    /// Surcharge over the combo price for choosing this item.
    #[serde(default)]
    pub add_price: Fen,
    #[serde(default)]
    pub is_default: bool,
    /// For a pizza inside a combo: the size it comes in.
    #[serde(default)]
    pub size_code: Option<String>,
}

/// How the product page shows one option group (spec styleOption).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StyleGroup {
    pub title: String,
    pub title_en: String,
    /// 1 buttons, 2 list with images.
    pub show_type: u8,
    #[serde(default)]
    pub hidden: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StyleOption {
    pub size: Option<StyleGroup>,
    pub pastry: Option<StyleGroup>,
    pub sauces: Option<StyleGroup>,
    pub spec1: Option<StyleGroup>,
    pub spec2: Option<StyleGroup>,
}

/// When, where and for which order types a product or promotion applies (spec effectiveRule).
/// Every present part must match; an absent or empty part matches everything.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EffectiveRule {
    /// Inclusive "YYYY-MM-DD" dates.
    #[serde(default)]
    pub effective_date: Option<DateRange>,
    /// Inclusive "HH:MM:SS" daily window in China time; may wrap past midnight.
    #[serde(default)]
    pub effective_time: Option<TimeWindow>,
    /// ISO weekdays: 1 Monday … 7 Sunday.
    #[serde(default, rename = "effectiveDayofWeek")]
    pub effective_day_of_week: Vec<u8>,
    #[serde(default)]
    pub effective_stores: Vec<String>,
    #[serde(default)]
    pub effective_store_groups: Vec<String>,
    #[serde(default)]
    pub order_types: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DateRange {
    pub start: String,
    pub end: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Product {
    pub product_code: String,
    pub category_code: String,
    pub name: Bilingual,
    pub description: Bilingual,
    /// The "from" price shown on the menu: the default size and crust, or the single price.
    pub selling_price: Fen,
    #[serde(default = "one")]
    pub min_sale: u32,
    pub image_url1: String,
    #[serde(default)]
    pub image_url2: Option<String>,
    #[serde(default)]
    pub detail_image_urls: Vec<String>,
    #[serde(default = "yes")]
    pub is_show: bool,
    pub sort: i32,
    /// 0 none, 1 or 2 recommended.
    #[serde(default)]
    pub recommend_type: u8,
    pub product_type: u8,
    #[serde(default)]
    pub product_sub_type: u8,
    #[serde(default)]
    pub sizes: Vec<SizeOption>,
    #[serde(default)]
    pub pastries: Vec<PastryOption>,
    #[serde(default)]
    pub flavors: Vec<FlavorOption>,
    /// How many flavours a multi-flavour pizza takes (2 for a two-flavour pizza).
    #[serde(default)]
    pub flavor_count: u32,
    #[serde(default)]
    pub sauces: Vec<Ingredient>,
    #[serde(default)]
    pub base_ingredients: Vec<Ingredient>,
    #[serde(default)]
    pub extra_ingredients: Vec<Ingredient>,
    #[serde(default)]
    pub combo_rounds: Vec<ComboRound>,
    #[serde(default)]
    pub style_option: Option<StyleOption>,
    #[serde(default = "four")]
    pub detail_page_show_num: u32,
    #[serde(default)]
    pub effective_rule: Option<EffectiveRule>,
    /// Words the product search also matches (both languages).
    #[serde(default)]
    pub keywords: Vec<String>,
}

/// The whole seed: what `pizza-order seed` loads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Catalogue {
    pub cities: Vec<City>,
    pub districts: Vec<District>,
    pub stores: Vec<Store>,
    pub categories: Vec<Category>,
    pub products: Vec<Product>,
    /// Search hot words, both languages.
    pub hot_words: Vec<Bilingual>,
    #[serde(default)]
    pub promotions: Vec<Promotion>,
}

/// The virtual default store (code 88888), answered when the chain has no real default store,
/// so the app can show a menu before any store is chosen. It takes no orders: no service
/// methods, no delivery area. Placed at the given city's centre (the first city).
pub fn virtual_store(city: Option<&City>) -> Store {
    Store {
        store_code: VIRTUAL_STORE_CODE.into(),
        name: Bilingual {
            cn: "请选择门店".into(),
            en: "Choose a store".into(),
        },
        address: Bilingual::default(),
        lat: city.map_or(31.2304, |c| c.lat),
        lng: city.map_or(121.4737, |c| c.lng),
        city_code: city.map(|c| c.city_code.clone()).unwrap_or_default(),
        district_code: String::new(),
        group_code: String::new(),
        store_tel: String::new(),
        standby_tel: None,
        service_methods: Vec::new(),
        delivery_time: DEFAULT_DELIVERY_TIME_MIN,
        estimate_time: DEFAULT_ESTIMATE_TIME_MIN,
        business_hours: Vec::new(),
        delivery_area: Vec::new(),
        status: StoreStatus::Open,
        stop_store_notice: None,
        business_notice: None,
        service_notice: None,
        book_enable: false,
        book_days: 0,
        default_book_time: None,
        exclusion_day_list: Vec::new(),
        delivery_fee: Fen::ZERO,
        free_delivery_threshold: Fen::ZERO,
        min_delivery_amount: Fen::ZERO,
        is_default: false,
    }
}
