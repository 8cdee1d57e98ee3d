//! An AMap-style web service client (restapi.amap.com, API v3): IP location (`/v3/ip`),
//! reverse geocode (`/v3/geocode/regeo`), geocode (`/v3/geocode/geo`), place text search
//! (`/v3/place/text`, 15 a page) and input tips (`/v3/assistant/inputtips`, city limit).
//!
//! Replies carry `status` "1" (ok) or "0" with `info` and `infocode`; empty fields come as
//! `[]` rather than "". Network errors, timeouts (5 s by default), HTTP errors, unreadable
//! replies and refusals other than bad parameters are `Unavailable`; bad parameters
//! (infocode 20000, 20001) are `BadInput`. The key never appears in errors or logs.
//!
//! The v3 service answers in Chinese whatever the language asked; the IP lookup is IPv4 only,
//! so private and IPv6 addresses are `NotFound` without a call (the fallback answers them).

use actors::domain::catalogue::LngLat;
use actors::domain::geo;
use actors::domain::lang::Lang;
use actors::providers::maps::{
    LocationInfo, LocationType, MapsError, MapsProvider, Page, Poi, MAX_NEARBY_POIS,
    NEARBY_RADIUS_M, PAGE_SIZE,
};
use async_trait::async_trait;
use serde::Deserialize;
use serde_json::Value;
use std::fmt;
use std::net::IpAddr;
use std::time::Duration;

pub const DEFAULT_BASE_URL: &str = "https://restapi.amap.com";
pub const DEFAULT_TIMEOUT_MS: u64 = 5_000;

fn default_base_url() -> String {
    DEFAULT_BASE_URL.into()
}
fn default_timeout_ms() -> u64 {
    DEFAULT_TIMEOUT_MS
}

/// Where the web service is and the key to call it with.
#[derive(Clone, Deserialize)]
pub struct AmapConfig {
    #[serde(default = "default_base_url")]
    pub base_url: String,
    pub key: String,
    /// Per request, connect to last byte.
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
}

impl AmapConfig {
    pub fn new(base_url: impl Into<String>, key: impl Into<String>) -> AmapConfig {
        AmapConfig {
            base_url: base_url.into(),
            key: key.into(),
            timeout_ms: DEFAULT_TIMEOUT_MS,
        }
    }
}

impl fmt::Debug for AmapConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AmapConfig")
            .field("base_url", &self.base_url)
            .field("key", &"***")
            .field("timeout_ms", &self.timeout_ms)
            .finish()
    }
}

#[derive(Clone)]
pub struct AmapClient {
    http: reqwest::Client,
    base_url: String,
    key: String,
}

impl fmt::Debug for AmapClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AmapClient")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

impl AmapClient {
    pub fn new(config: &AmapConfig) -> Result<AmapClient, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_millis(config.timeout_ms))
            .build()?;
        Ok(AmapClient {
            http,
            base_url: config.base_url.trim_end_matches('/').to_string(),
            key: config.key.clone(),
        })
    }

    /// One GET; the JSON body of a status "1" reply.
    async fn call(&self, path: &str, params: &[(&str, &str)]) -> Result<Value, MapsError> {
        let url = format!("{}{path}", self.base_url);
        let response = self
            .http
            .get(&url)
            .query(&[("key", self.key.as_str()), ("output", "JSON")])
            .query(params)
            .send()
            .await
            .map_err(network_error)?;
        let status = response.status();
        if !status.is_success() {
            return Err(MapsError::Unavailable(format!("{path}: HTTP {status}")));
        }
        let body: Value = response.json().await.map_err(|e| {
            if e.is_timeout() {
                network_error(e)
            } else {
                MapsError::Unavailable(format!("{path}: unreadable reply"))
            }
        })?;
        check_status(path, body)
    }
}

fn network_error(e: reqwest::Error) -> MapsError {
    let e = e.without_url();
    if e.is_timeout() {
        MapsError::Unavailable(format!("timeout: {e}"))
    } else {
        MapsError::Unavailable(e.to_string())
    }
}

