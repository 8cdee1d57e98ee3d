//! Answers that many customers read and that change only with the catalogue, a store's board
//! or the clock's second (the store card, the menu, a product) are serialised once and kept,
//! so the next reader gets the same bytes without building, serialising or even copying them
//! again ([`CachedReply`] writes them as they are; docs/benchmarks.md: serialising the 26 KB
//! menu was most of its cost).
//!
//! An entry is stamped with what it was built from: the catalogue snapshot and the store's
//! board (by identity: a reload makes new ones), and the second of the time it was asked for.
//! A reader whose stamp differs builds the answer again and replaces the entry, so nothing is
//! ever served from an older catalogue, board or second than the one the reader holds; there is
//! no expiry to tune. Time rules (opening hours, time-limited products, promotions) are read to
//! the second, so every instant of a second answers alike, except the second's first
//! millisecond, which a window ending on that second still includes (`Stamp::on_the_second`).
//!
//! The identities are weak references: they keep an old snapshot's allocation from being
//! reused (so a stamp can never match a different snapshot) without keeping its contents alive.

use actix_web::body::{BodySize, MessageBody};
use actix_web::{HttpRequest, HttpResponse, Responder};
use actors::catalogue::Snapshot;
use actors::domain::stores::store_board::Board;
use bytes::Bytes;
use serde::Serialize;
// foldhash: randomly seeded like std's SipHash, and several times faster on these per-request
// lookups (docs/benchmarks.md).
use foldhash::HashMap;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, PoisonError, RwLock, Weak};
use std::task::{Context, Poll};

/// More entries than this and the cache starts again empty: the keys are stores × order types
/// × languages × products, a few thousand for a chain; a flood of made-up keys cannot grow it.
const MAX_ENTRIES: usize = 8_192;

/// What an answer was built from.
#[derive(Clone)]
pub struct Stamp {
    snapshot: Weak<Snapshot>,
    board: Weak<Board>,
    second: i64,
    on_the_second: bool,
}

impl Stamp {
    /// `at_ms`: the time the answer is for (now, or the order time asked about).
    pub fn new(snapshot: &Arc<Snapshot>, board: &Arc<Board>, at_ms: i64) -> Stamp {
        Stamp {
            snapshot: Arc::downgrade(snapshot),
            board: Arc::downgrade(board),
            second: at_ms.div_euclid(1000),
            on_the_second: at_ms.rem_euclid(1000) == 0,
        }
    }

    fn same(&self, other: &Stamp) -> bool {
        self.second == other.second
            && self.on_the_second == other.on_the_second
            && Weak::ptr_eq(&self.snapshot, &other.snapshot)
            && Weak::ptr_eq(&self.board, &other.board)
    }
}

/// An answer's `data`, serialised once: every reader gets the same bytes, shared, not copied.
#[derive(Clone, Debug)]
pub struct SharedJson(Bytes);

