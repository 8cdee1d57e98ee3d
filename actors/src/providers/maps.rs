//! The maps service (spec ordering §7 "maps service calls"): IP location, reverse geocode,
//! geocode, place text search (15 a page) and input tips (15 at most, limited to the city).
//!
//! The trait is implemented in the server (`src/providers/maps`): the offline gazetteer of the
//! seeded cities (the embedded default and the fallback) and an AMap-style web API client.
//! Two wrappers live here because they are pure composition:
//! - [`FallbackMaps`]: the ip lookup falls back to a second maps service (spec §4 Location);
//!   answers from the second service are marked `from_fallback`.
//! - [`CachedMaps`]: the spec §9 lifetimes (ip-to-point 18000 s, 600 s for a fallback answer;
//!   reverse geocode 18000 s) and 30 s for the searches.
//!
//! All points are GCJ-02.

use crate::cache::{system_now, Now, TtlCache};
use crate::domain::catalogue::LngLat;
use crate::domain::lang::Lang;
use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use std::net::IpAddr;
use std::time::Duration;

/// Page size of place search and the most input tips returned.
pub const PAGE_SIZE: u32 = 15;
/// The most points of interest returned with a reverse geocode.
pub const MAX_NEARBY_POIS: usize = 20;
/// How far a reverse geocode looks for points of interest, in metres.
pub const NEARBY_RADIUS_M: f64 = 1000.0;

/// Spec §9: ip-to-point cache.
pub const IP_TTL: Duration = Duration::from_secs(18_000);
/// Spec §9: ip-to-point cache when the answer came from the fallback service.
pub const IP_FALLBACK_TTL: Duration = Duration::from_secs(600);
/// Spec §9: reverse geocode cache.
pub const REGEO_TTL: Duration = Duration::from_secs(18_000);
/// Geocode, place search and input tips: a short cache against typing bursts and paging back.
pub const SEARCH_TTL: Duration = Duration::from_secs(30);

/// How a location was obtained (spec §4 Location types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LocationType {
    Gps,
    Ip,
    DefaultStore,
    Address,
}

/// Spec §3 Location info.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LocationInfo {
    /// GCJ-02.
    pub point: LngLat,
    pub name: String,
    pub city: String,
    /// Our city code: the city's 6-digit adcode (310100, 110100, 440300).
    pub city_code: String,
    pub district: String,
    pub district_code: String,
    pub province: String,
    pub street: String,
    pub street_number: String,
    pub address: String,
    pub location_type: LocationType,
    pub show_name: String,
    /// Nearby points of interest, nearest first, at most [`MAX_NEARBY_POIS`].
    pub pois: Vec<Poi>,
    /// Answered by the fallback service: cached for [`IP_FALLBACK_TTL`] only. Not sent to clients.
    #[serde(skip)]
    pub from_fallback: bool,
}

impl LocationInfo {
    /// A location at `point` with every text empty.
    pub fn new(point: LngLat, location_type: LocationType) -> LocationInfo {
        LocationInfo {
            point,
            name: String::new(),
            city: String::new(),
            city_code: String::new(),
            district: String::new(),
            district_code: String::new(),
            province: String::new(),
            street: String::new(),
            street_number: String::new(),
            address: String::new(),
            location_type,
            show_name: String::new(),
            pois: Vec::new(),
            from_fallback: false,
        }
    }
}

/// A point of interest: a landmark, a store, a district, or whatever the web service knows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Poi {
    pub id: String,
    pub name: String,
    pub address: String,
    /// GCJ-02.
    pub point: LngLat,
    pub city_code: String,
    pub city: String,
    pub district: String,
    /// "landmark", "store", "district", or the web service's type text.
    pub kind: String,
    /// Metres from the reverse-geocoded point (nearby lists only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance_m: Option<f64>,
}

