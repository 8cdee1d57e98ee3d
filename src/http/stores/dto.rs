use crate::http::edge::context::pick;
use actors::catalogue::Snapshot;
use actors::domain::catalogue::{
    Bilingual, ExclusionDay, LngLat, ServiceNotice, Store, StoreStatus, TimeWindow,
    VIRTUAL_STORE_CODE,
};
use actors::domain::geo;
use actors::domain::lang::Lang;
use actors::domain::stores::{hours, store_rules};
use chrono::{DateTime, FixedOffset};
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PointDto {
    pub lng: f64,
    pub lat: f64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimeWindowDto {
    pub start: String,
    pub end: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ServiceNoticeDto {
    pub content: String,
    /// 1 confirm dialog, 2 toast.
    pub pop_up_model: u8,
    pub left_btn: Option<String>,
    pub right_btn: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExclusionDayDto {
    pub start_date: String,
    pub end_date: String,
    pub start_time: String,
    pub end_time: String,
}

/// A store as every store endpoint answers it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StoreDto {
    pub store_code: String,
    pub store_name: String,
    #[serde(rename = "storeNameCN")]
    pub store_name_cn: String,
    #[serde(rename = "storeNameEN")]
    pub store_name_en: String,
    pub store_address: String,
    #[serde(rename = "storeAddressCN")]
    pub store_address_cn: String,
    #[serde(rename = "storeAddressEN")]
    pub store_address_en: String,
    pub lat: f64,
    pub lng: f64,
    pub point: PointDto,
    /// Whether the asked point is inside the delivery area; null when no point was asked.
    pub in_range: Option<bool>,
    /// Kilometres from the asked point, 3 decimals, trailing zeros trimmed.
    pub distance: Option<String>,
    /// The delivery polygon as [lng, lat] pairs.
    pub area_points: Vec<[f64; 2]>,
    /// open, busy or closed (temporarily, see stopStoreNotice).
    #[schema(value_type = actors::domain::catalogue::StoreStatus)]
    pub status: String,
    /// Open right now: not closed and inside its business hours (China time).
    pub is_open: bool,
    /// Inside its business hours right now, whatever its staff's status: with a live status
    /// change (`store:update`) the app knows whether the store is open again.
    pub within_hours: bool,
    pub store_tel: String,
    pub standby_tel: Option<String>,
    pub city_code: String,
    pub city_name: String,
    #[serde(rename = "cityNameEN")]
    pub city_name_en: String,
    #[serde(rename = "cityNameCN")]
    pub city_name_cn: String,
    pub district_code: String,
    pub district_name: String,
    #[serde(rename = "districtNameEN")]
    pub district_name_en: String,
    pub group_code: String,
    pub delivery_time: u32,
    pub estimate_time: u32,
    pub business_time_zones: Vec<TimeWindowDto>,
    pub business_hours: String,
    pub business_hour_list_text: String,
    /// Sorted: 0 delivery, 1 pickup, 2 dine-in.
    pub service_methods: Vec<u8>,
    pub service_notice: Option<ServiceNoticeDto>,
    pub business_notice: Option<String>,
    pub stop_store_notice: Option<String>,
    pub book_enable: bool,
    pub book_days: u32,
    pub default_book_time: Option<String>,
    pub exclusion_day_list: Vec<ExclusionDayDto>,
    /// Yuan.
    pub delivery_fee: f64,
    /// Yuan; 0 means delivery is never free.
    pub free_delivery_threshold: f64,
    /// Yuan: delivery orders start at this product total (起送); 0: no minimum.
    pub min_delivery_amount: f64,
    /// The virtual default store 88888: never to be saved as a selection.
    pub is_virtual: bool,
}

impl StoreDto {
    /// `from`: the point the customer asked about (GCJ-02), for distance and in-range.
    pub fn new(
        store: &Store,
        snapshot: &Snapshot,
        lang: Lang,
        now: DateTime<FixedOffset>,
        from: Option<LngLat>,
    ) -> StoreDto {
        let city = snapshot.city(&store.city_code);
        let district = snapshot.district(&store.district_code);
        let empty = Bilingual::default();
        let city_name = city.map(|c| &c.name).unwrap_or(&empty);
        let district_name = district.map(|d| &d.name).unwrap_or(&empty);
        let windows = hours::effective_hours(store);
        let here = LngLat {
            lng: store.lng,
            lat: store.lat,
        };
        StoreDto {
            store_code: store.store_code.clone(),
            store_name: pick(&store.name, lang),
            store_name_cn: store.name.cn.clone(),
            store_name_en: store.name.en.clone(),
            store_address: pick(&store.address, lang),
            store_address_cn: store.address.cn.clone(),
            store_address_en: store.address.en.clone(),
            lat: store.lat,
            lng: store.lng,
            point: PointDto {
                lng: store.lng,
                lat: store.lat,
            },
            in_range: from.map(|p| store_rules::delivers_to(store, p)),
            distance: from.map(|p| geo::format_distance_km(geo::distance_km(p, here))),
            area_points: store.delivery_area.iter().map(|p| [p.lng, p.lat]).collect(),
            status: status_text(store.status).into(),
            is_open: hours::is_open_at(store, now),
            within_hours: hours::within_windows(
                &windows,
                now.with_timezone(&hours::china_offset()).time(),
            ),
            store_tel: store.store_tel.clone(),
            standby_tel: store.standby_tel.clone(),
            city_code: store.city_code.clone(),
            city_name: pick(city_name, lang),
            city_name_en: city_name.en.clone(),
            city_name_cn: city_name.cn.clone(),
            district_code: store.district_code.clone(),
            district_name: pick(district_name, lang),
            district_name_en: district_name.en.clone(),
            group_code: store.group_code.clone(),
            delivery_time: store.delivery_time,
            estimate_time: store.estimate_time,
            business_hours: windows
                .iter()
                .map(|w| format!("{}-{}", w.start, w.end))
                .collect::<Vec<_>>()
                .join(","),
            business_hour_list_text: hours::business_hour_text(&windows),
            business_time_zones: windows.iter().map(window_dto).collect(),
            service_methods: store_rules::normalized_service_methods(&store.service_methods),
            service_notice: store.service_notice.as_ref().map(|n| notice_dto(n, lang)),
            business_notice: store.business_notice.as_ref().map(|n| pick(n, lang)),
            stop_store_notice: store.stop_store_notice.as_ref().map(|n| pick(n, lang)),
            book_enable: store.book_enable,
            book_days: store.book_days,
            default_book_time: store.default_book_time.clone(),
            exclusion_day_list: store.exclusion_day_list.iter().map(exclusion_dto).collect(),
            delivery_fee: store.delivery_fee.yuan(),
            free_delivery_threshold: store.free_delivery_threshold.yuan(),
            min_delivery_amount: store.min_delivery_amount.yuan(),
            is_virtual: store.store_code == VIRTUAL_STORE_CODE,
        }
    }
}

fn status_text(status: StoreStatus) -> &'static str {
    match status {
        StoreStatus::Open => "open",
        StoreStatus::Busy => "busy",
        StoreStatus::Closed => "closed",
    }
}

fn window_dto(w: &TimeWindow) -> TimeWindowDto {
    TimeWindowDto {
        start: w.start.clone(),
        end: w.end.clone(),
    }
}

fn notice_dto(n: &ServiceNotice, lang: Lang) -> ServiceNoticeDto {
    ServiceNoticeDto {
        content: pick(&n.content, lang),
        pop_up_model: n.pop_up_model,
        left_btn: n.left_btn.as_ref().map(|b| pick(b, lang)),
        right_btn: n.right_btn.as_ref().map(|b| pick(b, lang)),
    }
}

fn exclusion_dto(e: &ExclusionDay) -> ExclusionDayDto {
    ExclusionDayDto {
        start_date: e.start_date.clone(),
        end_date: e.end_date.clone(),
        start_time: e.start_time.clone(),
        end_time: e.end_time.clone(),
    }
}