fn check_status(path: &str, body: Value) -> Result<Value, MapsError> {
    if text(&body["status"]) == "1" {
        return Ok(body);
    }
    let info = text(&body["info"]);
    let code = text(&body["infocode"]);
    match code.as_str() {
        // INVALID_PARAMS, MISSING_REQUIRED_PARAMS
        "20000" | "20001" => Err(MapsError::BadInput(info)),
        _ => Err(MapsError::Unavailable(format!("{path}: {info} ({code})"))),
    }
}

/// A text field: strings trimmed, numbers as written; `[]`, null and objects are empty.
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

/// "lng,lat".
fn parse_point(s: &str) -> Option<LngLat> {
    let (lng, lat) = s.split_once(',')?;
    let p = LngLat {
        lng: lng.trim().parse().ok()?,
        lat: lat.trim().parse().ok()?,
    };
    (p.lng.is_finite() && p.lat.is_finite()).then_some(p)
}

fn format_point(p: LngLat) -> String {
    format!("{:.6},{:.6}", p.lng, p.lat)
}

/// Our city code (the city's adcode) from any 6-digit adcode: 440305 → 440300; a
/// municipality's 110105 or 110000 → 110100.
pub fn city_code_of(adcode: &str) -> String {
    if adcode.len() != 6 || !adcode.bytes().all(|b| b.is_ascii_digit()) {
        return String::new();
    }
    if super::landmarks::is_municipality(adcode) {
        format!("{}0100", &adcode[..2])
    } else {
        format!("{}00", &adcode[..4])
    }
}

/// "广东省深圳市南山区" → ("广东省", "深圳市", "南山区"); "上海市黄浦区" → ("", "上海市", "黄浦区").
fn split_region(s: &str) -> (String, String, String) {
    let mut rest = s.trim();
    let mut province = "";
    for suffix in ["特别行政区", "自治区", "省"] {
        if let Some(i) = rest.find(suffix) {
            let end = i + suffix.len();
            province = &rest[..end];
            rest = &rest[end..];
            break;
        }
    }
    let mut city = "";
    for suffix in ["自治州", "地区", "市", "盟", "州"] {
        if let Some(i) = rest.find(suffix) {
            let end = i + suffix.len();
            city = &rest[..end];
            rest = &rest[end..];
            break;
        }
    }
    (province.into(), city.into(), rest.into())
}

/// The first part of an AMap type text ("餐饮服务;中餐厅;…").
fn kind_of(v: &Value) -> String {
    text(v).split(';').next().unwrap_or_default().to_string()
}

fn items(v: &Value) -> &[Value] {
    v.as_array().map(Vec::as_slice).unwrap_or_default()
}

/// A place search or regeo POI. None without a usable point.
fn place_poi(v: &Value, fallback_city: &str, fallback_district: &str, adcode: &str) -> Option<Poi> {
    let point = parse_point(&text(&v["location"]))?;
    let own_adcode = text(&v["adcode"]);
    let adcode = if own_adcode.is_empty() {
        adcode.to_string()
    } else {
        own_adcode
    };
    let city = Some(text(&v["cityname"]))
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| fallback_city.to_string());
    let district = Some(text(&v["adname"]))
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| fallback_district.to_string());
    Some(Poi {
        id: text(&v["id"]),
        name: text(&v["name"]),
        address: text(&v["address"]),
        point,
        city_code: city_code_of(&adcode),
        city,
        district,
        kind: kind_of(&v["type"]),
        distance_m: text(&v["distance"]).parse().ok(),
    })
}

fn join_region(province: &str, city: &str) -> String {
    if province == city {
        city.to_string()
    } else {
        format!("{province}{city}")
    }
}

fn parse_ip(body: &Value) -> Result<LocationInfo, MapsError> {
    let province = text(&body["province"]);
    let city = Some(text(&body["city"]))
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| province.clone());
    let rectangle = text(&body["rectangle"]);
    if province.is_empty() || province == "局域网" {
        return Err(MapsError::NotFound);
    }
    let (a, b) = rectangle.split_once(';').ok_or(MapsError::NotFound)?;
    let (a, b) = (
        parse_point(a).ok_or(MapsError::NotFound)?,
        parse_point(b).ok_or(MapsError::NotFound)?,
    );
    let centre = LngLat {
        lng: (a.lng + b.lng) / 2.0,
        lat: (a.lat + b.lat) / 2.0,
    };
    let mut info = LocationInfo::new(centre, LocationType::Ip);
    info.city_code = city_code_of(&text(&body["adcode"]));
    info.address = join_region(&province, &city);
    info.province = province;
    info.name = city.clone();
    info.show_name = city.clone();
    info.city = city;
    Ok(info)
}

