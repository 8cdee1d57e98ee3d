//! Sessions resolved from memory (issue 21: hot reads from memory). Every logged-in request
//! resolves its token; asking the database or Redis each time was most of what an order's
//! detail cost. A token resolved by the store underneath is trusted for [`MAX_AGE_MS`], then
//! asked about again (which also slides its expiry, as before).
//!
//! Ending sessions (logout, password change or reset, account closed) takes effect at once on
//! this node: the entries go before the call returns, and a resolve that read the store while
//! they went does not put its answer back (the epoch check). Then `Event::SessionsEnded` goes
//! on the sessions channel, which every node hears (this one too): the others drop their
//! entries, and every node's real-time gateway disconnects the sockets of the ended sessions
//! (`realtime::gateway::sessions`). A node that missed the message (Redis down, nodes without
//! a bus between them) stops honouring the ended session within `MAX_AGE_MS`, the bound
//! docs/security.md states.

use super::{Session, SessionError, SessionStore, StoreError};
use crate::accounts::secrets::Token;
use crate::bus::{Bus, Event};
// foldhash: randomly seeded like std's SipHash, and several times faster on these per-request
// lookups (docs/benchmarks.md).
use foldhash::{HashMap, HashMapExt};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock, Weak};
use tokio::sync::broadcast::error::RecvError;

/// How long a resolved session is trusted without asking the store again.
pub const MAX_AGE_MS: i64 = 5_000;
/// How many tokens are kept at most unless `[memory] sessions` says otherwise (a flood of
/// made-up tokens never gets in: only tokens the store resolved are kept). An entry serves for
/// [`MAX_AGE_MS`] only, so this covers every customer active within those seconds.
pub const DEFAULT_CAPACITY: usize = 20_000;

/// A session as last found, under its token.
///
/// Keyed by the token itself, not its hash: the hash is what the store keys on (a leaked table
/// holds no usable token), but this map lives in the process that reads every token anyway,
/// and the SHA-256 was most of what a logged-in read cost once the rest came from memory.
#[derive(Clone)]
struct Entry {
    user_id: i64,
    token_hash: Arc<str>,
    checked_at: i64,
}

pub struct CachedSessions {
    inner: Arc<dyn SessionStore>,
    entries: RwLock<HashMap<String, Entry>>,
    /// Moves whenever sessions end: a resolve that started before does not keep its answer.
    epoch: AtomicU64,
    peers: Option<Arc<dyn Bus>>,
    capacity: usize,
}

impl CachedSessions {
    /// `peers`: the sessions channel (Redis between the nodes, or in process on one; None:
    /// nobody is told).
    pub fn start(inner: Arc<dyn SessionStore>, peers: Option<Arc<dyn Bus>>) -> Arc<CachedSessions> {
        CachedSessions::start_with_capacity(inner, peers, DEFAULT_CAPACITY)
    }

    /// At most `capacity` tokens kept.
    pub fn start_with_capacity(
        inner: Arc<dyn SessionStore>,
        peers: Option<Arc<dyn Bus>>,
        capacity: usize,
    ) -> Arc<CachedSessions> {
        let cached = Arc::new(CachedSessions {
            inner,
            entries: RwLock::new(HashMap::new()),
            epoch: AtomicU64::new(0),
            peers: peers.clone(),
            capacity,
        });
        if let Some(bus) = peers {
            tokio::spawn(listen(Arc::downgrade(&cached), bus.subscribe()));
        }
        cached
    }

    fn forget(&self, user_id: i64, keep: Option<&str>) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        self.entries
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|_, e| e.user_id != user_id || Some(&*e.token_hash) == keep);
    }

    fn forget_all(&self) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        self.entries
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// Tells the nodes (after the store ended the sessions): they forget every session of the
    /// user they hold and ask the store again, which knows which ones remain, and so do their
    /// gateways for the user's sockets.
    async fn tell_peers(&self, user_id: i64) {
        if let Some(bus) = &self.peers {
            if let Err(e) = bus.publish(&Event::SessionsEnded { user_id }).await {
                tracing::warn!(error = %e, user_id, "nodes not told of ended sessions; they stop within 5 s, sockets at their next join");
            }
        }
    }

    /// Drops the tokens too old to be trusted at `now` (the housekeeping's memory sweep): they
    /// would be asked about again anyway, and an idle node gives their memory back.
    pub fn sweep(&self, now: i64) {
        self.entries
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|_, e| is_fresh(e, now));
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// Checked at or before `now` and younger than [`MAX_AGE_MS`].
fn is_fresh(entry: &Entry, now: i64) -> bool {
    now >= entry.checked_at && now - entry.checked_at < MAX_AGE_MS
}

async fn listen(weak: Weak<CachedSessions>, mut events: tokio::sync::broadcast::Receiver<Event>) {
    loop {
        let event = events.recv().await;
        let Some(sessions) = weak.upgrade() else {
            break;
        };
        match event {
            Ok(Event::SessionsEnded { user_id }) => sessions.forget(user_id, None),
            Ok(_) => {}
            // Which sessions ended is lost with the messages: ask the store about all of them.
            Err(RecvError::Lagged(_)) => sessions.forget_all(),
            Err(RecvError::Closed) => break,
        }
    }
}

