//! An order's detail from memory (issue 21: hot reads from memory). A customer watching an
//! order reads its detail again and again; each read asked the database five times. Each node
//! now keeps, per order, what the detail is built from (the order, its history, payments and
//! comment: [`OrderSource`]) and the detail serialised per language, to the second.
//!
//! What keeps it right:
//! - Every order event published on this node (a transition, a payment's result, a tablet
//!   update) drops the order's entry *before* the event goes out ([`ForgettingBus`]): whoever
//!   hears of a change and reads the detail reads it afresh. The same event goes to the other
//!   nodes on a Redis channel of their own (`<key_prefix>order-views`), which drop theirs.
//! - A load that raced a change is not kept (the epoch check), so a change is never undone.
//! - Writes that publish nothing (a comment, a refund retried by the job, a payment attempt
//!   opened) are seen within [`MAX_AGE_MS`]; the handlers that make them here drop the entry.
//! - The second's stamp and the store's board (by identity) guard what the detail computes
//!   from the clock and the store (the arrival time, whether it can still be cancelled).

use crate::http::edge::reply_cache::SharedJson;
use actors::bus::{Bus, BusError, Event};
use actors::db::orders::{OrderEvent, OrderRow};
use actors::db::payments::PaymentRow;
use actors::domain::lang::Lang;
use actors::domain::stores::store_board::Board;
use async_trait::async_trait;
// foldhash: randomly seeded like std's SipHash, and several times faster on these per-request
// lookups (docs/benchmarks.md).
use foldhash::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock, Weak};
use tokio::sync::broadcast::{self, error::RecvError};

/// How long an order's sources are trusted without an event saying they changed.
pub const MAX_AGE_MS: i64 = 2_000;
/// How many orders are kept at most unless `[memory] order_views` says otherwise. An entry
/// serves reads for [`MAX_AGE_MS`] only: a few thousand covers every order watched at once.
pub const DEFAULT_CAPACITY: usize = 5_000;

/// What an order's detail is built from, as read from the database at one moment.
pub struct OrderSource {
    pub order: OrderRow,
    pub history: Vec<OrderEvent>,
    pub payments: Vec<PaymentRow>,
    pub comment: Option<crate::http::orders::detail_dto::CommentDto>,
}

/// One order's sources and its detail as already written, per language and second.
pub struct Entry {
    pub source: Arc<OrderSource>,
    loaded_at: i64,
    written: Mutex<Vec<Written>>,
}

struct Written {
    stamp: Stamp,
    json: SharedJson,
}

impl Entry {
    /// The detail for `lang` as written earlier in the same second as `now`, with `board`.
    pub fn written(&self, lang: Lang, now: i64, board: &Arc<Board>) -> Option<SharedJson> {
        let stamp = Stamp::of(lang, now, board);
        let written = self.written.lock().unwrap_or_else(PoisonError::into_inner);
        written
            .iter()
            .find(|w| w.stamp.same(&stamp))
            .map(|w| w.json.clone())
    }

    /// Keeps the detail written for `lang` at `now` with `board` (replacing the language's
    /// older one).
    pub fn keep_written(&self, lang: Lang, now: i64, board: &Arc<Board>, json: SharedJson) {
        let stamp = Stamp::of(lang, now, board);
        let mut written = self.written.lock().unwrap_or_else(PoisonError::into_inner);
        written.retain(|w| w.stamp.lang != lang);
        written.push(Written { stamp, json });
    }
}

struct Stamp {
    lang: Lang,
    second: i64,
    on_the_second: bool,
    board: Weak<Board>,
}

impl Stamp {
    fn of(lang: Lang, now: i64, board: &Arc<Board>) -> Stamp {
        Stamp {
            lang,
            second: now.div_euclid(1000),
            on_the_second: now.rem_euclid(1000) == 0,
            board: Arc::downgrade(board),
        }
    }

