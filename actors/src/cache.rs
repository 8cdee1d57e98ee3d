//! A small in-memory cache with a lifetime per entry and a size bound (the oldest entry goes
//! first when full). Thread-safe behind one mutex; values are cloned out. The time source is
//! injectable so tests can move time instead of sleeping.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Longer lifetimes are cut to this (an `Instant` cannot reach arbitrarily far).
const MAX_TTL: Duration = Duration::from_secs(10 * 365 * 24 * 3600);

/// Where a cache reads the time.
pub type Now = Arc<dyn Fn() -> Instant + Send + Sync>;

/// The real monotonic clock.
pub fn system_now() -> Now {
    Arc::new(Instant::now)
}

/// A clock for tests: stands still until `advance`d. Clones share the same time.
#[derive(Clone, Debug)]
pub struct ManualClock {
    base: Instant,
    offset_ms: Arc<AtomicU64>,
}

impl Default for ManualClock {
    fn default() -> Self {
        ManualClock::new()
    }
}

impl ManualClock {
    pub fn new() -> ManualClock {
        ManualClock {
            base: Instant::now(),
            offset_ms: Arc::new(AtomicU64::new(0)),
        }
    }

    pub fn advance(&self, by: Duration) {
        let ms = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
        self.offset_ms.fetch_add(ms, Ordering::SeqCst);
    }

    pub fn now(&self) -> Instant {
        self.base + Duration::from_millis(self.offset_ms.load(Ordering::SeqCst))
    }

    /// This clock as a cache's time source.
    pub fn as_now(&self) -> Now {
        let clock = self.clone();
        Arc::new(move || clock.now())
    }
}

struct Entry<V> {
    value: V,
    expires: Instant,
    /// Insertion order, for evicting the oldest.
    seq: u64,
}

struct Inner<K, V> {
    map: HashMap<K, Entry<V>>,
    next_seq: u64,
}

pub struct TtlCache<K, V> {
    inner: Mutex<Inner<K, V>>,
    capacity: usize,
    now: Now,
}

impl<K, V> std::fmt::Debug for TtlCache<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TtlCache")
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

impl<K: Eq + Hash, V: Clone> TtlCache<K, V> {
    /// A cache of at most `capacity` entries on the system clock.
    pub fn new(capacity: usize) -> TtlCache<K, V> {
        TtlCache::with_clock(capacity, system_now())
    }

