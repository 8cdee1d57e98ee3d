use crate::http::edge::context::pick;
use actors::catalogue::Snapshot;
use actors::domain::cart::item::flavour_slots;
use actors::domain::catalogue::{
    ComboRound, EffectiveRule, FlavorOption, Ingredient, PastryOption, Product, SizeOption,
    StyleGroup,
};
use actors::domain::lang::Lang;
use actors::domain::stores::store_board::StoreLive;
use serde::Serialize;
use utoipa::ToSchema;

/// A product as the menu and search list it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductCardDto {
    pub product_code: String,
    pub category_code: String,
    pub product_name: String,
    #[serde(rename = "productNameEN")]
    pub product_name_en: String,
    #[serde(rename = "productNameCN")]
    pub product_name_cn: String,
    pub description: String,
    #[serde(rename = "descriptionEN")]
    pub description_en: String,
    /// Yuan: the default size and crust, or the single price.
    pub selling_price: f64,
    pub min_sale: u32,
    #[serde(rename = "imageURL1")]
    pub image_url1: String,
    #[serde(rename = "imageURL2")]
    pub image_url2: Option<String>,
    /// 0 single, 1 pizza or multi-flavour, 2 combo, 7 juice, 9 two-flavour.
    pub product_type: u8,
    pub product_sub_type: u8,
    pub recommend_type: u8,
    pub sort: i32,
    /// Sold out at this store (the store's "86" list).
    pub sold_out: bool,
}

