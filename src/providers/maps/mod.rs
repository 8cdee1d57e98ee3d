//! Maps providers: the offline gazetteer (the embedded default and the fallback) and the
//! AMap-style web service client, wrapped for the spec §9 caches.
//!
//! - [`default_provider`]: the gazetteer of the catalogue, cached.
//! - [`provider`]: with an AMap config, the web service first and the gazetteer as its
//!   fallback (the ip lookup falls back to it on any failure, the other calls when the web
//!   service is unavailable), cached; without one, the default.

pub mod amap;
pub mod gazetteer;
pub mod landmarks;

pub use amap::{AmapClient, AmapConfig};
pub use gazetteer::Gazetteer;

use actors::domain::catalogue::Catalogue;
use actors::providers::maps::{CachedMaps, FallbackMaps, MapsProvider};
use std::sync::Arc;

/// The embedded default: the offline gazetteer of `catalogue`, cached.
pub fn default_provider(catalogue: &Catalogue) -> Arc<dyn MapsProvider> {
    Arc::new(CachedMaps::new(Gazetteer::from_catalogue(catalogue)))
}

/// The configured provider: AMap with the gazetteer as fallback when `amap` is given (and has
/// a key), else the default. Fails only when the HTTP client cannot be built.
pub fn provider(
    catalogue: &Catalogue,
    amap: Option<&AmapConfig>,
) -> Result<Arc<dyn MapsProvider>, reqwest::Error> {
    match amap.filter(|c| !c.key.trim().is_empty()) {
        Some(config) => {
            let primary = AmapClient::new(config)?;
            let secondary = Gazetteer::from_catalogue(catalogue);
            Ok(Arc::new(CachedMaps::new(FallbackMaps::new(
                primary, secondary,
            ))))
        }
        None => Ok(default_provider(catalogue)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actors::domain::lang::Lang;
    use actors::providers::maps::{LocationType, MapsError};
    use std::net::IpAddr;

    fn catalogue() -> Catalogue {
        Catalogue {
            cities: vec![actors::domain::catalogue::City {
                city_code: "310100".into(),
                name: actors::domain::catalogue::Bilingual {
                    cn: "上海市".into(),
                    en: "Shanghai".into(),
                },
                lat: 31.230416,
                lng: 121.473701,
                delivery_display: true,
                hot: true,
            }],
            districts: vec![],
            stores: vec![],
            categories: vec![],
            products: vec![],
            hot_words: vec![],
            promotions: vec![],
        }
    }

    #[tokio::test]
    async fn default_provider_answers_from_the_gazetteer() {
        let maps = default_provider(&catalogue());
        let info = maps
            .ip_location(IpAddr::from([127, 0, 0, 1]), Lang::Zh)
            .await;
        assert!(
            matches!(&info, Ok(i) if i.city_code == "310100" && i.location_type == LocationType::Ip)
        );
    }

    #[tokio::test]
    async fn unreachable_amap_falls_back_to_the_gazetteer() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap_or(9);
        let config = AmapConfig::new(format!("http://127.0.0.1:{port}"), "k");
        let Ok(maps) = provider(&catalogue(), Some(&config)) else {
            panic!("no provider");
        };
        let info = maps
            .ip_location(IpAddr::from([1, 202, 3, 4]), Lang::Zh)
            .await;
        assert!(matches!(&info, Ok(i) if i.city_code == "310100" && i.from_fallback));
        let tips = maps.input_tips("人民广场", None, Lang::Zh).await;
        assert!(matches!(&tips, Ok(t) if t.iter().any(|p| p.id == "sh-peoples-square")));
        let far = maps
            .reverse_geocode(
                actors::domain::catalogue::LngLat {
                    lng: 100.0,
                    lat: 30.0,
                },
                Lang::Zh,
            )
            .await;
        assert_eq!(far.map(|i| i.city), Err(MapsError::NotFound));
    }

    #[test]
    fn no_key_means_the_default() {
        let config = AmapConfig::new("http://127.0.0.1:9", " ");
        assert!(provider(&catalogue(), Some(&config)).is_ok());
        assert!(provider(&catalogue(), None).is_ok());
    }
}