#[async_trait::async_trait]
impl SessionStore for CachedSessions {
    async fn create(&self, user_id: i64, now: i64) -> Result<(Token, i64), StoreError> {
        self.inner.create(user_id, now).await
    }

    async fn resolve(&self, token: &Token, now: i64) -> Result<Session, SessionError> {
        if let Some(session) = self.held(token.expose(), now) {
            return Ok(session);
        }
        let epoch = self.epoch.load(Ordering::SeqCst);
        let session = self.inner.resolve(token, now).await;
        let mut entries = self.entries.write().unwrap_or_else(PoisonError::into_inner);
        match &session {
            Ok(s) if self.epoch.load(Ordering::SeqCst) == epoch && self.capacity > 0 => {
                if entries.len() >= self.capacity {
                    entries.retain(|_, e| is_fresh(e, now));
                }
                // Still full of fresh tokens (a burst): start again empty, as before; every
                // token dropped is only asked about once more.
                if entries.len() >= self.capacity {
                    entries.clear();
                }
                entries.insert(
                    token.expose().to_owned(),
                    Entry {
                        user_id: s.user_id,
                        token_hash: s.token_hash.as_str().into(),
                        checked_at: now,
                    },
                );
            }
            Ok(_) => {}
            Err(_) => {
                entries.remove(token.expose());
            }
        }
        session
    }

    fn held(&self, token: &str, now: i64) -> Option<Session> {
        let entries = self.entries.read().unwrap_or_else(PoisonError::into_inner);
        let e = entries.get(token)?;
        is_fresh(e, now).then(|| Session {
            user_id: e.user_id,
            token_hash: e.token_hash.to_string(),
        })
    }