fn parse_regeo(p: LngLat, body: &Value) -> Result<LocationInfo, MapsError> {
    let r = &body["regeocode"];
    let ac = &r["addressComponent"];
    let formatted = text(&r["formatted_address"]);
    let country = text(&ac["country"]);
    if formatted.is_empty() || (!country.is_empty() && country != "中国") {
        return Err(MapsError::NotFound);
    }
    let province = text(&ac["province"]);
    let city = Some(text(&ac["city"]))
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| province.clone());
    let district = text(&ac["district"]);
    let adcode = text(&ac["adcode"]);

    let mut pois: Vec<Poi> = items(&r["pois"])
        .iter()
        .filter_map(|v| place_poi(v, &city, &district, &adcode))
        .filter(|poi| poi.distance_m.is_none_or(|d| d <= NEARBY_RADIUS_M))
        .collect();
    pois.sort_by(|a, b| {
        a.distance_m
            .unwrap_or(f64::MAX)
            .total_cmp(&b.distance_m.unwrap_or(f64::MAX))
    });
    pois.truncate(MAX_NEARBY_POIS);

    let aoi = items(&r["aois"]).first().map(|a| text(&a["name"]));
    let name = aoi
        .filter(|n| !n.is_empty())
        .or_else(|| pois.first().map(|poi| poi.name.clone()))
        .unwrap_or_else(|| formatted.clone());

    let mut info = LocationInfo::new(p, LocationType::Gps);
    info.show_name = name.clone();
    info.name = name;
    info.city_code = city_code_of(&adcode);
    info.district_code = adcode;
    info.city = city;
    info.district = district;
    info.province = province;
    info.street = text(&ac["streetNumber"]["street"]);
    info.street_number = text(&ac["streetNumber"]["number"]);
    info.address = formatted;
    info.pois = pois;
    Ok(info)
}

fn parse_geocodes(body: &Value) -> Vec<Poi> {
    items(&body["geocodes"])
        .iter()
        .filter_map(|g| {
            let location = text(&g["location"]);
            let point = parse_point(&location)?;
            let province = text(&g["province"]);
            let city = Some(text(&g["city"]))
                .filter(|c| !c.is_empty())
                .unwrap_or(province);
            let formatted = text(&g["formatted_address"]);
            Some(Poi {
                id: format!("geo-{location}"),
                name: formatted.clone(),
                address: formatted,
                point,
                city_code: city_code_of(&text(&g["adcode"])),
                city,
                district: text(&g["district"]),
                kind: text(&g["level"]),
                distance_m: None,
            })
        })
        .take(PAGE_SIZE as usize)
        .collect()
}

fn parse_places(body: &Value, page: u32) -> Page<Poi> {
    let items: Vec<Poi> = items(&body["pois"])
        .iter()
        .filter_map(|v| place_poi(v, "", "", ""))
        .take(PAGE_SIZE as usize)
        .collect();
    Page {
        total: text(&body["count"]).parse().unwrap_or(0),
        items,
        page,
        page_size: PAGE_SIZE,
    }
}

/// Spec §5: suggestions without an address or a point (bus lines, bare keywords) are dropped.
fn parse_tips(body: &Value) -> Vec<Poi> {
    items(&body["tips"])
        .iter()
        .filter_map(|t| {
            let point = parse_point(&text(&t["location"]))?;
            let address = text(&t["address"]);
            if address.is_empty() {
                return None;
            }
            let (_, city, district) = split_region(&text(&t["district"]));
            Some(Poi {
                id: text(&t["id"]),
                name: text(&t["name"]),
                address,
                point,
                city_code: city_code_of(&text(&t["adcode"])),
                city,
                district,
                kind: text(&t["typecode"]),
                distance_m: None,
            })
        })
        .take(PAGE_SIZE as usize)
        .collect()
}

fn require_text(field: &str, value: &str) -> Result<String, MapsError> {
    let v = value.trim();
    if v.is_empty() {
        Err(MapsError::BadInput(format!("{field} is empty")))
    } else {
        Ok(v.to_string())
    }
}

