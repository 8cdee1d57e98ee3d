//! Whether a store has a tablet online, across nodes, and since when it has none: a paid order
//! that no tablet can see is the one failure a store must hear about from the chain.
//!
//! In process (the embedded default) the node's own tablets are the truth. With Redis, every
//! node writes its tablets into one sorted set per store, scored by when it last vouched for
//! them; a node refreshes its own every `HEARTBEAT_MS`, so the tablets of a node that died
//! fall out after `STALE_MS` without anyone removing them.

use async_trait::async_trait;
use redis::aio::ConnectionManager;
use redis::AsyncCommands;
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

pub const HEARTBEAT_MS: i64 = 10_000;
pub const STALE_MS: i64 = 30_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PresenceStatus {
    /// Tablets connected now (on any node).
    pub online: u32,
    /// With none online: since when (the last one left), or since this node started when none
    /// was seen at all. None while one is online.
    pub none_since: Option<i64>,
}

#[async_trait]
pub trait TabletPresence: Send + Sync {
    /// A tablet of `store` connected (`tablet`: its socket id).
    async fn connected(&self, store: &str, tablet: &str, now: i64);
    async fn disconnected(&self, store: &str, tablet: &str, now: i64);
    /// Vouches again for this node's tablets (a no-op in process).
    async fn heartbeat(&self, now: i64);
    async fn status(&self, store: &str, now: i64) -> PresenceStatus;
}

/// This node's tablets, by store, and when each store last lost its last one.
#[derive(Default)]
struct Local {
    tablets: HashMap<String, HashSet<String>>,
    left_at: HashMap<String, i64>,
}

impl Local {
    fn add(&mut self, store: &str, tablet: &str) {
        self.tablets
            .entry(store.to_string())
            .or_default()
            .insert(tablet.to_string());
    }

    fn remove(&mut self, store: &str, tablet: &str, now: i64) {
        if let Some(set) = self.tablets.get_mut(store) {
            set.remove(tablet);
            if set.is_empty() {
                self.tablets.remove(store);
                self.left_at.insert(store.to_string(), now);
            }
        }
    }

    fn count(&self, store: &str) -> u32 {
        self.tablets.get(store).map_or(0, |s| s.len() as u32)
    }
}

fn lock(m: &Mutex<Local>) -> std::sync::MutexGuard<'_, Local> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The embedded default: one node, its own tablets.
pub struct LocalPresence {
    started_at: i64,
    local: Mutex<Local>,
}

impl LocalPresence {
    pub fn new(started_at: i64) -> LocalPresence {
        LocalPresence {
            started_at,
            local: Mutex::default(),
        }
    }
}

#[async_trait]
impl TabletPresence for LocalPresence {
    async fn connected(&self, store: &str, tablet: &str, _now: i64) {
        lock(&self.local).add(store, tablet);
    }

    async fn disconnected(&self, store: &str, tablet: &str, now: i64) {
        lock(&self.local).remove(store, tablet, now);
    }

    async fn heartbeat(&self, _now: i64) {}

    async fn status(&self, store: &str, _now: i64) -> PresenceStatus {
        let local = lock(&self.local);
        let online = local.count(store);
        PresenceStatus {
            online,
            none_since: (online == 0)
                .then(|| local.left_at.get(store).copied().unwrap_or(self.started_at)),
        }
    }
}

/// Every node's tablets in Redis: `<prefix>tablets:{store}` (member: socket id, score: last
/// vouched for) and `<prefix>tablets-left:{store}` (when the last one left).
pub struct RedisPresence {
    conn: ConnectionManager,
    prefix: String,
    started_at: i64,
    /// This node's own tablets, to vouch for at each heartbeat.
    local: Mutex<Local>,
}

impl RedisPresence {
    pub async fn connect(
        url: &str,
        prefix: &str,
        started_at: i64,
    ) -> Result<RedisPresence, redis::RedisError> {
        let conn = redis::Client::open(url)?.get_connection_manager().await?;
        Ok(RedisPresence {
            conn,
            prefix: prefix.to_string(),
            started_at,
            local: Mutex::default(),
        })
    }

    fn set_key(&self, store: &str) -> String {
        format!("{}tablets:{store}", self.prefix)
    }