    async fn revoke(&self, session: &Session) -> Result<(), StoreError> {
        self.inner.revoke(session).await?;
        self.epoch.fetch_add(1, Ordering::SeqCst);
        // Logging out is rare; the entries are looked through for the one of this session.
        self.entries
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|_, e| *e.token_hash != *session.token_hash);
        self.tell_peers(session.user_id).await;
        Ok(())
    }

    async fn revoke_user(&self, user_id: i64) -> Result<(), StoreError> {
        self.inner.revoke_user(user_id).await?;
        self.forget(user_id, None);
        self.tell_peers(user_id).await;
        Ok(())
    }

    async fn revoke_others(&self, user_id: i64, keep: &Session) -> Result<(), StoreError> {
        self.inner.revoke_others(user_id, keep).await?;
        self.forget(user_id, Some(&keep.token_hash));
        self.tell_peers(user_id).await;
        Ok(())
    }

    async fn purge_expired(&self, now: i64) -> Result<u64, StoreError> {
        self.inner.purge_expired(now).await
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::sync::Mutex;

    /// A store that counts its resolves and whose sessions can be ended behind the cache's
    /// back (as another node would).
    #[derive(Default)]
    struct Counting {
        live: Mutex<HashMap<String, i64>>,
        resolves: AtomicUsize,
        /// Held by a test to stop a resolve between reading and answering.
        gate: tokio::sync::Mutex<()>,
    }

    #[async_trait::async_trait]
    impl SessionStore for Counting {
        async fn create(&self, user_id: i64, _now: i64) -> Result<(Token, i64), StoreError> {
            let token = Token::generate();
            self.live.lock().unwrap().insert(token.hash(), user_id);
            Ok((token, i64::MAX))
        }
        async fn resolve(&self, token: &Token, _now: i64) -> Result<Session, SessionError> {
            self.resolves.fetch_add(1, Ordering::SeqCst);
            let hash = token.hash();
            let user_id = *self
                .live
                .lock()
                .unwrap()
                .get(&hash)
                .ok_or(SessionError::Expired)?;
            let _pass = self.gate.lock().await;
            Ok(Session {
                user_id,
                token_hash: hash,
            })
        }
        async fn revoke(&self, session: &Session) -> Result<(), StoreError> {
            self.live.lock().unwrap().remove(&session.token_hash);
            Ok(())
        }
        async fn revoke_user(&self, user_id: i64) -> Result<(), StoreError> {
            self.live.lock().unwrap().retain(|_, u| *u != user_id);
            Ok(())
        }
        async fn revoke_others(&self, user_id: i64, keep: &Session) -> Result<(), StoreError> {
            self.live
                .lock()
                .unwrap()
                .retain(|h, u| *u != user_id || *h == keep.token_hash);
            Ok(())
        }
        async fn purge_expired(&self, _now: i64) -> Result<u64, StoreError> {
            Ok(0)
        }
    }

    fn cached(store: &Arc<Counting>, peers: Option<Arc<dyn Bus>>) -> Arc<CachedSessions> {
        CachedSessions::start(store.clone(), peers)
    }

    #[tokio::test]
    async fn the_tokens_kept_stay_under_the_bound_and_stale_ones_are_swept() {
        let store = Arc::new(Counting::default());
        let sessions = CachedSessions::start_with_capacity(store.clone(), None, 100);
        for n in 0..1_000 {
            let (t, _) = sessions.create(1, 0).await.unwrap();
            sessions.resolve(&t, n).await.unwrap();
            assert!(sessions.len() <= 100, "{} tokens after {n}", sessions.len());
        }
        sessions.sweep(999 + MAX_AGE_MS - 1);
        assert!(sessions.len() > 0, "the fresh ones stay");
        sessions.sweep(999 + MAX_AGE_MS);
        assert_eq!(sessions.len(), 0, "all stale");
    }

    #[tokio::test]
    async fn a_session_is_asked_about_once_per_max_age_and_ends_at_once_here() {
        let store = Arc::new(Counting::default());
        let sessions = cached(&store, None);
        let (a, _) = sessions.create(1, 0).await.unwrap();
        let (b, _) = sessions.create(1, 0).await.unwrap();
        let (c, _) = sessions.create(2, 0).await.unwrap();
        for now in [0, 10, MAX_AGE_MS - 1] {
            assert_eq!(sessions.resolve(&a, now).await.unwrap().user_id, 1);
        }
        assert_eq!(store.resolves.load(Ordering::SeqCst), 1);
        sessions.resolve(&a, MAX_AGE_MS).await.unwrap();
        assert_eq!(
            store.resolves.load(Ordering::SeqCst),
            2,
            "asked again after the max age"
        );

        // Logout: that token at once, the user's other one untouched.
        let sa = sessions.resolve(&a, MAX_AGE_MS).await.unwrap();
        sessions.resolve(&b, MAX_AGE_MS).await.unwrap();
        sessions.revoke(&sa).await.unwrap();
        assert!(sessions.resolve(&a, MAX_AGE_MS + 1).await.is_err());
        assert!(sessions.resolve(&b, MAX_AGE_MS + 1).await.is_ok());

        // Password changed on b's device: every other session of the user ends, b stays.
        let (d, _) = sessions.create(1, 0).await.unwrap();
        sessions.resolve(&d, MAX_AGE_MS).await.unwrap();
        let sb = sessions.resolve(&b, MAX_AGE_MS).await.unwrap();
        sessions.revoke_others(1, &sb).await.unwrap();
        assert!(sessions.resolve(&d, MAX_AGE_MS + 2).await.is_err());
        assert!(sessions.resolve(&b, MAX_AGE_MS + 2).await.is_ok());

        // Account closed: all of the user's; another user's stays.
        sessions.resolve(&c, MAX_AGE_MS).await.unwrap();
        sessions.revoke_user(1).await.unwrap();
        assert!(sessions.resolve(&b, MAX_AGE_MS + 3).await.is_err());
        assert!(sessions.resolve(&c, MAX_AGE_MS + 3).await.is_ok());
    }

    #[tokio::test]
    async fn a_session_ended_on_another_node_ends_here_on_the_bus_or_within_the_max_age() {
        let store = Arc::new(Counting::default());
        let bus: Arc<dyn Bus> = Arc::new(crate::bus::LocalBus::new());
        let here = cached(&store, Some(bus.clone()));
        let there = cached(&store, Some(bus.clone()));
        let (t, _) = here.create(7, 0).await.unwrap();
        here.resolve(&t, 0).await.unwrap();
        there.resolve(&t, 0).await.unwrap();
        there.revoke_user(7).await.unwrap();
        // The message travels through a task: wait for it, then the ended token is refused
        // well within the max age.
        for _ in 0..100 {
            if here.len() == 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        assert!(here.resolve(&t, 1).await.is_err());

        // Without a bus: honoured until the max age, never after.
        let lonely = cached(&store, None);
        let (u, _) = lonely.create(8, 0).await.unwrap();
        lonely.resolve(&u, 0).await.unwrap();
        store.revoke_user(8).await.unwrap();
        assert!(lonely.resolve(&u, MAX_AGE_MS - 1).await.is_ok());
        assert!(lonely.resolve(&u, MAX_AGE_MS).await.is_err());
    }

    #[tokio::test]
    async fn a_resolve_racing_a_logout_does_not_bring_the_session_back() {
        // The store has read "valid" when the session ends; its answer arrives after the
        // logout returned. It is answered (the request began before the logout) but not kept.
        let store = Arc::new(Counting::default());
        let sessions = cached(&store, None);
        let (t, _) = sessions.create(3, 0).await.unwrap();
        let session = Session {
            user_id: 3,
            token_hash: t.hash(),
        };
        let gate = store.gate.lock().await;
        let racing = {
            let (sessions, t) = (sessions.clone(), Token::from_client(t.expose()));
            tokio::spawn(async move { sessions.resolve(&t, 0).await })
        };
        while store.resolves.load(Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
        sessions.revoke(&session).await.unwrap();
        drop(gate);
        assert!(racing.await.unwrap().is_ok());
        assert_eq!(sessions.len(), 0, "the stale answer is not kept");
        assert!(sessions.resolve(&t, 1).await.is_err());
    }
}