/// A city filter: the city code or name, passed as AMap's `city` with `citylimit`.
fn city_params(city: Option<&str>) -> Vec<(&'static str, String)> {
    match city.map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) => vec![("city", c.to_string()), ("citylimit", "true".into())],
        None => Vec::new(),
    }
}

fn as_refs<'a>(params: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    params.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

#[async_trait]
impl MapsProvider for AmapClient {
    async fn ip_location(&self, ip: IpAddr, _lang: Lang) -> Result<LocationInfo, MapsError> {
        let v4 = match ip {
            IpAddr::V4(v4) => v4,
            IpAddr::V6(v6) => v6.to_ipv4_mapped().ok_or(MapsError::NotFound)?,
        };
        if v4.is_private()
            || v4.is_loopback()
            || v4.is_link_local()
            || v4.is_unspecified()
            || v4.is_broadcast()
            || v4.is_documentation()
        {
            return Err(MapsError::NotFound);
        }
        let ip = v4.to_string();
        let body = self.call("/v3/ip", &[("ip", ip.as_str())]).await?;
        parse_ip(&body)
    }

    async fn reverse_geocode(&self, p: LngLat, _lang: Lang) -> Result<LocationInfo, MapsError> {
        if !(p.lng.is_finite() && p.lat.is_finite()) {
            return Err(MapsError::BadInput("invalid point".into()));
        }
        if geo::out_of_china(p) {
            return Err(MapsError::NotFound);
        }
        let location = format_point(p);
        let radius = format!("{NEARBY_RADIUS_M:.0}");
        let body = self
            .call(
                "/v3/geocode/regeo",
                &[
                    ("location", location.as_str()),
                    ("radius", radius.as_str()),
                    ("extensions", "all"),
                    ("roadlevel", "0"),
                ],
            )
            .await?;
        parse_regeo(p, &body)
    }

    async fn geocode(
        &self,
        address: &str,
        city: Option<&str>,
        _lang: Lang,
    ) -> Result<Vec<Poi>, MapsError> {
        let address = require_text("address", address)?;
        let mut params = vec![("address", address)];
        if let Some(c) = city.map(str::trim).filter(|c| !c.is_empty()) {
            params.push(("city", c.to_string()));
        }
        let body = self.call("/v3/geocode/geo", &as_refs(&params)).await?;
        Ok(parse_geocodes(&body))
    }

    async fn place_search(
        &self,
        keyword: &str,
        city: Option<&str>,
        page: u32,
        _lang: Lang,
    ) -> Result<Page<Poi>, MapsError> {
        let page = page.max(1);
        let mut params = vec![
            ("keywords", require_text("keyword", keyword)?),
            ("offset", PAGE_SIZE.to_string()),
            ("page", page.to_string()),
            ("extensions", "base".into()),
        ];
        params.extend(city_params(city));
        let body = self.call("/v3/place/text", &as_refs(&params)).await?;
        Ok(parse_places(&body, page))
    }