/// One page of results; `page` counts from 1, `total` is the number of matches overall.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Page<T> {
    pub items: Vec<T>,
    pub page: u32,
    pub page_size: u32,
    pub total: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapsError {
    /// The service could not answer (network, timeout, quota, bad key, unreadable reply).
    #[error("maps service unavailable: {0}")]
    Unavailable(String),
    /// Nothing there: a point outside China or outside every known city.
    #[error("no such place")]
    NotFound,
    /// The request itself is wrong (empty keyword, parameters the service refuses).
    #[error("bad maps request: {0}")]
    BadInput(String),
}

#[async_trait]
pub trait MapsProvider: Send + Sync {
    /// Where an IP address is: a city-level point, `location_type` ip.
    async fn ip_location(&self, ip: IpAddr, lang: Lang) -> Result<LocationInfo, MapsError>;

    /// The place at a GCJ-02 point, with up to [`MAX_NEARBY_POIS`] points of interest within
    /// [`NEARBY_RADIUS_M`], nearest first.
    async fn reverse_geocode(&self, p: LngLat, lang: Lang) -> Result<LocationInfo, MapsError>;

    /// Points for an address text, optionally within a city (code or name).
    async fn geocode(
        &self,
        address: &str,
        city: Option<&str>,
        lang: Lang,
    ) -> Result<Vec<Poi>, MapsError>;

    /// Places matching a keyword, [`PAGE_SIZE`] a page, `page` from 1.
    async fn place_search(
        &self,
        keyword: &str,
        city: Option<&str>,
        page: u32,
        lang: Lang,
    ) -> Result<Page<Poi>, MapsError>;

    /// Suggestions while typing: at most [`PAGE_SIZE`], limited to the city when given.
    async fn input_tips(
        &self,
        keyword: &str,
        city: Option<&str>,
        lang: Lang,
    ) -> Result<Vec<Poi>, MapsError>;
}

#[async_trait]
impl<T: MapsProvider + ?Sized> MapsProvider for std::sync::Arc<T> {
    async fn ip_location(&self, ip: IpAddr, lang: Lang) -> Result<LocationInfo, MapsError> {
        (**self).ip_location(ip, lang).await
    }
    async fn reverse_geocode(&self, p: LngLat, lang: Lang) -> Result<LocationInfo, MapsError> {
        (**self).reverse_geocode(p, lang).await
    }
    async fn geocode(
        &self,
        address: &str,
        city: Option<&str>,
        lang: Lang,
    ) -> Result<Vec<Poi>, MapsError> {
        (**self).geocode(address, city, lang).await
    }
    async fn place_search(
        &self,
        keyword: &str,
        city: Option<&str>,
        page: u32,
        lang: Lang,
    ) -> Result<Page<Poi>, MapsError> {
        (**self).place_search(keyword, city, page, lang).await
    }
    async fn input_tips(
        &self,
        keyword: &str,
        city: Option<&str>,
        lang: Lang,
    ) -> Result<Vec<Poi>, MapsError> {
        (**self).input_tips(keyword, city, lang).await
    }
}

/// Two services: the ip lookup goes to `secondary` when `primary` fails in any way; the other
/// calls go to `secondary` only when `primary` is unavailable (its NotFound and BadInput are
/// answers). Location answers from `secondary` are marked `from_fallback`.
#[derive(Debug)]
pub struct FallbackMaps<P, S> {
    pub primary: P,
    pub secondary: S,
}

impl<P, S> FallbackMaps<P, S> {
    pub fn new(primary: P, secondary: S) -> FallbackMaps<P, S> {
        FallbackMaps { primary, secondary }
    }
}

fn mark_fallback(mut info: LocationInfo) -> LocationInfo {
    info.from_fallback = true;
    info
}

#[async_trait]
impl<P: MapsProvider, S: MapsProvider> MapsProvider for FallbackMaps<P, S> {
    async fn ip_location(&self, ip: IpAddr, lang: Lang) -> Result<LocationInfo, MapsError> {
        match self.primary.ip_location(ip, lang).await {
            Ok(info) => Ok(info),
            Err(err) => {
                tracing::warn!(%err, "ip location: primary maps service failed, asking the fallback");
                self.secondary
                    .ip_location(ip, lang)
                    .await
                    .map(mark_fallback)
            }
        }
    }

