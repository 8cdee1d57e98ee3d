//! The maps provider's answers as the document describes them. The provider's types live in
//! the actors crate, which knows nothing of OpenAPI; these mirror them for the schema only, and
//! the test below keeps the two in step.

use serde::Serialize;
use utoipa::ToSchema;

/// A point, longitude first (GCJ-02).
#[derive(Serialize, ToSchema)]
#[schema(as = LngLat)]
pub struct LngLatDoc {
    pub lng: f64,
    pub lat: f64,
}

/// How a location was obtained.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = LocationType)]
#[allow(dead_code)]
pub enum LocationTypeDoc {
    Gps,
    Ip,
    DefaultStore,
    Address,
}

/// A point of interest: a landmark, a store, a district, or what the web service knows.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Poi)]
#[allow(dead_code)]
pub struct PoiDoc {
    pub id: String,
    pub name: String,
    pub address: String,
    pub point: LngLatDoc,
    pub city_code: String,
    pub city: String,
    pub district: String,
    /// "landmark", "store", "district", or the web service's type text.
    pub kind: String,
    /// Metres from the reverse-geocoded point; in nearby lists only.
    pub distance_m: Option<f64>,
}

/// Where a point or an IP address is, with the points of interest near it (at most 20).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = LocationInfo)]
#[allow(dead_code)]
pub struct LocationDoc {
    pub point: LngLatDoc,
    pub name: String,
    pub city: String,
    /// The city's 6-digit adcode (310100, 110100, 440300).
    pub city_code: String,
    pub district: String,
    pub district_code: String,
    pub province: String,
    pub street: String,
    pub street_number: String,
    pub address: String,
    pub location_type: LocationTypeDoc,
    pub show_name: String,
    pub pois: Vec<PoiDoc>,
}

/// One page of places, `page` from 1, 15 a page, `total` matches overall.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = PoiPage)]
#[allow(dead_code)]
pub struct PoiPageDoc {
    pub items: Vec<PoiDoc>,
    pub page: u32,
    pub page_size: u32,
    pub total: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use actors::domain::catalogue::LngLat;
    use actors::providers::maps::{LocationInfo, LocationType, Page, Poi};
    use serde_json::{json, Value};
    use utoipa::PartialSchema;

    /// The property names a schema declares, and those it requires.
    fn declared<T: PartialSchema>() -> (Vec<String>, Vec<String>) {
        let schema = serde_json::to_value(T::schema()).unwrap_or_default();
        let mut props: Vec<String> = schema["properties"]
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        let mut required: Vec<String> = schema["required"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        props.sort();
        required.sort();
        (props, required)
    }

    fn keys(value: &Value) -> Vec<String> {
        let mut keys: Vec<String> = value
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        keys.sort();
        keys
    }

    fn poi(distance_m: Option<f64>) -> Poi {
        Poi {
            id: "p1".into(),
            name: "人民广场".into(),
            address: "黄浦区".into(),
            point: LngLat {
                lng: 121.47,
                lat: 31.23,
            },
            city_code: "310100".into(),
            city: "上海市".into(),
            district: "黄浦区".into(),
            kind: "landmark".into(),
            distance_m,
        }
    }

    #[test]
    fn the_mirrors_declare_what_the_provider_types_serialize() {
        let with_distance = serde_json::to_value(poi(Some(12.5))).unwrap_or_default();
        let without = serde_json::to_value(poi(None)).unwrap_or_default();
        let (props, required) = declared::<PoiDoc>();
        assert_eq!(props, keys(&with_distance));
        assert_eq!(required, keys(&without), "only distanceM may be left out");

        let mut info = LocationInfo::new(
            LngLat {
                lng: 121.47,
                lat: 31.23,
            },
            LocationType::DefaultStore,
        );
        info.pois.push(poi(None));
        let info = serde_json::to_value(&info).unwrap_or_default();
        let (props, required) = declared::<LocationDoc>();
        assert_eq!(props, keys(&info));
        assert_eq!(required, keys(&info));
        assert_eq!(info["locationType"], json!("defaultStore"));
        assert_eq!(keys(&info["point"]), declared::<LngLatDoc>().0);

        let page = serde_json::to_value(Page {
            items: vec![poi(None)],
            page: 1,
            page_size: 15,
            total: 1,
        })
        .unwrap_or_default();
        assert_eq!(declared::<PoiPageDoc>().0, keys(&page));
    }

    #[test]
    fn every_location_type_is_listed() {
        let schema = serde_json::to_value(LocationTypeDoc::schema()).unwrap_or_default();
        for t in [
            LocationType::Gps,
            LocationType::Ip,
            LocationType::DefaultStore,
            LocationType::Address,
        ] {
            let name = serde_json::to_value(t).unwrap_or_default();
            assert!(
                schema["enum"].as_array().is_some_and(|e| e.contains(&name)),
                "{name} missing from {schema}"
            );
        }
    }
}