    async fn input_tips(
        &self,
        keyword: &str,
        city: Option<&str>,
        _lang: Lang,
    ) -> Result<Vec<Poi>, MapsError> {
        let mut params = vec![
            ("keywords", require_text("keyword", keyword)?),
            ("datatype", "all".into()),
        ];
        params.extend(city_params(city));
        let body = self
            .call("/v3/assistant/inputtips", &as_refs(&params))
            .await?;
        Ok(parse_tips(&body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::dev::ServerHandle;
    use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
    use serde_json::json;
    use std::collections::HashMap;
    use std::sync::Mutex;

    type Log = web::Data<Mutex<Vec<String>>>;

    fn reply(req: &HttpRequest) -> Value {
        let q: HashMap<String, String> =
            web::Query::<HashMap<String, String>>::from_query(req.query_string())
                .map(web::Query::into_inner)
                .unwrap_or_default();
        let get = |k: &str| q.get(k).map(String::as_str).unwrap_or("");
        match get("key") {
            "bad" => return json!({"status": "0", "info": "INVALID_USER_KEY", "infocode": "10001"}),
            "bad-params" => {
                return json!({"status": "0", "info": "INVALID_PARAMS", "infocode": "20000"})
            }
            _ => {}
        }
        let path = req.path().trim_start_matches("/slow");
        match path {
            "/v3/ip" if get("ip") == "1.202.3.4" => json!({
                "status": "1", "info": "OK", "infocode": "10000",
                "province": "北京市", "city": "北京市", "adcode": "110000",
                "rectangle": "116.0119343,39.66127144;116.7829835,40.2164962"
            }),
            "/v3/ip" => json!({
                "status": "1", "info": "OK", "infocode": "10000",
                "province": [], "city": [], "adcode": [], "rectangle": []
            }),
            "/v3/geocode/regeo" if get("location").starts_with("121.") => json!({
                "status": "1", "info": "OK", "infocode": "10000",
                "regeocode": {
                    "formatted_address": "上海市黄浦区南京东路街道人民大道200号",
                    "addressComponent": {
                        "country": "中国", "province": "上海市", "city": [], "citycode": "021",
                        "district": "黄浦区", "adcode": "310101", "township": "南京东路街道",
                        "streetNumber": {"street": "人民大道", "number": "200号",
                                         "location": "121.475,31.229", "direction": "东", "distance": "20"}
                    },
                    "aois": [{"id": "B00155L3DK", "name": "人民广场", "adcode": "310101",
                              "location": "121.475164,31.228816", "area": "140000"}],
                    "pois": [
                        {"id": "B0FFG1", "name": "上海博物馆", "type": "科教文化服务;博物馆;博物馆",
                         "tel": [], "distance": "180.5", "location": "121.475,31.2283", "address": "人民大道201号"},
                        {"id": "B0FFG2", "name": "人民广场地铁站", "type": "交通设施服务;地铁站;地铁站",
                         "tel": [], "distance": "35", "location": "121.4752,31.2290", "address": []},
                        {"id": "B0FFG3", "name": "远处", "type": "x", "distance": "1500",
                         "location": "121.49,31.23", "address": "x"},
                        {"id": "B0FFG4", "name": "没有坐标", "type": "x", "distance": "10",
                         "location": [], "address": "x"}
                    ]
                }
            }),
            "/v3/geocode/regeo" => json!({
                "status": "1", "info": "OK", "infocode": "10000",
                "regeocode": {"formatted_address": [], "addressComponent": {"country": [], "province": []},
                              "pois": [], "roads": []}
            }),
            "/v3/geocode/geo" => json!({
                "status": "1", "info": "OK", "infocode": "10000", "count": "1",
                "geocodes": [{
                    "formatted_address": "广东省深圳市南山区深南大道9037号", "country": "中国",
                    "province": "广东省", "citycode": "0755", "city": "深圳市", "district": "南山区",
                    "township": [], "street": "深南大道", "number": "9037号", "adcode": "440305",
                    "location": "113.973480,22.536480", "level": "门牌号"
                }]
            }),
            "/v3/place/text" => json!({
                "status": "1", "info": "OK", "infocode": "10000", "count": "31",
                "pois": [
                    {"id": "B001", "name": "必胜客(人民广场店)", "type": "餐饮服务;快餐厅;必胜客",
                     "address": "西藏中路268号", "location": "121.4760,31.2300", "pcode": "310000",
                     "pname": "上海市", "citycode": "021", "cityname": "上海市", "adcode": "310101",
                     "adname": "黄浦区"},
                    {"id": "B002", "name": "披萨店", "type": "餐饮服务", "address": [],
                     "location": "121.4800,31.2310", "cityname": "上海市", "adcode": "310101",
                     "adname": "黄浦区"}
                ]
            }),
            "/v3/assistant/inputtips" => json!({
                "status": "1", "info": "OK", "infocode": "10000", "count": "3",
                "tips": [
                    {"id": "B00155L3DK", "name": "人民广场", "district": "上海市黄浦区", "adcode": "310101",
                     "location": "121.475164,31.228816", "address": "人民大道", "typecode": "110105"},
                    {"id": [], "name": "人民广场站公交", "district": "上海市黄浦区", "adcode": "310101",
                     "location": [], "address": [], "typecode": []},
                    {"id": "B0SZ", "name": "人民南路", "district": "广东省深圳市罗湖区", "adcode": "440303",
                     "location": "114.11,22.54", "address": [], "typecode": "190301"}
                ]
            }),
            _ => json!({"status": "0", "info": "UNKNOWN_ERROR", "infocode": "20003"}),
        }
    }

    async fn fake_amap(req: HttpRequest, log: Log) -> HttpResponse {
        if let Ok(mut log) = log.lock() {
            log.push(format!("{}?{}", req.path(), req.query_string()));
        }
        if req.path().starts_with("/slow") {
            actix_web::rt::time::sleep(Duration::from_secs(2)).await;
        }
        if req.path().starts_with("/broken") {
            return HttpResponse::InternalServerError().body("oops");
        }
        if req.path().starts_with("/html") {
            return HttpResponse::Ok().content_type("text/html").body("<html>");
        }
        HttpResponse::Ok().json(reply(&req))
    }

    struct Fake {
        url: String,
        log: Log,
        handle: ServerHandle,
    }

    impl Fake {
        async fn start() -> Fake {
            let Ok(listener) = std::net::TcpListener::bind("127.0.0.1:0") else {
                panic!("cannot bind");
            };
            let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
            let log: Log = web::Data::new(Mutex::new(Vec::new()));
            let data = log.clone();
            let server = HttpServer::new(move || {
                App::new()
                    .app_data(data.clone())
                    .default_service(web::to(fake_amap))
            })
            .workers(1)
            .disable_signals()
            .listen(listener);
            let Ok(server) = server else {
                panic!("cannot listen");
            };
            let server = server.run();
            let handle = server.handle();
            actix_web::rt::spawn(server);
            Fake {
                url: format!("http://127.0.0.1:{port}"),
                log,
                handle,
            }
        }

        fn client(&self, key: &str) -> AmapClient {
            self.client_at("", key, DEFAULT_TIMEOUT_MS)
        }

        fn client_at(&self, prefix: &str, key: &str, timeout_ms: u64) -> AmapClient {
            let mut config = AmapConfig::new(format!("{}{prefix}/", self.url), key);
            config.timeout_ms = timeout_ms;
            match AmapClient::new(&config) {
                Ok(c) => c,
                Err(e) => panic!("client: {e}"),
            }
        }

        fn requests(&self) -> Vec<String> {
            self.log.lock().map(|l| l.clone()).unwrap_or_default()
        }

        async fn stop(self) {
            self.handle.stop(false).await;
        }
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))
    }

    #[actix_web::test]
    async fn ip_location_ok_and_unknown() {
        let fake = Fake::start().await;
        let amap = fake.client("test-key");
        let Ok(info) = amap.ip_location(ip("1.202.3.4"), Lang::Zh).await else {
            panic!("no ip location");
        };
        assert_eq!(info.city, "北京市");
        assert_eq!(info.city_code, "110100");
        assert_eq!(info.province, "北京市");
        assert_eq!(info.address, "北京市");
        assert_eq!(info.location_type, LocationType::Ip);
        assert!((info.point.lng - 116.3975).abs() < 0.001);
        assert!((info.point.lat - 39.9389).abs() < 0.001);

        // AMap answers `[]` for addresses it does not know.
        assert_eq!(
            amap.ip_location(ip("8.8.8.8"), Lang::Zh).await,
            Err(MapsError::NotFound)
        );
        let before = fake.requests().len();
        // Private, loopback and IPv6 addresses are not sent.
        for addr in ["192.168.1.1", "127.0.0.1", "10.0.0.1", "2001:db8::1"] {
            assert_eq!(
                amap.ip_location(ip(addr), Lang::Zh).await,
                Err(MapsError::NotFound),
                "{addr}"
            );
        }
        assert_eq!(fake.requests().len(), before);
        let requests = fake.requests();
        assert!(requests[0].starts_with("/v3/ip?"), "{requests:?}");
        assert!(requests[0].contains("key=test-key") && requests[0].contains("ip=1.202.3.4"));
        fake.stop().await;
    }

    #[actix_web::test]
    async fn reverse_geocode_ok() {
        let fake = Fake::start().await;
        let amap = fake.client("test-key");
        let p = LngLat {
            lng: 121.475164,
            lat: 31.228816,
        };
        let Ok(info) = amap.reverse_geocode(p, Lang::Zh).await else {
            panic!("no regeo");
        };
        assert_eq!(info.point, p);
        assert_eq!(info.name, "人民广场");
        assert_eq!(info.show_name, "人民广场");
        assert_eq!(info.city, "上海市", "a municipality's city is its province");
        assert_eq!(info.city_code, "310100");
        assert_eq!(info.district, "黄浦区");
        assert_eq!(info.district_code, "310101");
        assert_eq!(info.street, "人民大道");
        assert_eq!(info.street_number, "200号");
        assert_eq!(info.address, "上海市黄浦区南京东路街道人民大道200号");
        let names: Vec<&str> = info.pois.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            ["人民广场地铁站", "上海博物馆"],
            "sorted, within 1000 m, with a point"
        );
        assert_eq!(info.pois[0].distance_m, Some(35.0));
        assert_eq!(info.pois[0].address, "");
        assert_eq!(info.pois[1].kind, "科教文化服务");
        assert_eq!(info.pois[1].city, "上海市");
        assert_eq!(info.pois[1].district, "黄浦区");
        let requests = fake.requests();
        assert!(
            requests[0].contains("location=121.475164%2C31.228816"),
            "{requests:?}"
        );
        assert!(requests[0].contains("radius=1000") && requests[0].contains("extensions=all"));

        // Sea or abroad: an empty formatted address.
        let sea = LngLat {
            lng: 123.5,
            lat: 30.0,
        };
        assert_eq!(
            amap.reverse_geocode(sea, Lang::Zh).await,
            Err(MapsError::NotFound)
        );
        // Outside China: no call at all.
        let before = fake.requests().len();
        let paris = LngLat {
            lng: 2.35,
            lat: 48.85,
        };
        assert_eq!(
            amap.reverse_geocode(paris, Lang::Zh).await,
            Err(MapsError::NotFound)
        );
        assert_eq!(fake.requests().len(), before);
        fake.stop().await;
    }

