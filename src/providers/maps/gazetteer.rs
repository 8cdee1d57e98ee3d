//! The offline gazetteer: the maps service answered from the catalogue (cities, districts with
//! their centres, stores) and the built-in landmarks of the seeded cities. The embedded
//! default, and the fallback of the web service. No I/O: every answer comes from memory.
//!
//! - IP location: the sandbox table [`SANDBOX_IP_TABLE`] for a few public ranges; every other
//!   address (loopback, private, unknown) is in the default city: the city of the catalogue's
//!   default store (else its first hot city, else its first city).
//! - Reverse geocode: the nearest landmark or store within 1000 m names the place; the
//!   district is that place's own when it is within 500 m (its district is known), else the
//!   one with the nearest centre, and the city is the district's; points of interest within
//!   1000 m, nearest first, at most 20. Outside China, or over 60 km from every city: NotFound.
//! - Geocode, place search, input tips: case-insensitive substring match over the names and
//!   addresses, both languages, of landmarks, stores and districts; optionally within a city
//!   (its code, or its cn or en name); 15 a page. Geocode also finds places whose name the
//!   address text contains ("上海市黄浦区人民大道200号" finds 黄浦区).

use super::landmarks::{self, LANDMARKS};
use actors::domain::catalogue::{Bilingual, Catalogue, LngLat, VIRTUAL_STORE_CODE};
use actors::domain::geo;
use actors::domain::lang::Lang;
use actors::providers::maps::{
    LocationInfo, LocationType, MapsError, MapsProvider, Page, Poi, MAX_NEARBY_POIS,
    NEARBY_RADIUS_M, PAGE_SIZE,
};
use async_trait::async_trait;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};

/// Farther than this from every city centre is outside the gazetteer's world.
pub const CITY_RADIUS_KM: f64 = 60.0;
/// A named place this close lends the point its district (better than the nearest centre).
pub const SAME_DISTRICT_M: f64 = 500.0;

/// The sandbox's IP table: public test ranges located in a seeded city (network, prefix
/// length, city code). Any other address is in the default city.
///
/// | range           | city     |
/// |-----------------|----------|
/// | 116.228.0.0/16  | Shanghai |
/// | 1.202.0.0/16    | Beijing  |
/// | 123.112.0.0/16  | Beijing  |
/// | 113.87.0.0/16   | Shenzhen |
/// | 119.123.0.0/16  | Shenzhen |
pub const SANDBOX_IP_TABLE: &[([u8; 4], u8, &str)] = &[
    ([116, 228, 0, 0], 16, landmarks::SHANGHAI),
    ([1, 202, 0, 0], 16, landmarks::BEIJING),
    ([123, 112, 0, 0], 16, landmarks::BEIJING),
    ([113, 87, 0, 0], 16, landmarks::SHENZHEN),
    ([119, 123, 0, 0], 16, landmarks::SHENZHEN),
];

/// The sandbox table's city for an address, if it lists one.
pub fn sandbox_ip_city(ip: IpAddr) -> Option<&'static str> {
    let v4: Ipv4Addr = match ip {
        IpAddr::V4(v4) => v4,
        IpAddr::V6(v6) => v6.to_ipv4_mapped()?,
    };
    let addr = u32::from(v4);
    SANDBOX_IP_TABLE
        .iter()
        .find(|(net, len, _)| {
            let mask = u32::MAX.checked_shl(32 - u32::from(*len)).unwrap_or(0);
            addr & mask == u32::from(Ipv4Addr::from(*net)) & mask
        })
        .map(|(_, _, city)| *city)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Landmark,
    Store,
    District,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Landmark => "landmark",
            Kind::Store => "store",
            Kind::District => "district",
        }
    }
}

#[derive(Debug, Clone)]
struct CityEntry {
    code: String,
    name: Bilingual,
    centre: LngLat,
    province: Bilingual,
}

#[derive(Debug, Clone)]
struct DistrictEntry {
    code: String,
    city_code: String,
    name: Bilingual,
    centre: LngLat,
}

/// Something the gazetteer can find by name or near a point.
#[derive(Debug, Clone)]
struct Place {
    id: String,
    kind: Kind,
    name: Bilingual,
    address: Bilingual,
    point: LngLat,
    city_code: String,
    district_code: String,
    /// Lower-cased names and addresses, both languages, for matching.
    names_lc: [String; 2],
    addresses_lc: [String; 2],
}

impl Place {
    fn new(
        id: String,
        kind: Kind,
        name: Bilingual,
        address: Bilingual,
        point: LngLat,
        city_code: String,
        district_code: String,
    ) -> Place {
        Place {
            names_lc: [name.cn.to_lowercase(), name.en.to_lowercase()],
            addresses_lc: [address.cn.to_lowercase(), address.en.to_lowercase()],
            id,
            kind,
            name,
            address,
            point,
            city_code,
            district_code,
        }
    }

