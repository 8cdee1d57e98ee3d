use crate::http::edge::context::pick;
use actors::domain::catalogue::{City, District};
use actors::domain::lang::Lang;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CityDto {
    pub city_code: String,
    pub city_name: String,
    #[serde(rename = "cityNameCN")]
    pub city_name_cn: String,
    #[serde(rename = "cityNameEN")]
    pub city_name_en: String,
    /// Upper-case first letter of the English name, for the A–Z picker.
    pub city_char_at0: String,
    pub lat: f64,
    pub lng: f64,
    pub delivery_display: bool,
    pub hot: bool,
}

impl CityDto {
    pub fn new(city: &City, lang: Lang) -> CityDto {
        CityDto {
            city_code: city.city_code.clone(),
            city_name: pick(&city.name, lang),
            city_name_cn: city.name.cn.clone(),
            city_name_en: city.name.en.clone(),
            city_char_at0: city_char_at0(&city.name.en),
            lat: city.lat,
            lng: city.lng,
            delivery_display: city.delivery_display,
            hot: city.hot,
        }
    }
}

pub fn city_char_at0(name_en: &str) -> String {
    name_en
        .chars()
        .find(|c| c.is_alphabetic())
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_else(|| "#".into())
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DistrictDto {
    pub city_code: String,
    pub district_code: String,
    /// In the request's language.
    pub district_name: String,
    #[serde(rename = "districtNameCN")]
    pub district_name_cn: String,
    #[serde(rename = "districtNameEN")]
    pub district_name_en: String,
}

impl DistrictDto {
    pub fn new(district: &District, lang: Lang) -> DistrictDto {
        DistrictDto {
            city_code: district.city_code.clone(),
            district_code: district.district_code.clone(),
            district_name: pick(&district.name, lang),
            district_name_cn: district.name.cn.clone(),
            district_name_en: district.name.en.clone(),
        }
    }

    /// The optional first entry that means "the whole city" (spec: 全部).
    pub fn all(city_code: &str, lang: Lang) -> DistrictDto {
        DistrictDto {
            city_code: city_code.to_string(),
            district_code: String::new(),
            district_name: match lang {
                Lang::Zh => "全部".into(),
                Lang::En => "All".into(),
            },
            district_name_cn: "全部".into(),
            district_name_en: "All".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn city_char_is_the_first_letter_upper_cased() {
        let cases = [
            ("Shanghai", "S"),
            ("beijing", "B"),
            (" 'Xi'an", "X"),
            ("", "#"),
            ("123", "#"),
        ];
        for (name, want) in cases {
            assert_eq!(city_char_at0(name), want, "{name:?}");
        }
    }
}