    #[actix_web::test]
    async fn geocode_places_and_tips_ok() {
        let fake = Fake::start().await;
        let amap = fake.client("test-key");

        let Ok(found) = amap.geocode("深南大道9037号", Some("深圳"), Lang::Zh).await else {
            panic!("no geocode");
        };
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].city_code, "440300");
        assert_eq!(found[0].city, "深圳市");
        assert_eq!(found[0].district, "南山区");
        assert_eq!(found[0].kind, "门牌号");
        assert_eq!(
            found[0].point,
            LngLat {
                lng: 113.97348,
                lat: 22.53648
            }
        );

        let Ok(page) = amap.place_search("必胜客", Some("上海"), 2, Lang::Zh).await else {
            panic!("no places");
        };
        assert_eq!(page.total, 31);
        assert_eq!(page.page, 2);
        assert_eq!(page.page_size, 15);
        assert_eq!(page.items.len(), 2);
        assert_eq!(page.items[0].name, "必胜客(人民广场店)");
        assert_eq!(page.items[0].city_code, "310100");
        assert_eq!(page.items[0].kind, "餐饮服务");
        assert_eq!(page.items[1].address, "");

        let Ok(tips) = amap.input_tips("人民", Some("310100"), Lang::Zh).await else {
            panic!("no tips");
        };
        let names: Vec<&str> = tips.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            ["人民广场"],
            "entries without a point or an address are dropped"
        );
        assert_eq!(tips[0].city, "上海市");
        assert_eq!(tips[0].district, "黄浦区");
        assert_eq!(tips[0].city_code, "310100");

        let requests = fake.requests();
        let places = requests.iter().find(|r| r.starts_with("/v3/place/text"));
        let places = places.map(String::as_str).unwrap_or("");
        for part in [
            "offset=15",
            "page=2",
            "citylimit=true",
            "key=test-key",
            "extensions=base",
        ] {
            assert!(places.contains(part), "{part} in {places}");
        }
        let tips = requests
            .iter()
            .find(|r| r.starts_with("/v3/assistant/inputtips"));
        let tips = tips.map(String::as_str).unwrap_or("");
        assert!(
            tips.contains("citylimit=true") && tips.contains("city=310100"),
            "{tips}"
        );
        let geo = requests.iter().find(|r| r.starts_with("/v3/geocode/geo"));
        assert!(geo.is_some_and(|g| !g.contains("citylimit")));

        // Empty keywords are refused before any call.
        let before = fake.requests().len();
        assert!(matches!(
            amap.input_tips(" ", None, Lang::Zh).await,
            Err(MapsError::BadInput(_))
        ));
        assert_eq!(fake.requests().len(), before);
        fake.stop().await;
    }

    #[actix_web::test]
    async fn status_zero_is_an_error() {
        let fake = Fake::start().await;
        let bad_key = fake.client("bad");
        let err = bad_key.place_search("pizza", None, 1, Lang::Zh).await;
        assert!(
            matches!(&err, Err(MapsError::Unavailable(m)) if m.contains("INVALID_USER_KEY") && !m.contains("bad")),
            "{err:?}"
        );
        let err = bad_key.ip_location(ip("1.202.3.4"), Lang::Zh).await;
        assert!(matches!(err, Err(MapsError::Unavailable(_))));

        let bad_params = fake.client("bad-params");
        let err = bad_params.geocode("x", None, Lang::Zh).await;
        assert_eq!(err, Err(MapsError::BadInput("INVALID_PARAMS".into())));
        fake.stop().await;
    }

    #[actix_web::test]
    async fn http_errors_and_garbage_are_unavailable() {
        let fake = Fake::start().await;
        let broken = fake.client_at("/broken", "test-key", DEFAULT_TIMEOUT_MS);
        let err = broken.input_tips("人民", None, Lang::Zh).await;
        assert!(
            matches!(&err, Err(MapsError::Unavailable(m)) if m.contains("500")),
            "{err:?}"
        );
        let html = fake.client_at("/html", "test-key", DEFAULT_TIMEOUT_MS);
        let err = html.input_tips("人民", None, Lang::Zh).await;
        assert!(
            matches!(&err, Err(MapsError::Unavailable(m)) if m.contains("unreadable")),
            "{err:?}"
        );
        fake.stop().await;
    }

    #[actix_web::test]
    async fn timeout_is_unavailable() {
        let fake = Fake::start().await;
        let slow = fake.client_at("/slow", "secret-key", 200);
        let started = std::time::Instant::now();
        let err = slow.ip_location(ip("1.202.3.4"), Lang::Zh).await;
        assert!(started.elapsed() < Duration::from_millis(1500));
        assert!(
            matches!(&err, Err(MapsError::Unavailable(m)) if m.contains("timeout") && !m.contains("secret-key")),
            "{err:?}"
        );
        fake.stop().await;
    }

    #[actix_web::test]
    async fn unreachable_is_unavailable() {
        // A port that was free a moment ago and has no listener now.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap_or(9);
        let config = AmapConfig::new(format!("http://127.0.0.1:{port}"), "secret-key");
        let Ok(amap) = AmapClient::new(&config) else {
            panic!("client");
        };
        let err = amap.geocode("人民广场", None, Lang::Zh).await;
        assert!(
            matches!(&err, Err(MapsError::Unavailable(m)) if !m.contains("secret-key")),
            "{err:?}"
        );
    }

    #[test]
    fn helpers() {
        assert_eq!(city_code_of("440305"), "440300");
        assert_eq!(city_code_of("110105"), "110100");
        assert_eq!(city_code_of("110000"), "110100");
        assert_eq!(city_code_of("500112"), "500100");
        assert_eq!(city_code_of(""), "");
        assert_eq!(city_code_of("31010x"), "");
        assert_eq!(
            split_region("广东省深圳市南山区"),
            ("广东省".into(), "深圳市".into(), "南山区".into())
        );
        assert_eq!(
            split_region("上海市黄浦区"),
            ("".into(), "上海市".into(), "黄浦区".into())
        );
        assert_eq!(
            split_region("新疆维吾尔自治区乌鲁木齐市天山区"),
            (
                "新疆维吾尔自治区".into(),
                "乌鲁木齐市".into(),
                "天山区".into()
            )
        );
        assert_eq!(text(&json!([])), "");
        assert_eq!(text(&json!(" a ")), "a");
        assert_eq!(text(&json!(12)), "12");
        assert_eq!(parse_point("1.5, 2.5"), Some(LngLat { lng: 1.5, lat: 2.5 }));
        assert_eq!(parse_point("x,2"), None);
        assert_eq!(parse_point(""), None);
        let debug = format!("{:?}", AmapConfig::new("http://x", "secret-key"));
        assert!(!debug.contains("secret-key"));
    }
}