    /// How well `kw` (lower-cased) matches: 0 exact name, 1 name prefix, 2 name contains,
    /// 3 address contains, 4 (geocode only) the text contains the name; None no match.
    fn rank(&self, kw: &str, text_contains_name: bool) -> Option<u8> {
        let names = self.names_lc.iter().filter(|n| !n.is_empty());
        let mut best: Option<u8> = None;
        for n in names {
            let r = if n == kw {
                0
            } else if n.starts_with(kw) {
                1
            } else if n.contains(kw) {
                2
            } else if text_contains_name && n.chars().count() >= 2 && kw.contains(n.as_str()) {
                4
            } else {
                continue;
            };
            best = Some(best.map_or(r, |b| b.min(r)));
        }
        if best.is_none_or(|b| b > 3)
            && self
                .addresses_lc
                .iter()
                .any(|a| !a.is_empty() && a.contains(kw))
        {
            best = Some(3);
        }
        best
    }
}

/// The offline maps provider. Built once from a catalogue; cheap to query.
#[derive(Debug, Clone)]
pub struct Gazetteer {
    cities: Vec<CityEntry>,
    districts: Vec<DistrictEntry>,
    places: Vec<Place>,
    city_index: HashMap<String, usize>,
    district_index: HashMap<String, usize>,
    default_city: Option<usize>,
}

fn bilingual(cn: &str, en: &str) -> Bilingual {
    Bilingual {
        cn: cn.into(),
        en: en.into(),
    }
}

fn valid_point(p: LngLat) -> bool {
    p.lng.is_finite()
        && p.lat.is_finite()
        && (-180.0..=180.0).contains(&p.lng)
        && (-90.0..=90.0).contains(&p.lat)
        && !(p.lng == 0.0 && p.lat == 0.0)
}

fn distance_m(a: LngLat, b: LngLat) -> f64 {
    geo::distance_km(a, b) * 1000.0
}

/// "上海市" → "上海", "Shanghai City" → "shanghai": how a city filter is compared.
fn city_key(text: &str) -> String {
    let t = text.trim().to_lowercase();
    let t = t.strip_suffix('市').unwrap_or(&t);
    let t = t.strip_suffix(" city").unwrap_or(t);
    t.trim().to_string()
}

impl Gazetteer {
    /// The gazetteer of a catalogue's cities: its districts and stores, plus the built-in
    /// landmarks of those cities. The virtual store and stores without a point are left out.
    pub fn from_catalogue(catalogue: &Catalogue) -> Gazetteer {
        let cities: Vec<CityEntry> = catalogue
            .cities
            .iter()
            .map(|c| {
                let (pcn, pen) = landmarks::province(&c.city_code).unwrap_or(("", ""));
                CityEntry {
                    code: c.city_code.clone(),
                    name: c.name.clone(),
                    centre: LngLat {
                        lng: c.lng,
                        lat: c.lat,
                    },
                    province: bilingual(pcn, pen),
                }
            })
            .collect();
        let city_index: HashMap<String, usize> = cities
            .iter()
            .enumerate()
            .map(|(i, c)| (c.code.clone(), i))
            .collect();

        let districts: Vec<DistrictEntry> = catalogue
            .districts
            .iter()
            .filter(|d| city_index.contains_key(&d.city_code))
            .map(|d| DistrictEntry {
                code: d.district_code.clone(),
                city_code: d.city_code.clone(),
                name: d.name.clone(),
                centre: LngLat {
                    lng: d.lng,
                    lat: d.lat,
                },
            })
            .collect();
        let district_index: HashMap<String, usize> = districts
            .iter()
            .enumerate()
            .map(|(i, d)| (d.code.clone(), i))
            .collect();

        let mut places = Vec::new();
        for l in LANDMARKS
            .iter()
            .filter(|l| city_index.contains_key(l.city_code))
        {
            places.push(Place::new(
                l.id.to_string(),
                Kind::Landmark,
                bilingual(l.name_cn, l.name_en),
                bilingual(l.address_cn, l.address_en),
                LngLat {
                    lng: l.lng,
                    lat: l.lat,
                },
                l.city_code.to_string(),
                l.district_code.to_string(),
            ));
        }
        for s in catalogue.stores.iter().filter(|s| {
            s.store_code != VIRTUAL_STORE_CODE
                && valid_point(LngLat {
                    lng: s.lng,
                    lat: s.lat,
                })
        }) {
            places.push(Place::new(
                format!("store-{}", s.store_code),
                Kind::Store,
                s.name.clone(),
                s.address.clone(),
                LngLat {
                    lng: s.lng,
                    lat: s.lat,
                },
                s.city_code.clone(),
                s.district_code.clone(),
            ));
        }
        for d in &districts {
            let city = city_index.get(&d.city_code).map(|&i| &cities[i]);
            let address = match city {
                Some(c) => region_text(&c.province, &c.name, &d.name),
                None => d.name.clone(),
            };
            places.push(Place::new(
                format!("district-{}", d.code),
                Kind::District,
                d.name.clone(),
                address,
                d.centre,
                d.city_code.clone(),
                d.code.clone(),
            ));
        }

        let default_city = catalogue
            .stores
            .iter()
            .find(|s| s.is_default)
            .and_then(|s| city_index.get(&s.city_code).copied())
            .or_else(|| catalogue.cities.iter().position(|c| c.hot))
            .or(if cities.is_empty() { None } else { Some(0) });

        Gazetteer {
            cities,
            districts,
            places,
            city_index,
            district_index,
            default_city,
        }
    }