    fn left_key(&self, store: &str) -> String {
        format!("{}tablets-left:{store}", self.prefix)
    }
}

#[async_trait]
impl TabletPresence for RedisPresence {
    async fn connected(&self, store: &str, tablet: &str, now: i64) {
        lock(&self.local).add(store, tablet);
        let mut conn = self.conn.clone();
        let done: Result<(), _> = conn.zadd(self.set_key(store), tablet, now).await;
        if let Err(e) = done {
            tracing::warn!(error = %e, store, "tablet presence not written");
        }
    }

    async fn disconnected(&self, store: &str, tablet: &str, now: i64) {
        lock(&self.local).remove(store, tablet, now);
        let mut conn = self.conn.clone();
        let done: Result<(), _> = redis::pipe()
            .zrem(self.set_key(store), tablet)
            .ignore()
            .set(self.left_key(store), now)
            .ignore()
            .query_async(&mut conn)
            .await;
        if let Err(e) = done {
            tracing::warn!(error = %e, store, "tablet presence not removed");
        }
    }

    async fn heartbeat(&self, now: i64) {
        let mine: Vec<(String, Vec<String>)> = lock(&self.local)
            .tablets
            .iter()
            .map(|(store, set)| (store.clone(), set.iter().cloned().collect()))
            .collect();
        let mut pipe = redis::pipe();
        for (store, tablets) in &mine {
            let key = self.set_key(store);
            for tablet in tablets {
                pipe.zadd(&key, tablet, now).ignore();
            }
            // The entries of dead nodes, and this set itself once unused for a day.
            pipe.zrembyscore(&key, 0, now - STALE_MS).ignore();
            pipe.expire(&key, 86_400).ignore();
        }
        let mut conn = self.conn.clone();
        if let Err(e) = pipe.query_async::<()>(&mut conn).await {
            tracing::warn!(error = %e, "tablet presence heartbeat failed");
        }
    }

    async fn status(&self, store: &str, now: i64) -> PresenceStatus {
        let mut conn = self.conn.clone();
        let read: Result<(u32, Option<i64>, Vec<(String, i64)>), _> = redis::pipe()
            .zcount(self.set_key(store), now - STALE_MS, "+inf")
            .get(self.left_key(store))
            .zrange_withscores(self.set_key(store), -1, -1)
            .query_async(&mut conn)
            .await;
        match read {
            Ok((online, left, newest)) => PresenceStatus {
                online,
                none_since: (online == 0).then(|| {
                    // The last one left, or its node stopped vouching for it.
                    let stale = newest.first().map(|(_, at)| *at);
                    left.into_iter()
                        .chain(stale)
                        .max()
                        .unwrap_or(self.started_at)
                }),
            },
            Err(e) => {
                tracing::warn!(error = %e, store, "tablet presence not read; answering this node's");
                let local = lock(&self.local);
                let online = local.count(store);
                PresenceStatus {
                    online,
                    none_since: (online == 0).then_some(self.started_at),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_last_tablet_leaving_starts_the_clock() {
        let p = LocalPresence::new(1_000);
        assert_eq!(
            p.status("SH001", 2_000).await,
            PresenceStatus {
                online: 0,
                none_since: Some(1_000)
            },
            "never seen: since the node started"
        );
        p.connected("SH001", "a", 3_000).await;
        p.connected("SH001", "b", 3_100).await;
        p.connected("SH002", "c", 3_100).await;
        assert_eq!(
            p.status("SH001", 3_200).await,
            PresenceStatus {
                online: 2,
                none_since: None
            }
        );
        p.disconnected("SH001", "a", 4_000).await;
        assert_eq!(p.status("SH001", 4_000).await.online, 1);
        p.disconnected("SH001", "b", 5_000).await;
        assert_eq!(
            p.status("SH001", 6_000).await,
            PresenceStatus {
                online: 0,
                none_since: Some(5_000)
            }
        );
        assert_eq!(p.status("SH002", 6_000).await.online, 1, "per store");
        p.disconnected("SH001", "b", 7_000).await;
        assert_eq!(
            p.status("SH001", 7_000).await.none_since,
            Some(5_000),
            "a repeated disconnect changes nothing"
        );
    }
}