    fn same(&self, other: &Stamp) -> bool {
        self.lang == other.lang
            && self.second == other.second
            && self.on_the_second == other.on_the_second
            && Weak::ptr_eq(&self.board, &other.board)
    }
}

pub struct OrderViews {
    entries: RwLock<HashMap<String, Arc<Entry>>>,
    /// Moves whenever an entry is dropped: a load that began before does not keep its answer.
    epoch: AtomicU64,
    capacity: usize,
}

impl Default for OrderViews {
    fn default() -> Self {
        OrderViews::with_capacity(DEFAULT_CAPACITY)
    }
}

impl OrderViews {
    /// At most `capacity` orders kept (issue 34: an entry read once stayed until 50,000 were
    /// held, about 100 MB of orders nobody watched any more).
    pub fn with_capacity(capacity: usize) -> OrderViews {
        OrderViews {
            entries: RwLock::default(),
            epoch: AtomicU64::new(0),
            capacity,
        }
    }

    /// Drops the entries too old to be served at `now` (the housekeeping's memory sweep):
    /// an idle node gives their memory back instead of waiting for the next insert.
    pub fn sweep(&self, now: i64) {
        let mut entries = self.entries.write().unwrap_or_else(PoisonError::into_inner);
        entries.retain(|_, e| is_fresh(e, now));
    }

    /// The order's entry if it is younger than [`MAX_AGE_MS`] at `now`.
    pub fn fresh(&self, order_no: &str, now: i64) -> Option<Arc<Entry>> {
        let entries = self.entries.read().unwrap_or_else(PoisonError::into_inner);
        entries.get(order_no).filter(|e| is_fresh(e, now)).cloned()
    }

    /// Where a load starts: pass it to [`keep`](Self::keep).
    pub fn epoch(&self) -> u64 {
        self.epoch.load(Ordering::SeqCst)
    }

    /// Keeps what was loaded at `now` unless something was dropped since `epoch`; either way
    /// answers an entry for this read.
    pub fn keep(&self, source: OrderSource, now: i64, epoch: u64) -> Arc<Entry> {
        let order_no = source.order.order_no.clone();
        let entry = Arc::new(Entry {
            source: Arc::new(source),
            loaded_at: now,
            written: Mutex::new(Vec::new()),
        });
        let mut entries = self.entries.write().unwrap_or_else(PoisonError::into_inner);
        if self.epoch.load(Ordering::SeqCst) == epoch && self.capacity > 0 {
            if entries.len() >= self.capacity && !entries.contains_key(&order_no) {
                entries.retain(|_, e| is_fresh(e, now));
            }
            // Still full of fresh entries (a burst): the oldest loads go first. A scan, but
            // only when full, and the capacity is a few thousand.
            while entries.len() >= self.capacity && !entries.contains_key(&order_no) {
                let Some(oldest) = entries
                    .iter()
                    .min_by_key(|(_, e)| e.loaded_at)
                    .map(|(no, _)| no.clone())
                else {
                    break;
                };
                entries.remove(&oldest);
            }
            entries.insert(order_no, entry.clone());
        }
        entry
    }

    pub fn forget(&self, order_no: &str) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        self.entries
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(order_no);
    }

    fn forget_all(&self) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        self.entries
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// Loaded at or before `now` and younger than [`MAX_AGE_MS`] (never from the future).
fn is_fresh(entry: &Entry, now: i64) -> bool {
    now >= entry.loaded_at && now - entry.loaded_at < MAX_AGE_MS
}

/// The order an event is about, if any.
fn order_of(event: &Event) -> Option<&str> {
    match event {
        Event::OrderProgress { order_no, .. }
        | Event::PaymentResult { order_no, .. }
        | Event::OrderChanged { order_no } => Some(order_no),
        Event::TabletOrder { order, .. } => order.get("orderNo").and_then(|n| n.as_str()),
        Event::StoreUpdate { .. }
        | Event::CartUpdated { .. }
        | Event::SessionsEnded { .. }
        | Event::StaffSessionsEnded { .. } => None,
    }
}