    fn city(&self, code: &str) -> Option<&CityEntry> {
        self.city_index.get(code).map(|&i| &self.cities[i])
    }

    fn district_name(&self, code: &str) -> Bilingual {
        match self.district_index.get(code) {
            Some(&i) => self.districts[i].name.clone(),
            None => landmarks::district_name(code)
                .map(|(cn, en)| bilingual(cn, en))
                .unwrap_or_default(),
        }
    }

    fn poi(&self, place: &Place, lang: Lang, distance_m: Option<f64>) -> Poi {
        let city = self
            .city(&place.city_code)
            .map(|c| lang.pick(&c.name).to_string())
            .unwrap_or_default();
        let district = self.district_name(&place.district_code);
        Poi {
            id: place.id.clone(),
            name: lang.pick(&place.name).to_string(),
            address: lang.pick(&place.address).to_string(),
            point: place.point,
            city_code: place.city_code.clone(),
            city,
            district: lang.pick(&district).to_string(),
            kind: place.kind.as_str().to_string(),
            distance_m,
        }
    }

    /// The city codes a city filter means: a code, or a city's cn or en name. An unknown
    /// filter matches no city.
    fn city_filter(&self, city: Option<&str>) -> Option<Vec<&str>> {
        let wanted = city.map(str::trim).filter(|c| !c.is_empty())?;
        let key = city_key(wanted);
        Some(
            self.cities
                .iter()
                .filter(|c| {
                    c.code == wanted || city_key(&c.name.cn) == key || city_key(&c.name.en) == key
                })
                .map(|c| c.code.as_str())
                .collect(),
        )
    }

    /// Places matching `keyword`, best first.
    fn search(
        &self,
        keyword: &str,
        city: Option<&str>,
        lang: Lang,
        text_contains_name: bool,
    ) -> Result<Vec<&Place>, MapsError> {
        let kw = keyword.trim().to_lowercase();
        if kw.is_empty() {
            return Err(MapsError::BadInput("keyword is empty".into()));
        }
        let cities = self.city_filter(city);
        let mut found: Vec<(u8, &Place)> = self
            .places
            .iter()
            .filter(|p| {
                cities
                    .as_ref()
                    .is_none_or(|codes| codes.contains(&p.city_code.as_str()))
            })
            .filter_map(|p| p.rank(&kw, text_contains_name).map(|r| (r, p)))
            .collect();
        found.sort_by(|(ra, a), (rb, b)| {
            ra.cmp(rb)
                .then(a.kind.cmp(&b.kind))
                .then_with(|| lang.pick(&a.name).cmp(lang.pick(&b.name)))
        });
        Ok(found.into_iter().map(|(_, p)| p).collect())
    }

    fn city_location(&self, city: &CityEntry, lang: Lang) -> LocationInfo {
        let mut info = LocationInfo::new(city.centre, LocationType::Ip);
        info.name = lang.pick(&city.name).to_string();
        info.city = info.name.clone();
        info.city_code = city.code.clone();
        info.province = lang.pick(&city.province).to_string();
        info.address = lang
            .pick(&region_text(
                &city.province,
                &city.name,
                &Bilingual::default(),
            ))
            .to_string();
        info.show_name = info.name.clone();
        info
    }
}

