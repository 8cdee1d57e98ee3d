//! What the fanout benchmark's publishers share: the `publish` command of the floor
//! (`bench_floor`) and its schedule, which the harness also follows when it publishes into
//! Redis as another node of `pizza-order serve` would (`bench_harness/publisher.rs`), and the
//! events themselves, shaped as the product's gateway emits them (`src/realtime/gateway/routing.rs`):
//!
//! - room `order:<orderNo>` gets `order:progress {orderNo, progress, state, at, eta, seq}`, `seq`
//!   counting the order's events from 0;
//! - room `store:<storeCode>` gets `store:update {storeCode, status, notice, soldOut}`, whose
//!   notice is `"<seq> <sentAt> <pad>"`: the store's event count, the wall clock in ms (µs
//!   resolution) just before the emit, and `payloadSize` bytes of padding.
//!
//! Where the publisher is the server itself (the floor, Node), `at` is that same sentAt (a float:
//! the product's is whole ms, so the harness keeps its own table of when it published).

use serde_json::{json, Value};
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::time::Sleep;

pub fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

pub struct Publish {
    pub rooms: Vec<String>,
    pub count: u64,
    pub rate_hz: f64,
    pub payload_size: usize,
}

pub fn parse_publish(args: &[Value]) -> Option<Publish> {
    let spec = args.first()?;
    let rooms: Vec<String> = spec
        .get("rooms")?
        .as_array()?
        .iter()
        .filter_map(|r| r.as_str().map(str::to_owned))
        .collect();
    Some(Publish {
        rooms,
        count: spec.get("count")?.as_u64()?,
        rate_hz: spec.get("rateHz").and_then(Value::as_f64).unwrap_or(0.0),
        payload_size: spec.get("payloadSize").and_then(Value::as_u64).unwrap_or(0) as usize,
    })
}

/// Sleeps until each due time in turn, with the next timer already registered while it waits
/// for the current one. Tokio unparks its driver (an eventfd write, then an epoll_wait that
/// returns at once) whenever a timer is registered earlier than the driver's next wake-up,
/// which a lone timer set after the last one fired always is: two syscalls an event that
/// Node's timers do not make, nor a server whose events come from elsewhere.
struct Pacer {
    current: Pin<Box<Sleep>>,
}

impl Pacer {
    fn new(first: Instant) -> Pacer {
        Pacer {
            current: Box::pin(tokio::time::sleep_until(first.into())),
        }
    }

    /// Waits for the current due time; `then` is the one after it.
    async fn wait(&mut self, then: Instant) {
        let mut next = Box::pin(tokio::time::sleep_until(then.into()));
        // One poll registers it; a timer already due just completes.
        std::future::poll_fn(|cx| {
            let _ = next.as_mut().poll(cx);
            Poll::Ready(())
        })
        .await;
        std::mem::replace(&mut self.current, next).await;
    }
}

/// The notice of a benchmark `store:update`: its seq, when it was sent and the padding.
pub fn store_notice(seq: u64, sent_at: f64, pad: &str) -> String {
    format!("{seq} {sent_at:.3} {pad}")
}

/// The event and payload `room` gets for event `seq`, as the product's gateway shapes them.
pub fn product_event(room: &str, seq: u64, sent_at: f64, pad: &str) -> (&'static str, Value) {
    match room.strip_prefix("order:") {
        Some(order_no) => (
            "order:progress",
            json!({"orderNo": order_no, "progress": 20, "state": 6, "at": sent_at, "eta": null, "seq": seq}),
        ),
        None => (
            "store:update",
            json!({
                "storeCode": room.strip_prefix("store:").unwrap_or(room), "status": "open",
                "notice": store_notice(seq, sent_at, pad), "soldOut": [],
            }),
        ),
    }
}

/// Runs a publish job: `emit(room, seq, sentAt, pad)` for `count` rounds over the rooms,
/// `rate_hz` events a second in all (0: all at once). Returns the ack's
/// `{emitted, tookMs, maxLateMs}`.
pub async fn publish(job: Publish, mut emit: impl FnMut(&str, u64, f64, &str)) -> Value {
    let pad = "x".repeat(job.payload_size);
    let started = Instant::now();
    let mut emitted: u64 = 0;
    let mut max_late = Duration::ZERO;
    let due = |k: u64| started + Duration::from_secs_f64(k as f64 / job.rate_hz);
    let mut pacer = (job.rate_hz > 0.0).then(|| Pacer::new(due(0)));
    for seq in 0..job.count {
        for room in &job.rooms {
            if let Some(pacer) = &mut pacer {
                pacer.wait(due(emitted + 1)).await;
                max_late = max_late.max(Instant::now().saturating_duration_since(due(emitted)));
            }
            emit(room, seq, now_ms(), &pad);
            emitted += 1;
        }
    }
    json!({
        "emitted": emitted,
        "tookMs": started.elapsed().as_secs_f64() * 1000.0,
        "maxLateMs": max_late.as_secs_f64() * 1000.0,
    })
}