/// The node's bus, dropping an order's entry before any event about it goes out, and telling
/// the other nodes (`peers`) to drop theirs.
pub struct ForgettingBus {
    inner: Arc<dyn Bus>,
    views: Arc<OrderViews>,
    peers: Option<Arc<dyn Bus>>,
}

impl ForgettingBus {
    /// Wraps `inner`; with `peers`, listens to the other nodes' changes as long as `views` lives.
    pub fn wrap(
        inner: Arc<dyn Bus>,
        views: Arc<OrderViews>,
        peers: Option<Arc<dyn Bus>>,
    ) -> Arc<dyn Bus> {
        if let Some(p) = &peers {
            tokio::spawn(listen(Arc::downgrade(&views), p.subscribe()));
        }
        Arc::new(ForgettingBus {
            inner,
            views,
            peers,
        })
    }
}

#[async_trait]
impl Bus for ForgettingBus {
    async fn publish(&self, event: &Event) -> Result<(), BusError> {
        if let Some(order_no) = order_of(event) {
            self.views.forget(order_no);
            if let Some(peers) = &self.peers {
                let told = Event::OrderChanged {
                    order_no: order_no.to_string(),
                };
                if let Err(e) = peers.publish(&told).await {
                    tracing::warn!(error = %e, order_no, "other nodes not told an order changed; they catch up within 2 s");
                }
            }
        }
        self.inner.publish(event).await
    }

    fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.inner.subscribe()
    }

    async fn ping(&self) -> Result<(), BusError> {
        self.inner.ping().await
    }
}