    async fn reverse_geocode(&self, p: LngLat, lang: Lang) -> Result<LocationInfo, MapsError> {
        when_unavailable(
            "reverse geocode",
            self.primary.reverse_geocode(p, lang),
            || async {
                // A fallback answer is cached for less time (see CachedMaps).
                self.secondary
                    .reverse_geocode(p, lang)
                    .await
                    .map(mark_fallback)
            },
        )
        .await
    }

    async fn geocode(
        &self,
        address: &str,
        city: Option<&str>,
        lang: Lang,
    ) -> Result<Vec<Poi>, MapsError> {
        when_unavailable("geocode", self.primary.geocode(address, city, lang), || {
            self.secondary.geocode(address, city, lang)
        })
        .await
    }

    async fn place_search(
        &self,
        keyword: &str,
        city: Option<&str>,
        page: u32,
        lang: Lang,
    ) -> Result<Page<Poi>, MapsError> {
        when_unavailable(
            "place search",
            self.primary.place_search(keyword, city, page, lang),
            || self.secondary.place_search(keyword, city, page, lang),
        )
        .await
    }

    async fn input_tips(
        &self,
        keyword: &str,
        city: Option<&str>,
        lang: Lang,
    ) -> Result<Vec<Poi>, MapsError> {
        when_unavailable(
            "input tips",
            self.primary.input_tips(keyword, city, lang),
            || self.secondary.input_tips(keyword, city, lang),
        )
        .await
    }
}

/// The primary's answer, or the secondary's when the primary is unavailable (only then: a
/// "not found" from a working service is an answer, not a failure).
async fn when_unavailable<T, S>(
    what: &str,
    primary: impl std::future::Future<Output = Result<T, MapsError>>,
    secondary: impl FnOnce() -> S,
) -> Result<T, MapsError>
where
    S: std::future::Future<Output = Result<T, MapsError>>,
{
    match primary.await {
        Err(MapsError::Unavailable(detail)) => {
            tracing::warn!(detail, "{what}: primary maps service unavailable");
            secondary().await
        }
        other => other,
    }
}

/// A search request as a cache key: the trimmed text, the city, the language.
type SearchKey = (String, Option<String>, Lang);

fn search_key(text: &str, city: Option<&str>, lang: Lang) -> SearchKey {
    (
        text.trim().to_string(),
        city.map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_string),
        lang,
    )
}

/// A point as a cache key: micro-degrees (about 0.1 m).
fn point_key(p: LngLat) -> (i64, i64) {
    ((p.lng * 1e6).round() as i64, (p.lat * 1e6).round() as i64)
}

/// Entries each cache holds at most.
pub const CACHE_CAPACITY: usize = 10_000;

/// Caches answers of another provider with the spec §9 lifetimes. Errors are not cached.
/// Two concurrent misses for the same key both ask the inner provider.
pub struct CachedMaps<P> {
    inner: P,
    ip: TtlCache<(IpAddr, Lang), LocationInfo>,
    regeo: TtlCache<((i64, i64), Lang), LocationInfo>,
    geocode: TtlCache<SearchKey, Vec<Poi>>,
    places: TtlCache<(SearchKey, u32), Page<Poi>>,
    tips: TtlCache<SearchKey, Vec<Poi>>,
}

impl<P> std::fmt::Debug for CachedMaps<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CachedMaps").finish_non_exhaustive()
    }
}

impl<P: MapsProvider> CachedMaps<P> {
    pub fn new(inner: P) -> CachedMaps<P> {
        CachedMaps::with_clock(inner, CACHE_CAPACITY, system_now())
    }