impl ProductCardDto {
    pub fn new(p: &Product, lang: Lang, sold_out: bool) -> ProductCardDto {
        ProductCardDto {
            product_code: p.product_code.clone(),
            category_code: p.category_code.clone(),
            product_name: pick(&p.name, lang),
            product_name_en: p.name.en.clone(),
            product_name_cn: p.name.cn.clone(),
            description: pick(&p.description, lang),
            description_en: p.description.en.clone(),
            selling_price: p.selling_price.yuan(),
            min_sale: p.min_sale.max(1),
            image_url1: p.image_url1.clone(),
            image_url2: p.image_url2.clone(),
            product_type: p.product_type,
            product_sub_type: p.product_sub_type,
            recommend_type: p.recommend_type,
            sort: p.sort,
            sold_out,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SizeDto {
    pub size_code: String,
    pub size_name: String,
    #[serde(rename = "sizeNameEN")]
    pub size_name_en: String,
    pub price: f64,
    pub is_default: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PastryDto {
    pub pastry_code: String,
    pub pastry_name: String,
    #[serde(rename = "pastryNameEN")]
    pub pastry_name_en: String,
    pub extra_price: f64,
    /// Sizes this crust exists in; empty means all.
    pub size_codes: Vec<String>,
    pub is_default: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SizePriceDto {
    pub size_code: String,
    pub price: f64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FlavorDto {
    pub flavor_code: String,
    pub flavor_name: String,
    #[serde(rename = "flavorNameEN")]
    pub flavor_name_en: String,
    #[serde(rename = "imageURL")]
    pub image_url: String,
    pub prices: Vec<SizePriceDto>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IngredientDto {
    pub code: String,
    pub name: String,
    #[serde(rename = "nameEN")]
    pub name_en: String,
    pub price: f64,
    pub is_default: bool,
    pub max_quantity: u32,
    /// 86ed at this store (issue 22). Only base toppings are listed so: the builder shows them
    /// taken off; sold-out sauces, extras and flavours are left out of their lists.
    pub sold_out: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ComboChoiceDto {
    pub product_code: String,
    pub product_name: String,
    #[serde(rename = "productNameEN")]
    pub product_name_en: String,
    #[serde(rename = "imageURL1")]
    pub image_url1: String,
    pub add_price: f64,
    pub is_default: bool,
    pub size_code: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ComboRoundDto {
    pub round_code: String,
    pub round_name: String,
    #[serde(rename = "roundNameEN")]
    pub round_name_en: String,
    pub choose_num: u32,
    pub choices: Vec<ComboChoiceDto>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StyleGroupDto {
    pub title: String,
    pub title_en: String,
    pub show_type: u8,
    pub hidden: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StyleOptionDto {
    pub size: Option<StyleGroupDto>,
    pub pastry: Option<StyleGroupDto>,
    pub sauces: Option<StyleGroupDto>,
    pub spec1: Option<StyleGroupDto>,
    pub spec2: Option<StyleGroupDto>,
}

/// How many options of each group the product page shows before "more" (default 4 each).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DetailPageShowNumDto {
    pub size: u32,
    pub pastry: u32,
    pub sauces: u32,
    pub spec1: u32,
    pub spec2: u32,
}

/// Product detail: the card plus everything the builder needs.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductDetailDto {
    #[serde(flatten)]
    pub card: ProductCardDto,
    /// Semicolon separated.
    #[serde(rename = "detailImageURLs")]
    pub detail_image_urls: String,
    pub size_list: Vec<SizeDto>,
    pub pastry_list: Vec<PastryDto>,
    pub flavor_list: Vec<FlavorDto>,
    pub flavor_count: u32,
    pub sauce_list: Vec<IngredientDto>,
    pub base_ingredient_list: Vec<IngredientDto>,
    pub additional_ingredient_list: Vec<IngredientDto>,
    pub combo_rounds: Vec<ComboRoundDto>,
    pub style_option: Option<StyleOptionDto>,
    pub detail_page_show_num: DetailPageShowNumDto,
    #[schema(value_type = Option<Object>)]
    pub effective_rule: Option<EffectiveRule>,
}

impl ProductDetailDto {
    /// `live`: the store's board. An 86ed flavour, sauce or extra topping is left out of its
    /// list, a base topping is marked sold out, and a product that cannot be made any more
    /// (its own 86, or fewer flavours left than it needs) is sold out (issue 22).
    pub fn new(p: &Product, snapshot: &Snapshot, lang: Lang, live: &StoreLive) -> ProductDetailDto {
        let show = p.detail_page_show_num.max(1);
        let sold_out = product_sold_out(p, live);
        let available = |i: &&Ingredient| !live.ingredient_out(&i.code);
        ProductDetailDto {
            card: ProductCardDto::new(p, lang, sold_out),
            detail_image_urls: p.detail_image_urls.join(";"),
            size_list: p.sizes.iter().map(|s| size_dto(s, lang)).collect(),
            pastry_list: p.pastries.iter().map(|c| pastry_dto(c, lang)).collect(),
            flavor_list: p
                .flavors
                .iter()
                .filter(|f| !live.flavor_out(&f.flavor_code))
                .map(|f| flavor_dto(f, lang))
                .collect(),
            flavor_count: p.flavor_count,
            sauce_list: sauces_left(p, lang, live),
            base_ingredient_list: p
                .base_ingredients
                .iter()
                .map(|i| ingredient_dto(i, lang, live.ingredient_out(&i.code)))
                .collect(),
            additional_ingredient_list: p
                .extra_ingredients
                .iter()
                .filter(available)
                .map(|i| ingredient_dto(i, lang, false))
                .collect(),
            combo_rounds: p
                .combo_rounds
                .iter()
                .map(|r| round_dto(r, snapshot, lang))
                .collect(),
            style_option: p.style_option.as_ref().map(|s| StyleOptionDto {
                size: s.size.as_ref().map(style_dto),
                pastry: s.pastry.as_ref().map(style_dto),
                sauces: s.sauces.as_ref().map(style_dto),
                spec1: s.spec1.as_ref().map(style_dto),
                spec2: s.spec2.as_ref().map(style_dto),
            }),
            detail_page_show_num: DetailPageShowNumDto {
                size: show,
                pastry: show,
                sauces: show,
                spec1: show,
                spec2: show,
            },
            effective_rule: p.effective_rule.clone(),
        }
    }
}

fn size_dto(s: &SizeOption, lang: Lang) -> SizeDto {
    SizeDto {
        size_code: s.size_code.clone(),
        size_name: pick(&s.name, lang),
        size_name_en: s.name.en.clone(),
        price: s.price.yuan(),
        is_default: s.is_default,
    }
}

fn pastry_dto(c: &PastryOption, lang: Lang) -> PastryDto {
    PastryDto {
        pastry_code: c.pastry_code.clone(),
        pastry_name: pick(&c.name, lang),
        pastry_name_en: c.name.en.clone(),
        extra_price: c.extra_price.yuan(),
        size_codes: c.size_codes.clone(),
        is_default: c.is_default,
    }
}

fn flavor_dto(f: &FlavorOption, lang: Lang) -> FlavorDto {
    FlavorDto {
        flavor_code: f.flavor_code.clone(),
        flavor_name: pick(&f.name, lang),
        flavor_name_en: f.name.en.clone(),
        image_url: f.image_url.clone(),
        prices: f
            .prices
            .iter()
            .map(|p| SizePriceDto {
                size_code: p.size_code.clone(),
                price: p.price.yuan(),
            })
            .collect(),
    }
}

fn ingredient_dto(i: &Ingredient, lang: Lang, sold_out: bool) -> IngredientDto {
    IngredientDto {
        code: i.code.clone(),
        name: pick(&i.name, lang),
        name_en: i.name.en.clone(),
        price: i.price.yuan(),
        is_default: i.is_default,
        max_quantity: i.max_quantity.max(1),
        sold_out,
    }
}

/// The sauces not 86ed; when the default one is, the first one left becomes the default (what
/// the builder preselects and the server assumes for a selection without one).
fn sauces_left(p: &Product, lang: Lang, live: &StoreLive) -> Vec<IngredientDto> {
    let mut left: Vec<IngredientDto> = p
        .sauces
        .iter()
        .filter(|i| !live.ingredient_out(&i.code))
        .map(|i| ingredient_dto(i, lang, false))
        .collect();
    let had_default = p.sauces.iter().any(|s| s.is_default);
    if had_default && !left.iter().any(|s| s.is_default) {
        if let Some(first) = left.first_mut() {
            first.is_default = true;
        }
    }
    left
}

/// Whether a product cannot be ordered at all at a store now: 86ed itself, or a multi-flavour
/// or half-and-half pizza with fewer flavours left than it needs (issue 22). One 86ed topping
/// or sauce does not: the customer orders without it.
pub fn product_sold_out(p: &Product, live: &StoreLive) -> bool {
    if live.is_sold_out(&p.product_code) {
        return true;
    }
    let needed = flavour_slots(p);
    needed > 0
        && p.flavors
            .iter()
            .filter(|f| !live.flavor_out(&f.flavor_code))
            .count()
            < needed
}

fn round_dto(r: &ComboRound, snapshot: &Snapshot, lang: Lang) -> ComboRoundDto {
    ComboRoundDto {
        round_code: r.round_code.clone(),
        round_name: pick(&r.name, lang),
        round_name_en: r.name.en.clone(),
        choose_num: r.choose_num,
        choices: r
            .choices
            .iter()
            .filter_map(|c| {
                // A choice naming a product the catalogue no longer has is dropped, not shown broken.
                let p = snapshot.product(&c.product_code)?;
                Some(ComboChoiceDto {
                    product_code: c.product_code.clone(),
                    product_name: pick(&p.name, lang),
                    product_name_en: p.name.en.clone(),
                    image_url1: p.image_url1.clone(),
                    add_price: c.add_price.yuan(),
                    is_default: c.is_default,
                    size_code: c.size_code.clone(),
                })
            })
            .collect(),
    }
}

fn style_dto(s: &StyleGroup) -> StyleGroupDto {
    StyleGroupDto {
        title: s.title.clone(),
        title_en: s.title_en.clone(),
        show_type: s.show_type,
        hidden: s.hidden,
    }
}