    pub fn with_clock(capacity: usize, now: Now) -> TtlCache<K, V> {
        TtlCache {
            inner: Mutex::new(Inner {
                map: HashMap::new(),
                next_seq: 0,
            }),
            capacity,
            now,
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// A poisoned lock only means another thread panicked mid-operation; every operation
    /// leaves the map consistent, so carry on with it.
    fn lock(&self) -> MutexGuard<'_, Inner<K, V>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The live value for `key`; an expired entry is dropped and reads as absent.
    pub fn get(&self, key: &K) -> Option<V> {
        let now = (self.now)();
        let mut inner = self.lock();
        match inner.map.get(key) {
            Some(entry) if entry.expires > now => Some(entry.value.clone()),
            Some(_) => {
                inner.map.remove(key);
                None
            }
            None => None,
        }
    }

    /// Stores `value` for `ttl`, replacing any entry for `key`. When the cache is full, expired
    /// entries go first, then the oldest insertions.
    pub fn insert(&self, key: K, value: V, ttl: Duration) {
        if self.capacity == 0 || ttl.is_zero() {
            return;
        }
        let now = (self.now)();
        let expires = now.checked_add(ttl.min(MAX_TTL)).unwrap_or(now);
        let mut inner = self.lock();
        if !inner.map.contains_key(&key) && inner.map.len() >= self.capacity {
            inner.map.retain(|_, e| e.expires > now);
            while inner.map.len() >= self.capacity {
                let oldest = inner
                    .map
                    .iter()
                    .min_by_key(|(_, e)| e.seq)
                    .map(|(_, e)| e.seq);
                match oldest {
                    Some(seq) => inner.map.retain(|_, e| e.seq != seq),
                    None => break,
                }
            }
        }
        let seq = inner.next_seq;
        inner.next_seq += 1;
        inner.map.insert(
            key,
            Entry {
                value,
                expires,
                seq,
            },
        );
    }

    /// Live (unexpired) entries.
    pub fn len(&self) -> usize {
        let now = (self.now)();
        self.lock().map.values().filter(|e| e.expires > now).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn remove(&self, key: &K) -> Option<V> {
        self.lock().map.remove(key).map(|e| e.value)
    }

    pub fn clear(&self) {
        self.lock().map.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn make(capacity: usize) -> (TtlCache<&'static str, u32>, ManualClock) {
        let clock = ManualClock::new();
        (TtlCache::with_clock(capacity, clock.as_now()), clock)
    }

    #[test]
    fn entries_live_until_their_ttl() {
        let (cache, clock) = make(10);
        cache.insert("a", 1, Duration::from_secs(30));
        cache.insert("b", 2, Duration::from_secs(600));
        assert_eq!(cache.get(&"a"), Some(1));
        assert_eq!(cache.len(), 2);

        clock.advance(Duration::from_millis(29_999));
        assert_eq!(cache.get(&"a"), Some(1));
        clock.advance(Duration::from_millis(1));
        assert_eq!(cache.get(&"a"), None, "expires at exactly its ttl");
        assert_eq!(cache.get(&"b"), Some(2));
        assert_eq!(cache.len(), 1);

        clock.advance(Duration::from_secs(600));
        assert_eq!(cache.get(&"b"), None);
        assert!(cache.is_empty());
    }

    #[test]
    fn insert_replaces_and_renews() {
        let (cache, clock) = make(10);
        cache.insert("a", 1, Duration::from_secs(10));
        clock.advance(Duration::from_secs(8));
        cache.insert("a", 2, Duration::from_secs(10));
        clock.advance(Duration::from_secs(8));
        assert_eq!(cache.get(&"a"), Some(2));
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn full_cache_evicts_the_oldest() {
        let (cache, _clock) = make(3);
        cache.insert("a", 1, Duration::from_secs(60));
        cache.insert("b", 2, Duration::from_secs(60));
        cache.insert("c", 3, Duration::from_secs(60));
        cache.insert("d", 4, Duration::from_secs(60));
        assert_eq!(cache.len(), 3);
        assert_eq!(cache.get(&"a"), None);
        assert_eq!(cache.get(&"b"), Some(2));
        assert_eq!(cache.get(&"d"), Some(4));

        // Replacing an existing key does not evict anything.
        cache.insert("b", 20, Duration::from_secs(60));
        assert_eq!(cache.len(), 3);
        assert_eq!(cache.get(&"c"), Some(3));
        // b was re-inserted, so c is now the oldest.
        cache.insert("e", 5, Duration::from_secs(60));
        assert_eq!(cache.get(&"c"), None);
        assert_eq!(cache.get(&"b"), Some(20));
    }

    #[test]
    fn full_cache_drops_expired_entries_before_live_ones() {
        let (cache, clock) = make(2);
        cache.insert("old-but-long", 1, Duration::from_secs(600));
        cache.insert("short", 2, Duration::from_secs(5));
        clock.advance(Duration::from_secs(6));
        cache.insert("new", 3, Duration::from_secs(600));
        assert_eq!(cache.get(&"old-but-long"), Some(1));
        assert_eq!(cache.get(&"new"), Some(3));
    }

    #[test]
    fn zero_capacity_or_ttl_stores_nothing() {
        let (cache, _clock) = make(0);
        cache.insert("a", 1, Duration::from_secs(60));
        assert_eq!(cache.get(&"a"), None);
        let (cache, _clock) = make(5);
        cache.insert("a", 1, Duration::ZERO);
        assert_eq!(cache.get(&"a"), None);
    }

    #[test]
    fn remove_and_clear() {
        let (cache, _clock) = make(5);
        cache.insert("a", 1, Duration::from_secs(60));
        cache.insert("b", 2, Duration::from_secs(60));
        assert_eq!(cache.remove(&"a"), Some(1));
        assert_eq!(cache.get(&"a"), None);
        cache.clear();
        assert!(cache.is_empty());
    }

    #[test]
    fn shared_across_threads() {
        let cache: Arc<TtlCache<u32, u32>> = Arc::new(TtlCache::new(1000));
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let cache = Arc::clone(&cache);
                std::thread::spawn(move || {
                    for i in 0..100 {
                        cache.insert(t * 100 + i, i, Duration::from_secs(60));
                    }
                })
            })
            .collect();
        for h in handles {
            assert!(h.join().is_ok());
        }
        assert_eq!(cache.len(), 400);
    }
}