    /// With a size bound per cache and a time source (tests pass a `ManualClock`).
    pub fn with_clock(inner: P, capacity: usize, now: Now) -> CachedMaps<P> {
        CachedMaps {
            inner,
            ip: TtlCache::with_clock(capacity, now.clone()),
            regeo: TtlCache::with_clock(capacity, now.clone()),
            geocode: TtlCache::with_clock(capacity, now.clone()),
            places: TtlCache::with_clock(capacity, now.clone()),
            tips: TtlCache::with_clock(capacity, now),
        }
    }

    pub fn inner(&self) -> &P {
        &self.inner
    }
}

fn location_ttl(info: &LocationInfo, normal: Duration) -> Duration {
    if info.from_fallback {
        IP_FALLBACK_TTL
    } else {
        normal
    }
}

/// Serves `key` from `cache`, or awaits `load` (lazy: it runs only on a miss) and keeps its
/// answer for `ttl(answer)`. Errors are never cached.
async fn cached<K, V>(
    cache: &TtlCache<K, V>,
    key: K,
    ttl: impl FnOnce(&V) -> Duration,
    load: impl std::future::Future<Output = Result<V, MapsError>>,
) -> Result<V, MapsError>
where
    K: Eq + std::hash::Hash,
    V: Clone,
{
    if let Some(hit) = cache.get(&key) {
        return Ok(hit);
    }
    let value = load.await?;
    cache.insert(key, value.clone(), ttl(&value));
    Ok(value)
}

#[async_trait]
impl<P: MapsProvider> MapsProvider for CachedMaps<P> {
    async fn ip_location(&self, ip: IpAddr, lang: Lang) -> Result<LocationInfo, MapsError> {
        let ttl = |info: &LocationInfo| location_ttl(info, IP_TTL);
        cached(&self.ip, (ip, lang), ttl, self.inner.ip_location(ip, lang)).await
    }

    async fn reverse_geocode(&self, p: LngLat, lang: Lang) -> Result<LocationInfo, MapsError> {
        let ttl = |info: &LocationInfo| location_ttl(info, REGEO_TTL);
        let key = (point_key(p), lang);
        cached(&self.regeo, key, ttl, self.inner.reverse_geocode(p, lang)).await
    }

    async fn geocode(
        &self,
        address: &str,
        city: Option<&str>,
        lang: Lang,
    ) -> Result<Vec<Poi>, MapsError> {
        let key = search_key(address, city, lang);
        let load = self.inner.geocode(address, city, lang);
        cached(&self.geocode, key, |_| SEARCH_TTL, load).await
    }

    async fn place_search(
        &self,
        keyword: &str,
        city: Option<&str>,
        page: u32,
        lang: Lang,
    ) -> Result<Page<Poi>, MapsError> {
        let key = (search_key(keyword, city, lang), page);
        let load = self.inner.place_search(keyword, city, page, lang);
        cached(&self.places, key, |_| SEARCH_TTL, load).await
    }

    async fn input_tips(
        &self,
        keyword: &str,
        city: Option<&str>,
        lang: Lang,
    ) -> Result<Vec<Poi>, MapsError> {
        let key = search_key(keyword, city, lang);
        let load = self.inner.input_tips(keyword, city, lang);
        cached(&self.tips, key, |_| SEARCH_TTL, load).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::ManualClock;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    const PEOPLES_SQUARE: LngLat = LngLat {
        lng: 121.4752,
        lat: 31.2288,
    };

    fn poi(name: &str) -> Poi {
        Poi {
            id: name.into(),
            name: name.into(),
            address: String::new(),
            point: PEOPLES_SQUARE,
            city_code: "310100".into(),
            city: "上海市".into(),
            district: "黄浦区".into(),
            kind: "landmark".into(),
            distance_m: None,
        }
    }

    /// Counts calls; answers from a script: `fail` makes every call Unavailable.
    #[derive(Default)]
    struct Fake {
        calls: AtomicUsize,
        fail: bool,
        not_found: bool,
        city: &'static str,
    }

    impl Fake {
        fn named(city: &'static str) -> Fake {
            Fake {
                city,
                ..Fake::default()
            }
        }
        fn failing() -> Fake {
            Fake {
                fail: true,
                ..Fake::default()
            }
        }
        fn calls(&self) -> usize {
            self.calls.load(Ordering::SeqCst)
        }
        fn answer<T>(&self, value: T) -> Result<T, MapsError> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            if self.fail {
                Err(MapsError::Unavailable("down".into()))
            } else if self.not_found {
                Err(MapsError::NotFound)
            } else {
                Ok(value)
            }
        }
        fn location(&self, p: LngLat, t: LocationType) -> LocationInfo {
            let mut info = LocationInfo::new(p, t);
            info.city = self.city.into();
            info
        }
    }