/// "上海市黄浦区" / "Huangpu, Shanghai": a region's address text, the province left out when
/// it is the city (municipalities) and in English.
fn region_text(province: &Bilingual, city: &Bilingual, district: &Bilingual) -> Bilingual {
    let province_cn = if city_key(&province.cn) == city_key(&city.cn) {
        ""
    } else {
        &province.cn
    };
    let cn = format!("{province_cn}{}{}", city.cn, district.cn);
    let en_parts: Vec<&str> = [district.en.as_str(), city.en.as_str()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect();
    Bilingual {
        cn,
        en: en_parts.join(", "),
    }
}

#[async_trait]
impl MapsProvider for Gazetteer {
    async fn ip_location(&self, ip: IpAddr, lang: Lang) -> Result<LocationInfo, MapsError> {
        let city = sandbox_ip_city(ip)
            .and_then(|code| self.city(code))
            .or_else(|| self.default_city.map(|i| &self.cities[i]))
            .ok_or(MapsError::NotFound)?;
        Ok(self.city_location(city, lang))
    }

    async fn reverse_geocode(&self, p: LngLat, lang: Lang) -> Result<LocationInfo, MapsError> {
        if !valid_point(p) {
            return Err(MapsError::BadInput(format!(
                "invalid point {},{}",
                p.lng, p.lat
            )));
        }
        if geo::out_of_china(p) {
            return Err(MapsError::NotFound);
        }
        let near_cities: Vec<(f64, &CityEntry)> = self
            .cities
            .iter()
            .map(|c| (geo::distance_km(p, c.centre), c))
            .filter(|(d, _)| *d <= CITY_RADIUS_KM)
            .collect();
        let nearest_city = near_cities
            .iter()
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, c)| *c)
            .ok_or(MapsError::NotFound)?;
        let mut nearby: Vec<(f64, &Place)> = self
            .places
            .iter()
            .map(|place| (distance_m(p, place.point), place))
            .filter(|(d, _)| *d <= NEARBY_RADIUS_M)
            .collect();
        nearby.sort_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(a.1.kind.cmp(&b.1.kind))
                .then_with(|| a.1.id.cmp(&b.1.id))
        });
        let named = nearby
            .iter()
            .find(|(_, place)| place.kind != Kind::District);

        let district = named
            .filter(|(d, _)| *d <= SAME_DISTRICT_M)
            .and_then(|(_, place)| self.district_index.get(&place.district_code))
            .map(|&i| &self.districts[i])
            .or_else(|| {
                self.districts
                    .iter()
                    .filter(|d| near_cities.iter().any(|(_, c)| c.code == d.city_code))
                    .map(|d| (geo::distance_km(p, d.centre), d))
                    .min_by(|a, b| a.0.total_cmp(&b.0))
                    .map(|(_, d)| d)
            });
        let city = district
            .and_then(|d| self.city(&d.city_code))
            .unwrap_or(nearest_city);

        let district_name = district.map(|d| d.name.clone()).unwrap_or_default();
        let region = region_text(&city.province, &city.name, &district_name);
        let mut info = LocationInfo::new(p, LocationType::Gps);
        info.city = lang.pick(&city.name).to_string();
        info.city_code = city.code.clone();
        info.district = lang.pick(&district_name).to_string();
        info.district_code = district.map(|d| d.code.clone()).unwrap_or_default();
        info.province = lang.pick(&city.province).to_string();
        match named {
            Some((_, place)) => {
                info.name = lang.pick(&place.name).to_string();
                info.address = lang.pick(&place.address).to_string();
            }
            None => {
                info.name = if district_name.cn.is_empty() {
                    info.city.clone()
                } else {
                    info.district.clone()
                };
                info.address = lang.pick(&region).to_string();
            }
        }
        info.show_name = info.name.clone();
        info.pois = nearby
            .into_iter()
            .take(MAX_NEARBY_POIS)
            .map(|(d, place)| self.poi(place, lang, Some((d * 10.0).round() / 10.0)))
            .collect();
        Ok(info)
    }

    async fn geocode(
        &self,
        address: &str,
        city: Option<&str>,
        lang: Lang,
    ) -> Result<Vec<Poi>, MapsError> {
        Ok(self
            .search(address, city, lang, true)?
            .into_iter()
            .take(PAGE_SIZE as usize)
            .map(|place| self.poi(place, lang, None))
            .collect())
    }

    async fn place_search(
        &self,
        keyword: &str,
        city: Option<&str>,
        page: u32,
        lang: Lang,
    ) -> Result<Page<Poi>, MapsError> {
        let page = page.max(1);
        let found = self.search(keyword, city, lang, false)?;
        let skip = (page as usize - 1).saturating_mul(PAGE_SIZE as usize);
        Ok(Page {
            total: u32::try_from(found.len()).unwrap_or(u32::MAX),
            items: found
                .into_iter()
                .skip(skip)
                .take(PAGE_SIZE as usize)
                .map(|place| self.poi(place, lang, None))
                .collect(),
            page,
            page_size: PAGE_SIZE,
        })
    }

    async fn input_tips(
        &self,
        keyword: &str,
        city: Option<&str>,
        lang: Lang,
    ) -> Result<Vec<Poi>, MapsError> {
        Ok(self
            .search(keyword, city, lang, false)?
            .into_iter()
            .take(PAGE_SIZE as usize)
            .map(|place| self.poi(place, lang, None))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actors::domain::catalogue::{virtual_store, City, District, Store};

    fn city(code: &str, cn: &str, en: &str, lng: f64, lat: f64) -> City {
        City {
            city_code: code.into(),
            name: bilingual(cn, en),
            lat,
            lng,
            delivery_display: true,
            hot: false,
        }
    }

    fn district(city: &str, code: &str, cn: &str, en: &str, lng: f64, lat: f64) -> District {
        District {
            city_code: city.into(),
            district_code: code.into(),
            name: bilingual(cn, en),
            lat,
            lng,
        }
    }

    fn store(
        code: &str,
        city: &str,
        district: &str,
        name: (&str, &str),
        lng: f64,
        lat: f64,
    ) -> Store {
        Store {
            store_code: code.into(),
            name: bilingual(name.0, name.1),
            address: bilingual(&format!("{}店地址", name.0), &format!("{} address", name.1)),
            lat,
            lng,
            city_code: city.into(),
            district_code: district.into(),
            service_methods: vec![0, 1, 2],
            ..virtual_store(None)
        }
    }

    const PEOPLES_SQUARE: LngLat = LngLat {
        lng: 121.475164,
        lat: 31.228816,
    };

    /// Shanghai (two districts, two stores) and Beijing (one district, one store). The
    /// Shanghai store 1002 is the chain's default; Shenzhen is not served.
    fn catalogue() -> Catalogue {
        let mut default_store = store(
            "1002",
            "310100",
            "310115",
            ("陆家嘴店", "Lujiazui Store"),
            121.5050,
            31.2400,
        );
        default_store.is_default = true;
        Catalogue {
            cities: vec![
                city("110100", "北京市", "Beijing", 116.407526, 39.904030),
                city("310100", "上海市", "Shanghai", 121.473701, 31.230416),
            ],
            districts: vec![
                district(
                    "310100",
                    "310101",
                    "黄浦区",
                    "Huangpu",
                    121.484443,
                    31.231763,
                ),
                district(
                    "310100",
                    "310115",
                    "浦东新区",
                    "Pudong",
                    121.544346,
                    31.221461,
                ),
                district(
                    "110100",
                    "110105",
                    "朝阳区",
                    "Chaoyang",
                    116.443136,
                    39.921444,
                ),
            ],
            stores: vec![
                store(
                    "1001",
                    "310100",
                    "310101",
                    ("人民广场店", "People's Square Store"),
                    121.4760,
                    31.2300,
                ),
                default_store,
                store(
                    "2001",
                    "110100",
                    "110105",
                    ("三里屯店", "Sanlitun Store"),
                    116.4550,
                    39.9350,
                ),
                virtual_store(None),
            ],
            categories: vec![],
            products: vec![],
            hot_words: vec![],
            promotions: vec![],
        }
    }

    fn gazetteer() -> Gazetteer {
        Gazetteer::from_catalogue(&catalogue())
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or(IpAddr::from([255, 255, 255, 255]))
    }

    #[tokio::test]
    async fn ip_location_defaults_to_the_default_store_city() {
        let g = gazetteer();
        for addr in [
            "127.0.0.1",
            "10.1.2.3",
            "192.168.0.8",
            "::1",
            "fd00::1",
            "8.8.8.8",
            "2001:db8::1",
        ] {
            let info = g.ip_location(ip(addr), Lang::Zh).await;
            let info = info.map_err(|e| e.to_string());
            assert!(
                matches!(&info, Ok(i) if i.city_code == "310100" && i.city == "上海市"),
                "{addr}: {info:?}"
            );
        }
        let Ok(info) = g.ip_location(ip("127.0.0.1"), Lang::En).await else {
            panic!("no ip location");
        };
        assert_eq!(info.location_type, LocationType::Ip);
        assert_eq!(info.city, "Shanghai");
        assert_eq!(info.show_name, "Shanghai");
        assert_eq!(info.province, "Shanghai");
        assert_eq!(
            info.point,
            LngLat {
                lng: 121.473701,
                lat: 31.230416
            }
        );
        assert!(!info.from_fallback);
    }

    #[tokio::test]
    async fn ip_location_uses_the_sandbox_table() {
        let g = gazetteer();
        let beijing = g.ip_location(ip("1.202.33.44"), Lang::Zh).await;
        assert!(matches!(&beijing, Ok(i) if i.city_code == "110100" && i.province == "北京市"));
        let mapped = g.ip_location(ip("::ffff:1.202.1.1"), Lang::Zh).await;
        assert!(matches!(&mapped, Ok(i) if i.city_code == "110100"));
        // Shenzhen is in the table but not in this catalogue: the default city answers.
        let shenzhen = g.ip_location(ip("113.87.1.1"), Lang::Zh).await;
        assert!(matches!(&shenzhen, Ok(i) if i.city_code == "310100"));
        assert_eq!(sandbox_ip_city(ip("113.87.200.1")), Some("440300"));
        assert_eq!(sandbox_ip_city(ip("113.88.0.1")), None);
        assert_eq!(sandbox_ip_city(ip("116.228.9.9")), Some("310100"));
    }

    #[tokio::test]
    async fn ip_location_without_cities_is_not_found() {
        let empty = Catalogue {
            cities: vec![],
            districts: vec![],
            stores: vec![],
            categories: vec![],
            products: vec![],
            hot_words: vec![],
            promotions: vec![],
        };
        let g = Gazetteer::from_catalogue(&empty);
        assert_eq!(
            g.ip_location(ip("127.0.0.1"), Lang::Zh).await,
            Err(MapsError::NotFound)
        );
    }

    #[tokio::test]
    async fn regeo_near_peoples_square() {
        let g = gazetteer();
        let near = LngLat {
            lng: PEOPLES_SQUARE.lng + 0.0002,
            lat: PEOPLES_SQUARE.lat + 0.0001,
        };
        let Ok(info) = g.reverse_geocode(near, Lang::Zh).await else {
            panic!("no regeo");
        };
        assert_eq!(info.city, "上海市");
        assert_eq!(info.city_code, "310100");
        assert_eq!(info.district, "黄浦区");
        assert_eq!(info.district_code, "310101");
        assert_eq!(info.province, "上海市");
        assert_eq!(info.name, "人民广场");
        assert_eq!(info.show_name, "人民广场");
        assert_eq!(info.address, "上海市黄浦区人民大道120号");
        assert_eq!(info.location_type, LocationType::Gps);
        assert_eq!(info.point, near);
        assert_eq!(
            info.pois.first().map(|p| p.id.as_str()),
            Some("sh-peoples-square")
        );
        assert!(info
            .pois
            .iter()
            .any(|p| p.id == "store-1001" && p.kind == "store"));
        assert!(info.pois.iter().all(|p| p.city_code == "310100"));

        let Ok(en) = g.reverse_geocode(near, Lang::En).await else {
            panic!("no regeo");
        };
        assert_eq!(en.name, "People's Square");
        assert_eq!(en.district, "Huangpu");
        assert_eq!(en.city, "Shanghai");
        assert_eq!(en.pois[0].district, "Huangpu");
    }

    #[tokio::test]
    async fn regeo_pois_are_sorted_within_1000_m_and_at_most_20() {
        let mut cat = catalogue();
        // 30 stores 95 m to 700 m north-east of People's Square.
        for i in 0..30 {
            let step = f64::from(i) * 0.0003;
            cat.stores.push(store(
                &format!("9{i:03}"),
                "310100",
                "310101",
                ("测试店", "Test Store"),
                PEOPLES_SQUARE.lng + 0.001 + step * 0.5,
                PEOPLES_SQUARE.lat + step * 0.5,
            ));
        }
        let g = Gazetteer::from_catalogue(&cat);
        let Ok(info) = g.reverse_geocode(PEOPLES_SQUARE, Lang::Zh).await else {
            panic!("no regeo");
        };
        assert_eq!(info.pois.len(), MAX_NEARBY_POIS);
        let distances: Vec<f64> = info
            .pois
            .iter()
            .map(|p| p.distance_m.unwrap_or(f64::MAX))
            .collect();
        assert!(distances.windows(2).all(|w| w[0] <= w[1]), "{distances:?}");
        assert!(distances.iter().all(|d| *d <= NEARBY_RADIUS_M));
        assert_eq!(distances[0], 0.0);

        // A sparse spot: only what is within 1000 m, each with its distance.
        let g = gazetteer();
        let Ok(bund) = g
            .reverse_geocode(
                LngLat {
                    lng: 121.490317,
                    lat: 31.240640,
                },
                Lang::Zh,
            )
            .await
        else {
            panic!("no regeo");
        };
        assert_eq!(bund.name, "外滩");
        for p in &bund.pois {
            let d = distance_m(bund.point, p.point);
            assert!(d <= NEARBY_RADIUS_M + 0.1, "{} at {d}", p.name);
            assert!((p.distance_m.unwrap_or(-1.0) - d).abs() < 0.1);
        }
    }

    #[tokio::test]
    async fn regeo_without_a_nearby_place_names_the_district() {
        let g = gazetteer();
        // Pudong, 3 km from anything named.
        let Ok(info) = g
            .reverse_geocode(
                LngLat {
                    lng: 121.5443,
                    lat: 31.2000,
                },
                Lang::Zh,
            )
            .await
        else {
            panic!("no regeo");
        };
        assert_eq!(info.district, "浦东新区");
        assert_eq!(info.name, "浦东新区");
        assert_eq!(info.address, "上海市浦东新区");
        let Ok(en) = g
            .reverse_geocode(
                LngLat {
                    lng: 121.5443,
                    lat: 31.2000,
                },
                Lang::En,
            )
            .await
        else {
            panic!("no regeo");
        };
        assert_eq!(en.address, "Pudong, Shanghai");
    }

    #[tokio::test]
    async fn regeo_far_away_or_outside_china_is_not_found() {
        let g = gazetteer();
        // Hangzhou: in China, 160 km from Shanghai.
        let hangzhou = LngLat {
            lng: 120.1551,
            lat: 30.2741,
        };
        assert_eq!(
            g.reverse_geocode(hangzhou, Lang::Zh).await,
            Err(MapsError::NotFound)
        );
        // Shenzhen: seeded landmarks, but not in this catalogue.
        let shenzhen = LngLat {
            lng: 114.0579,
            lat: 22.5431,
        };
        assert_eq!(
            g.reverse_geocode(shenzhen, Lang::Zh).await,
            Err(MapsError::NotFound)
        );
        let london = LngLat {
            lng: -0.1276,
            lat: 51.5072,
        };
        assert_eq!(
            g.reverse_geocode(london, Lang::Zh).await,
            Err(MapsError::NotFound)
        );
        let nan = LngLat {
            lng: f64::NAN,
            lat: 31.0,
        };
        assert!(matches!(
            g.reverse_geocode(nan, Lang::Zh).await,
            Err(MapsError::BadInput(_))
        ));
    }

    #[tokio::test]
    async fn search_by_chinese_and_english() {
        let g = gazetteer();
        let Ok(page) = g.place_search("人民广场", None, 1, Lang::Zh).await else {
            panic!("no search");
        };
        let names: Vec<&str> = page.items.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            ["人民广场", "人民广场店"],
            "exact name first, then prefix"
        );
        assert_eq!(page.total, 2);
        assert_eq!(page.page_size, 15);
        assert_eq!(page.items[0].district, "黄浦区");
        assert_eq!(page.items[0].city, "上海市");

        let Ok(en) = g
            .place_search("  PEOPLE'S square ", None, 1, Lang::En)
            .await
        else {
            panic!("no search");
        };
        let names: Vec<&str> = en.items.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["People's Square", "People's Square Store"]);
        assert_eq!(
            en.items[0].address,
            "120 Renmin Avenue, Huangpu District, Shanghai"
        );

        // By address text, in either language, answered in the asked one.
        let Ok(tips) = g.input_tips("renmin avenue", None, Lang::Zh).await else {
            panic!("no tips");
        };
        assert_eq!(tips.first().map(|p| p.name.as_str()), Some("人民广场"));
        // Districts are found too.
        let Ok(found) = g.input_tips("pudong", None, Lang::En).await else {
            panic!("no tips");
        };
        assert!(found
            .iter()
            .any(|p| p.kind == "district" && p.name == "Pudong"));
        assert!(found
            .iter()
            .any(|p| p.kind == "landmark" && p.name == "Lujiazui"));
    }

    #[tokio::test]
    async fn search_limited_to_a_city() {
        let g = gazetteer();
        let all = g.input_tips("店", None, Lang::Zh).await.unwrap_or_default();
        assert_eq!(all.len(), 3);
        for filter in ["110100", "北京", "北京市", "beijing", "Beijing City"] {
            let only = g
                .input_tips("店", Some(filter), Lang::Zh)
                .await
                .unwrap_or_default();
            let codes: Vec<&str> = only.iter().map(|p| p.city_code.as_str()).collect();
            assert_eq!(codes, ["110100"], "{filter}");
        }
        let unknown = g
            .input_tips("店", Some("杭州"), Lang::Zh)
            .await
            .unwrap_or_default();
        assert!(unknown.is_empty());
        // Landmarks of cities outside the catalogue are not searchable.
        let shenzhen = g
            .input_tips("Window of the World", None, Lang::En)
            .await
            .unwrap_or_default();
        assert!(shenzhen.is_empty());
    }

    #[tokio::test]
    async fn search_pages_by_15() {
        let mut cat = catalogue();
        for i in 0..32 {
            cat.stores.push(store(
                &format!("7{i:03}"),
                "310100",
                "310101",
                (&format!("披萨分店{i:02}"), &format!("Pizza Branch {i:02}")),
                121.47 + f64::from(i) * 0.001,
                31.23,
            ));
        }
        let g = Gazetteer::from_catalogue(&cat);
        let mut seen = Vec::new();
        for page in 1..=3 {
            let Ok(p) = g
                .place_search("pizza branch", Some("上海"), page, Lang::En)
                .await
            else {
                panic!("no page {page}");
            };
            assert_eq!(p.total, 32);
            assert_eq!(p.page, page);
            assert_eq!(p.items.len(), [15, 15, 2][page as usize - 1]);
            seen.extend(p.items.into_iter().map(|i| i.id));
        }
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 32);
        let Ok(beyond) = g.place_search("pizza branch", None, 4, Lang::En).await else {
            panic!("no page 4");
        };
        assert!(beyond.items.is_empty());
        assert_eq!(beyond.total, 32);
        let Ok(zero) = g.place_search("pizza branch", None, 0, Lang::En).await else {
            panic!("no page 0");
        };
        assert_eq!(zero.page, 1);
        let tips = g
            .input_tips("披萨分店", None, Lang::Zh)
            .await
            .unwrap_or_default();
        assert_eq!(tips.len(), 15);
    }

    #[tokio::test]
    async fn empty_keyword_is_bad_input() {
        let g = gazetteer();
        assert!(matches!(
            g.input_tips("  ", None, Lang::Zh).await,
            Err(MapsError::BadInput(_))
        ));
        assert!(matches!(
            g.place_search("", None, 1, Lang::Zh).await,
            Err(MapsError::BadInput(_))
        ));
        assert!(matches!(
            g.geocode("", None, Lang::Zh).await,
            Err(MapsError::BadInput(_))
        ));
    }

    #[tokio::test]
    async fn geocode_finds_names_inside_an_address() {
        let g = gazetteer();
        let found = g
            .geocode("上海市黄浦区人民大道200号", Some("上海市"), Lang::Zh)
            .await
            .unwrap_or_default();
        assert_eq!(found.first().map(|p| p.name.as_str()), Some("黄浦区"));
        let found = g
            .geocode("人民广场", None, Lang::Zh)
            .await
            .unwrap_or_default();
        assert_eq!(
            found.first().map(|p| p.id.as_str()),
            Some("sh-peoples-square")
        );
        assert!(found.iter().all(|p| p.distance_m.is_none()));
        let nothing = g
            .geocode("火星基地", None, Lang::Zh)
            .await
            .unwrap_or_default();
        assert!(nothing.is_empty());
    }

    #[tokio::test]
    async fn demo_catalogue_places_locate_in_their_own_city() {
        let Ok(demo) = actors::domain::catalogue::seed::demo_catalogue() else {
            panic!("the demo catalogue does not parse");
        };
        let g = Gazetteer::from_catalogue(&demo);
        let default = g.ip_location(ip("127.0.0.1"), Lang::Zh).await;
        assert!(
            matches!(&default, Ok(i) if i.city_code == "310100"),
            "{default:?}"
        );
        let beijing = g.ip_location(ip("1.202.0.1"), Lang::Zh).await;
        assert!(matches!(&beijing, Ok(i) if i.city_code == "110100"));
        let shenzhen = g.ip_location(ip("113.87.0.1"), Lang::Zh).await;
        assert!(matches!(&shenzhen, Ok(i) if i.city_code == "440300"));

        let mut checked = 0;
        for l in LANDMARKS {
            let p = LngLat {
                lng: l.lng,
                lat: l.lat,
            };
            let Ok(info) = g.reverse_geocode(p, Lang::Zh).await else {
                panic!("{} not found", l.id);
            };
            assert_eq!(info.city_code, l.city_code, "{}", l.id);
            assert!(info.pois.iter().any(|poi| poi.id == l.id), "{}", l.id);
            assert!(
                !info.address.is_empty() && !info.name.is_empty(),
                "{}",
                l.id
            );
            if g.district_index.contains_key(l.district_code) {
                assert_eq!(info.district_code, l.district_code, "{}", l.id);
            }
            checked += 1;
        }
        assert!(checked >= 30);
        for s in &demo.stores {
            let p = LngLat {
                lng: s.lng,
                lat: s.lat,
            };
            let Ok(info) = g.reverse_geocode(p, Lang::En).await else {
                panic!("store {} not found", s.store_code);
            };
            assert_eq!(info.city_code, s.city_code, "{}", s.store_code);
            assert_eq!(info.district_code, s.district_code, "{}", s.store_code);
        }
        let Ok(square) = g
            .reverse_geocode(
                LngLat {
                    lng: 121.475164,
                    lat: 31.228816,
                },
                Lang::Zh,
            )
            .await
        else {
            panic!("no regeo");
        };
        assert_eq!(
            (square.name.as_str(), square.district.as_str()),
            ("人民广场", "黄浦区")
        );
        assert_eq!(square.address, "上海市黄浦区人民大道120号");
        let Ok(city_only) = g.ip_location(ip("127.0.0.1"), Lang::Zh).await else {
            panic!("no ip location");
        };
        assert_eq!(city_only.address, "上海");
        let found = g
            .input_tips("三里屯", Some("北京"), Lang::Zh)
            .await
            .unwrap_or_default();
        assert!(
            found.iter().any(|p| p.kind == "landmark") && found.iter().any(|p| p.kind == "store")
        );
    }

    #[tokio::test]
    async fn the_virtual_store_is_left_out() {
        let g = gazetteer();
        assert!(!g.places.iter().any(|p| p.id.contains(VIRTUAL_STORE_CODE)));
    }
}
