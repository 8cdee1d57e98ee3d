//! The catalogue read model: the whole catalogue indexed in memory, reloaded from the
//! database when older than its lifetime (spec ordering §9: store lists 30 s). One reload
//! at a time; readers keep the previous snapshot meanwhile.

use crate::db::catalogue::CatalogueRepo;
use crate::db::DbError;
use crate::domain::catalogue::{Catalogue, Category, City, District, Product, Store};
// foldhash: randomly seeded like std's SipHash, and several times faster on these per-request
// lookups (docs/benchmarks.md).
use foldhash::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

/// A catalogue with lookups by code. Built once per reload, shared read-only.
#[derive(Debug)]
pub struct Snapshot {
    pub catalogue: Catalogue,
    stores: HashMap<String, usize>,
    products: HashMap<String, usize>,
    categories: HashMap<String, usize>,
    cities: HashMap<String, usize>,
    districts: HashMap<String, usize>,
}

impl Snapshot {
    pub fn new(catalogue: Catalogue) -> Snapshot {
        fn index<T>(items: &[T], key: impl Fn(&T) -> &str) -> HashMap<String, usize> {
            items
                .iter()
                .enumerate()
                .map(|(i, item)| (key(item).to_string(), i))
                .collect()
        }
        Snapshot {
            stores: index(&catalogue.stores, |s| &s.store_code),
            products: index(&catalogue.products, |p| &p.product_code),
            categories: index(&catalogue.categories, |c| &c.category_code),
            cities: index(&catalogue.cities, |c| &c.city_code),
            districts: index(&catalogue.districts, |d| &d.district_code),
            catalogue,
        }
    }

    pub fn store(&self, code: &str) -> Option<&Store> {
        self.stores.get(code).map(|&i| &self.catalogue.stores[i])
    }

    pub fn product(&self, code: &str) -> Option<&Product> {
        self.products
            .get(code)
            .map(|&i| &self.catalogue.products[i])
    }

    pub fn category(&self, code: &str) -> Option<&Category> {
        self.categories
            .get(code)
            .map(|&i| &self.catalogue.categories[i])
    }

    pub fn city(&self, code: &str) -> Option<&City> {
        self.cities.get(code).map(|&i| &self.catalogue.cities[i])
    }

    pub fn district(&self, code: &str) -> Option<&District> {
        self.districts
            .get(code)
            .map(|&i| &self.catalogue.districts[i])
    }

    pub fn default_store(&self) -> Option<&Store> {
        self.catalogue.stores.iter().find(|s| s.is_default)
    }
}

pub struct CatalogueService {
    repo: CatalogueRepo,
    lifetime: Duration,
    current: RwLock<(Arc<Snapshot>, Instant)>,
    reload: tokio::sync::Mutex<()>,
}

impl CatalogueService {
    /// Loads the first snapshot; fails if the database cannot be read.
    pub async fn start(
        repo: CatalogueRepo,
        lifetime: Duration,
    ) -> Result<CatalogueService, DbError> {
        let snapshot = Arc::new(Snapshot::new(repo.load().await?));
        Ok(CatalogueService {
            repo,
            lifetime,
            current: RwLock::new((snapshot, Instant::now())),
            reload: tokio::sync::Mutex::new(()),
        })
    }

    /// The current snapshot, reloaded first if it has outlived its lifetime. If the reload
    /// fails the previous snapshot keeps serving (and the failure is logged).
    pub async fn get(&self) -> Arc<Snapshot> {
        if let Some(fresh) = self.fresh() {
            return fresh;
        }
        let _guard = self.reload.lock().await;
        if let Some(fresh) = self.fresh() {
            return fresh;
        }
        match self.repo.load().await {
            Ok(catalogue) => {
                let snapshot = Arc::new(Snapshot::new(catalogue));
                if let Ok(mut current) = self.current.write() {
                    *current = (snapshot.clone(), Instant::now());
                }
                snapshot
            }
            Err(err) => {
                tracing::warn!(error = %err, "catalogue reload failed; serving the previous snapshot");
                self.stale()
            }
        }
    }

    /// Drops the snapshot's freshness so the next read reloads (after a write).
    pub fn invalidate(&self) {
        if let Ok(mut current) = self.current.write() {
            current.1 = Instant::now() - self.lifetime - Duration::from_secs(1);
        }
    }

    fn fresh(&self) -> Option<Arc<Snapshot>> {
        let current = self.current.read().ok()?;
        (current.1.elapsed() < self.lifetime).then(|| current.0.clone())
    }

    fn stale(&self) -> Arc<Snapshot> {
        match self.current.read() {
            Ok(current) => current.0.clone(),
            Err(poisoned) => poisoned.into_inner().0.clone(),
        }
    }
}