impl SharedJson {
    pub fn of<T: Serialize>(value: &T) -> Result<SharedJson, serde_json::Error> {
        Ok(SharedJson(Bytes::from(serde_json::to_vec(value)?)))
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

const ENVELOPE_HEAD: &[u8] = br#"{"errCode":"00","errMsg":"","data":"#;

/// A success envelope around kept `data`, written as three pieces (the envelope's head, the
/// kept bytes, the closing brace) so the kept bytes go out without being copied or parsed.
/// The headers are [`Reply`](crate::http::edge::envelope::Reply)'s.
pub struct CachedReply {
    head: Bytes,
    data: Bytes,
    max_age_seconds: Option<u32>,
}

impl CachedReply {
    pub fn new(data: SharedJson) -> CachedReply {
        CachedReply {
            head: Bytes::from_static(ENVELOPE_HEAD),
            data: data.0,
            max_age_seconds: None,
        }
    }

    /// The same, with `"name": value` written first into `data` (an object): for the one field
    /// of an answer that the kept bytes cannot hold (the menu's exact order time).
    pub fn with_first_field(data: SharedJson, name: &str, value: i64) -> CachedReply {
        let bytes = data.0;
        let empty = bytes.as_ref() == b"{}";
        if bytes.first() != Some(&b'{') {
            return CachedReply::new(SharedJson(bytes));
        }
        let sep = if empty { "" } else { "," };
        let mut head = ENVELOPE_HEAD.to_vec();
        head.extend_from_slice(format!("{{\"{name}\":{value}{sep}").as_bytes());
        CachedReply {
            head: Bytes::from(head),
            data: bytes.slice(1..),
            max_age_seconds: None,
        }
    }

    pub fn cached_for(mut self, seconds: u32) -> CachedReply {
        self.max_age_seconds = Some(seconds);
        self
    }
}

impl Responder for CachedReply {
    type Body = Pieces;

    fn respond_to(self, _req: &HttpRequest) -> HttpResponse<Pieces> {
        crate::http::edge::envelope::ok_json(
            self.max_age_seconds,
            Pieces {
                pieces: [self.head, self.data, Bytes::from_static(b"}")],
                next: 0,
            },
        )
    }
}

/// A body of a few byte buffers sent one after the other, its length known up front.
pub struct Pieces {
    pieces: [Bytes; 3],
    next: usize,
}

impl MessageBody for Pieces {
    type Error = Infallible;

    fn size(&self) -> BodySize {
        BodySize::Sized(self.pieces.iter().map(|p| p.len() as u64).sum())
    }

    fn poll_next(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Infallible>>> {
        let this = self.get_mut();
        while let Some(piece) = this.pieces.get_mut(this.next) {
            this.next += 1;
            let piece = std::mem::take(piece);
            if !piece.is_empty() {
                return Poll::Ready(Some(Ok(piece)));
            }
        }
        Poll::Ready(None)
    }
}

#[derive(Default)]
pub struct ReplyCache {
    entries: RwLock<HashMap<String, (Stamp, SharedJson)>>,
}

/// A kept reply's key: its parts joined by `/` (what `format!` would write, without the
/// formatting machinery on every read).
pub fn key(parts: &[&str]) -> String {
    let mut key = String::with_capacity(parts.iter().map(|p| p.len() + 1).sum());
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            key.push('/');
        }
        key.push_str(part);
    }
    key
}

impl ReplyCache {
    /// The answer kept under `key` when it was built from what `stamp` says; else `build`'s,
    /// kept for the next reader. An error from `build` is returned and nothing is kept.
    pub async fn get_or_build<T, E, F>(
        &self,
        key: String,
        stamp: Stamp,
        build: F,
    ) -> Result<SharedJson, E>
    where
        T: Serialize,
        F: std::future::Future<Output = Result<T, E>>,
        E: From<serde_json::Error>,
    {
        if let Some(json) = self.hit(&key, &stamp) {
            return Ok(json);
        }
        let json = SharedJson::of(&build.await?)?;
        let mut entries = self.entries.write().unwrap_or_else(PoisonError::into_inner);
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(key, (stamp, json.clone()));
        Ok(json)
    }