async fn listen(weak: Weak<OrderViews>, mut events: broadcast::Receiver<Event>) {
    loop {
        let event = events.recv().await;
        let Some(views) = weak.upgrade() else {
            break;
        };
        match event {
            Ok(e) => {
                if let Some(order_no) = order_of(&e) {
                    views.forget(order_no);
                }
            }
            Err(RecvError::Lagged(_)) => views.forget_all(),
            Err(RecvError::Closed) => break,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use actors::bus::LocalBus;
    use actors::domain::money::Fen;

    fn source(order_no: &str) -> OrderSource {
        OrderSource {
            order: OrderRow {
                id: 1,
                order_no: order_no.into(),
                user_id: 1,
                store_code: "S".into(),
                order_type: 0,
                state: 0,
                progress: 0,
                payment_type: "online".into(),
                is_book: false,
                order_time: 0,
                product_amount: Fen::ZERO,
                discount_amount: Fen::ZERO,
                delivery_fee: Fen::ZERO,
                order_amount: Fen::ZERO,
                paid_amount: Fen::ZERO,
                paid_by: None,
                doc: serde_json::Value::Null,
                lines: Vec::new(),
                seq: 1,
                version: 1,
                created_at: 0,
                updated_at: 0,
            },
            history: Vec::new(),
            payments: Vec::new(),
            comment: None,
        }
    }

    fn progress(order_no: &str) -> Event {
        Event::OrderProgress {
            order_no: order_no.into(),
            store_code: "S".into(),
            user_id: Some(1),
            progress: 1,
            state: 2,
            at: 5,
            eta: None,
            arrival: None,
            seq: 2,
        }
    }

    #[test]
    fn an_entry_lives_for_the_max_age_and_a_racing_load_is_not_kept() {
        let views = OrderViews::default();
        let e = views.epoch();
        views.keep(source("A"), 1_000, e);
        assert!(views.fresh("A", 1_000 + MAX_AGE_MS - 1).is_some());
        assert!(views.fresh("A", 1_000 + MAX_AGE_MS).is_none());
        assert!(views.fresh("A", 999).is_none(), "never from the future");
        // A load that began before an order was dropped answers its read but is not kept.
        let e = views.epoch();
        views.forget("B");
        views.keep(source("C"), 1_000, e);
        assert!(views.fresh("C", 1_000).is_none());
    }

    #[test]
    fn the_written_detail_is_reused_only_for_the_same_language_second_and_board() {
        let views = OrderViews::default();
        let entry = views.keep(source("A"), 0, views.epoch());
        let board = Arc::new(Board::default());
        let json = |tag: &str| SharedJson::of(&tag).unwrap();
        assert!(entry.written(Lang::Zh, 1_500, &board).is_none());
        entry.keep_written(Lang::Zh, 1_500, &board, json("zh"));
        let kept = entry.written(Lang::Zh, 1_999, &board).unwrap();
        assert_eq!(format!("{kept:?}"), format!("{:?}", json("zh")));
        for (lang, at, b) in [
            (Lang::En, 1_500, board.clone()),
            (Lang::Zh, 2_000, board.clone()),
            (Lang::Zh, 2_500, board.clone()),
            (Lang::Zh, 1_500, Arc::new(Board::default())),
        ] {
            assert!(entry.written(lang, at, &b).is_none(), "{lang:?} {at}");
        }
        // A language's newer detail replaces its older one; the other language's stays.
        entry.keep_written(Lang::En, 1_500, &board, json("en"));
        entry.keep_written(Lang::Zh, 2_500, &board, json("zh2"));
        assert!(entry.written(Lang::Zh, 1_500, &board).is_none());
        assert!(entry.written(Lang::Zh, 2_600, &board).is_some());
        assert!(entry.written(Lang::En, 1_700, &board).is_some());
    }

    #[test]
    fn stale_entries_are_swept_and_the_count_stays_under_the_bound() {
        let views = OrderViews::with_capacity(100);
        for n in 0..1_000 {
            views.keep(source(&format!("A{n}")), n, views.epoch());
            assert!(views.len() <= 100, "{} entries after {n}", views.len());
        }
        // The newest stay when full: the oldest go first.
        assert!(views.fresh("A999", 999).is_some());
        assert!(views.fresh("A0", 999).is_none());
        // Nothing older than the max age is ever served, so the sweep lets it all go.
        views.sweep(900 + MAX_AGE_MS - 1);
        assert_eq!(views.len(), 100, "still fresh");
        views.sweep(999 + MAX_AGE_MS);
        assert_eq!(views.len(), 0, "all stale");
    }

    #[tokio::test]
    async fn order_events_drop_the_entry_before_they_go_out_here_and_on_other_nodes() {
        let peers: Arc<dyn Bus> = Arc::new(LocalBus::new());
        let here_views = Arc::new(OrderViews::default());
        let there_views = Arc::new(OrderViews::default());
        let here = ForgettingBus::wrap(
            Arc::new(LocalBus::new()),
            here_views.clone(),
            Some(peers.clone()),
        );
        let _there = ForgettingBus::wrap(
            Arc::new(LocalBus::new()),
            there_views.clone(),
            Some(peers.clone()),
        );
        for (views, no) in [(&here_views, "A"), (&there_views, "A"), (&here_views, "B")] {
            views.keep(source(no), 0, views.epoch());
        }
        let mut heard = here.subscribe();
        here.publish(&progress("A")).await.unwrap();
        // By the time anyone hears of the change, this node forgot the order.
        heard.recv().await.unwrap();
        assert!(here_views.fresh("A", 1).is_none());
        assert!(here_views.fresh("B", 1).is_some(), "other orders stay");
        for _ in 0..100 {
            if there_views.len() == 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        assert!(
            there_views.fresh("A", 1).is_none(),
            "the other node forgot it"
        );
        // Events about no order touch nothing.
        here.publish(&Event::SessionsEnded { user_id: 1 })
            .await
            .unwrap();
        assert!(here_views.fresh("B", 1).is_some());
    }
}