    #[async_trait]
    impl MapsProvider for Fake {
        async fn ip_location(&self, _ip: IpAddr, _lang: Lang) -> Result<LocationInfo, MapsError> {
            self.answer(self.location(PEOPLES_SQUARE, LocationType::Ip))
        }
        async fn reverse_geocode(&self, p: LngLat, _lang: Lang) -> Result<LocationInfo, MapsError> {
            self.answer(self.location(p, LocationType::Gps))
        }
        async fn geocode(
            &self,
            address: &str,
            _city: Option<&str>,
            _lang: Lang,
        ) -> Result<Vec<Poi>, MapsError> {
            self.answer(vec![poi(address)])
        }
        async fn place_search(
            &self,
            keyword: &str,
            _city: Option<&str>,
            page: u32,
            _lang: Lang,
        ) -> Result<Page<Poi>, MapsError> {
            self.answer(Page {
                items: vec![poi(&format!("{keyword}-{page}"))],
                page,
                page_size: PAGE_SIZE,
                total: 40,
            })
        }
        async fn input_tips(
            &self,
            keyword: &str,
            _city: Option<&str>,
            _lang: Lang,
        ) -> Result<Vec<Poi>, MapsError> {
            self.answer(vec![poi(self.city), poi(keyword)])
        }
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))
    }

    #[tokio::test]
    async fn second_call_is_served_from_the_cache() {
        let fake = Arc::new(Fake::named("上海市"));
        let clock = ManualClock::new();
        let maps = CachedMaps::with_clock(Arc::clone(&fake), 100, clock.as_now());

        let first = maps.ip_location(ip("116.228.1.1"), Lang::Zh).await;
        let second = maps.ip_location(ip("116.228.1.1"), Lang::Zh).await;
        assert_eq!(first, second);
        assert_eq!(fake.calls(), 1);
        // Another address or language is another entry.
        let _ = maps.ip_location(ip("116.228.1.2"), Lang::Zh).await;
        let _ = maps.ip_location(ip("116.228.1.1"), Lang::En).await;
        assert_eq!(fake.calls(), 3);

        let _ = maps.reverse_geocode(PEOPLES_SQUARE, Lang::Zh).await;
        let _ = maps.reverse_geocode(PEOPLES_SQUARE, Lang::Zh).await;
        assert_eq!(fake.calls(), 4);

        let _ = maps.geocode("人民广场", Some("310100"), Lang::Zh).await;
        let _ = maps.geocode(" 人民广场 ", Some("310100"), Lang::Zh).await;
        assert_eq!(fake.calls(), 5);
        let _ = maps.geocode("人民广场", None, Lang::Zh).await;
        assert_eq!(fake.calls(), 6, "the city is part of the key");

        let p1 = maps.place_search("pizza", None, 1, Lang::En).await;
        let p2 = maps.place_search("pizza", None, 2, Lang::En).await;
        let p1_again = maps.place_search("pizza", None, 1, Lang::En).await;
        assert_eq!(fake.calls(), 8);
        assert_eq!(p1, p1_again);
        assert_ne!(p1, p2);

        let _ = maps.input_tips("人民", Some("上海"), Lang::Zh).await;
        let _ = maps.input_tips("人民", Some("上海"), Lang::Zh).await;
        assert_eq!(fake.calls(), 9);
    }

    #[tokio::test]
    async fn lifetimes_follow_the_spec() {
        let fake = Arc::new(Fake::named("上海市"));
        let clock = ManualClock::new();
        let maps = CachedMaps::with_clock(Arc::clone(&fake), 100, clock.as_now());
        let addr = ip("116.228.1.1");

        let _ = maps.ip_location(addr, Lang::Zh).await;
        let _ = maps.reverse_geocode(PEOPLES_SQUARE, Lang::Zh).await;
        let _ = maps.input_tips("人民", None, Lang::Zh).await;
        assert_eq!(fake.calls(), 3);

        clock.advance(SEARCH_TTL);
        let _ = maps.ip_location(addr, Lang::Zh).await;
        let _ = maps.reverse_geocode(PEOPLES_SQUARE, Lang::Zh).await;
        assert_eq!(fake.calls(), 3, "ip and regeo still cached after 30 s");
        let _ = maps.input_tips("人民", None, Lang::Zh).await;
        assert_eq!(fake.calls(), 4, "tips expire after 30 s");

        clock.advance(IP_TTL - SEARCH_TTL - Duration::from_secs(1));
        let _ = maps.ip_location(addr, Lang::Zh).await;
        assert_eq!(fake.calls(), 4);
        clock.advance(Duration::from_secs(1));
        let _ = maps.ip_location(addr, Lang::Zh).await;
        let _ = maps.reverse_geocode(PEOPLES_SQUARE, Lang::Zh).await;
        assert_eq!(fake.calls(), 6, "ip and regeo expire after 18000 s");
    }

    #[tokio::test]
    async fn errors_are_not_cached() {
        let fake = Arc::new(Fake {
            not_found: true,
            ..Fake::default()
        });
        let maps = CachedMaps::with_clock(Arc::clone(&fake), 100, ManualClock::new().as_now());
        assert_eq!(
            maps.reverse_geocode(PEOPLES_SQUARE, Lang::Zh).await,
            Err(MapsError::NotFound)
        );
        assert_eq!(
            maps.reverse_geocode(PEOPLES_SQUARE, Lang::Zh).await,
            Err(MapsError::NotFound)
        );
        assert_eq!(fake.calls(), 2);
    }

    #[tokio::test]
    async fn fallback_answers_ip_from_the_secondary_and_marks_it() {
        let primary = Arc::new(Fake::failing());
        let secondary = Arc::new(Fake::named("gazetteer"));
        let maps = FallbackMaps::new(Arc::clone(&primary), Arc::clone(&secondary));

        let info = maps.ip_location(ip("1.202.3.4"), Lang::Zh).await;
        let info = info.map_err(|e| e.to_string());
        assert!(matches!(&info, Ok(i) if i.city == "gazetteer" && i.from_fallback));
        assert_eq!((primary.calls(), secondary.calls()), (1, 1));

        // A primary NotFound also falls back for the ip lookup.
        let primary = Arc::new(Fake {
            not_found: true,
            ..Fake::default()
        });
        let maps = FallbackMaps::new(Arc::clone(&primary), Arc::clone(&secondary));
        let info = maps.ip_location(ip("8.8.8.8"), Lang::Zh).await;
        assert!(matches!(&info, Ok(i) if i.from_fallback));
    }

    #[tokio::test]
    async fn fallback_keeps_primary_answers_unmarked() {
        let primary = Arc::new(Fake::named("amap"));
        let secondary = Arc::new(Fake::named("gazetteer"));
        let maps = FallbackMaps::new(Arc::clone(&primary), Arc::clone(&secondary));
        let info = maps.ip_location(ip("1.202.3.4"), Lang::Zh).await;
        assert!(matches!(&info, Ok(i) if i.city == "amap" && !i.from_fallback));
        let tips = maps.input_tips("k", None, Lang::Zh).await;
        assert_eq!(tips.map(|t| t[0].name.clone()), Ok("amap".to_string()));
        assert_eq!(secondary.calls(), 0);
        // The serialised form never carries the marker.
        let json = serde_json::to_value(LocationInfo {
            from_fallback: true,
            ..LocationInfo::new(PEOPLES_SQUARE, LocationType::Ip)
        })
        .unwrap_or_default();
        assert!(json.get("fromFallback").is_none());
        assert_eq!(json["locationType"], "ip");
    }

    #[tokio::test]
    async fn fallback_other_calls_only_when_unavailable() {
        let secondary = Arc::new(Fake::named("gazetteer"));
        let maps = FallbackMaps::new(Fake::failing(), Arc::clone(&secondary));
        let tips = maps.input_tips("k", None, Lang::Zh).await;
        assert_eq!(tips.map(|t| t[0].name.clone()), Ok("gazetteer".to_string()));
        let regeo = maps.reverse_geocode(PEOPLES_SQUARE, Lang::Zh).await;
        assert!(matches!(&regeo, Ok(i) if i.from_fallback));
        assert!(maps.place_search("k", None, 1, Lang::Zh).await.is_ok());
        assert!(maps.geocode("k", None, Lang::Zh).await.is_ok());
        assert_eq!(secondary.calls(), 4);

        let not_found = FallbackMaps::new(
            Fake {
                not_found: true,
                ..Fake::default()
            },
            Arc::clone(&secondary),
        );
        assert_eq!(
            not_found.reverse_geocode(PEOPLES_SQUARE, Lang::Zh).await,
            Err(MapsError::NotFound)
        );
        assert_eq!(secondary.calls(), 4);
    }

    #[tokio::test]
    async fn fallback_answers_are_cached_for_600_seconds() {
        let primary = Arc::new(Fake::failing());
        let secondary = Arc::new(Fake::named("gazetteer"));
        let clock = ManualClock::new();
        let maps = CachedMaps::with_clock(
            FallbackMaps::new(Arc::clone(&primary), Arc::clone(&secondary)),
            100,
            clock.as_now(),
        );
        let addr = ip("1.202.3.4");
        let _ = maps.ip_location(addr, Lang::Zh).await;
        clock.advance(IP_FALLBACK_TTL - Duration::from_secs(1));
        let _ = maps.ip_location(addr, Lang::Zh).await;
        assert_eq!(secondary.calls(), 1, "cached within 600 s");
        clock.advance(Duration::from_secs(1));
        let _ = maps.ip_location(addr, Lang::Zh).await;
        assert_eq!(secondary.calls(), 2, "expired after 600 s");
        assert_eq!(primary.calls(), 2);
    }

    #[test]
    fn json_shape_is_camel_case() {
        let mut info = LocationInfo::new(PEOPLES_SQUARE, LocationType::DefaultStore);
        info.city_code = "310100".into();
        info.street_number = "200号".into();
        info.pois.push(Poi {
            distance_m: Some(12.5),
            ..poi("人民广场")
        });
        let json = serde_json::to_value(&info).unwrap_or_default();
        assert_eq!(json["locationType"], "defaultStore");
        assert_eq!(json["cityCode"], "310100");
        assert_eq!(json["streetNumber"], "200号");
        assert_eq!(json["point"]["lng"], 121.4752);
        assert_eq!(json["pois"][0]["distanceM"], 12.5);
        assert_eq!(json["pois"][0]["cityCode"], "310100");
        let page = serde_json::to_value(Page {
            items: vec![poi("a")],
            page: 1,
            page_size: PAGE_SIZE,
            total: 1,
        })
        .unwrap_or_default();
        assert_eq!(page["pageSize"], 15);
        assert!(page["items"][0].get("distanceM").is_none());
        for (t, s) in [
            (LocationType::Gps, "gps"),
            (LocationType::Ip, "ip"),
            (LocationType::DefaultStore, "defaultStore"),
            (LocationType::Address, "address"),
        ] {
            assert_eq!(serde_json::to_value(t).unwrap_or_default(), s);
        }
    }
}