    fn hit(&self, key: &str, stamp: &Stamp) -> Option<SharedJson> {
        let entries = self.entries.read().unwrap_or_else(PoisonError::into_inner);
        let (held, json) = entries.get(key)?;
        held.same(stamp).then(|| json.clone())
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn keys_are_the_parts_joined_as_format_would() {
        assert_eq!(
            key(&["store", "SH001", "zh"]),
            format!("store/{}/{}", "SH001", "zh")
        );
        assert_eq!(key(&["menu", "SH001", "0", "en"]), "menu/SH001/0/en");
        assert_eq!(key(&["one"]), "one");
        assert_eq!(key(&[]), "");
        // Different parts give different keys.
        assert_ne!(key(&["product", "P1", "S1"]), key(&["product", "P1S1"]));
    }

    fn snapshot() -> Arc<Snapshot> {
        let empty = serde_json::json!({"cities": [], "districts": [], "stores": [],
            "categories": [], "products": [], "hotWords": []});
        Arc::new(Snapshot::new(serde_json::from_value(empty).unwrap()))
    }

    async fn get(cache: &ReplyCache, key: &str, stamp: &Stamp, builds: &AtomicU32) -> String {
        let n = builds.fetch_add(1, Ordering::SeqCst) + 1;
        let json = cache
            .get_or_build::<_, serde_json::Error, _>(key.into(), stamp.clone(), async move {
                Ok(serde_json::json!({ "build": n }))
            })
            .await
            .unwrap();
        String::from_utf8(json.0.to_vec()).unwrap()
    }

    #[tokio::test]
    async fn an_answer_is_reused_only_for_the_same_snapshot_board_and_second() {
        let cache = ReplyCache::default();
        let builds = AtomicU32::new(0);
        let (s1, b1) = (snapshot(), Arc::new(Board::default()));
        let at = 1_764_000_000_123;
        let first = get(&cache, "k", &Stamp::new(&s1, &b1, at), &builds).await;
        assert_eq!(first, r#"{"build":1}"#);
        // Later in the same second: the kept bytes (the build counter moved, the answer did not).
        assert_eq!(
            get(&cache, "k", &Stamp::new(&s1, &b1, at + 800), &builds).await,
            first
        );

        let cases: Vec<(&str, Stamp)> = vec![
            ("next second", Stamp::new(&s1, &b1, at + 1_000)),
            (
                "the second's first millisecond",
                Stamp::new(&s1, &b1, 1_764_000_001_000),
            ),
            (
                "a new board",
                Stamp::new(&s1, &Arc::new(Board::default()), 1_764_000_001_000),
            ),
            (
                "a new catalogue",
                Stamp::new(&snapshot(), &b1, 1_764_000_001_000),
            ),
        ];
        let mut last = first;
        for (what, stamp) in cases {
            let again = get(&cache, "k", &stamp, &builds).await;
            assert_ne!(again, last, "{what}: built again");
            last = again;
        }
        // Another key never sees this one's answer.
        assert_ne!(
            get(&cache, "other", &Stamp::new(&s1, &b1, at), &builds).await,
            last
        );
    }

    #[tokio::test]
    async fn a_dropped_snapshot_never_matches_a_new_one_at_the_same_address() {
        let cache = ReplyCache::default();
        let builds = AtomicU32::new(0);
        let board = Arc::new(Board::default());
        let at = 5_000;
        let old = snapshot();
        let first = get(&cache, "k", &Stamp::new(&old, &board, at), &builds).await;
        drop(old);
        for _ in 0..50 {
            let fresh = snapshot();
            assert_ne!(
                get(&cache, "k", &Stamp::new(&fresh, &board, at), &builds).await,
                first
            );
        }
    }

    #[tokio::test]
    async fn failed_builds_keep_nothing_and_the_cache_is_bounded() {
        let cache = ReplyCache::default();
        let (s, b) = (snapshot(), Arc::new(Board::default()));
        let failed = cache
            .get_or_build::<serde_json::Value, serde_json::Error, _>(
                "k".into(),
                Stamp::new(&s, &b, 0),
                async { Err(serde::ser::Error::custom("no such product")) },
            )
            .await;
        assert!(failed.is_err());
        assert_eq!(cache.len(), 0);
        let builds = AtomicU32::new(0);
        for i in 0..MAX_ENTRIES + 10 {
            get(&cache, &format!("k{i}"), &Stamp::new(&s, &b, 0), &builds).await;
        }
        assert!(cache.len() <= MAX_ENTRIES);
    }

    async fn written(reply: CachedReply) -> (serde_json::Value, Option<u64>) {
        let req = actix_web::test::TestRequest::default().to_http_request();
        let body = reply.respond_to(&req).into_body();
        let declared = match body.size() {
            BodySize::Sized(n) => Some(n),
            _ => None,
        };
        let bytes = actix_web::body::to_bytes(body).await.unwrap();
        assert_eq!(
            declared,
            Some(bytes.len() as u64),
            "Content-Length is the body's"
        );
        (serde_json::from_slice(&bytes).unwrap(), declared)
    }

    #[actix_web::test]
    async fn kept_data_is_written_in_a_success_envelope_with_an_optional_first_field() {
        let cases = [
            (serde_json::json!({"a": 1, "b": [1, 2]}), None),
            (serde_json::json!({"a": 1}), Some(1_764_000_000_123_i64)),
            (serde_json::json!({}), Some(7)),
            (serde_json::json!([1, 2]), None),
            (serde_json::json!("text"), None),
        ];
        for (data, first) in cases {
            let kept = SharedJson::of(&data).unwrap();
            let reply = match first {
                Some(v) => CachedReply::with_first_field(kept, "orderTime", v),
                None => CachedReply::new(kept),
            };
            let (json, _) = written(reply).await;
            let mut expected = data.clone();
            if let (Some(v), Some(obj)) = (first, expected.as_object_mut()) {
                obj.insert("orderTime".into(), v.into());
            }
            assert_eq!(
                json,
                serde_json::json!({"errCode": "00", "errMsg": "", "data": expected}),
                "{data}"
            );
        }
    }
}
