//! `--redis-url`: the harness publishes the fanout events as another node of
//! `pizza-order serve` does, with the product's own parts: an event bus, the gateway's pump, and
//! a Socket.IO server with the Redis adapter (the product's defaults, recovery on) and the
//! customer and tablet namespaces, no socket of its own. Each `Event` published on the bus is
//! routed by the gateway to its rooms and broadcast through the adapter into Redis, where the
//! node under test (the same `redis.url` and `redis.key_prefix`) receives it and writes it to
//! its sockets in those rooms: bus → gateway → rooms (Redis) → sockets, the path an order's
//! progress takes when its order changed on another node. Nothing in the server under test
//! knows it is being measured.

use super::client::STATS;
use super::common::{publish, store_notice, Publish};
use actors::bus::{Bus, Event, LocalBus};
use pizza_order::realtime::gateway;
use pizza_order::realtime::gateway::routing::{CUSTOMERS, TABLETS};
use pizza_order::realtime::socketio::{RedisAdapterFactory, SocketIo, SocketIoConfig};
use serde_json::Value;
use std::future::Future;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

/// The store the benchmark's orders belong to (tests/bench/seed-orders.sql): the gateway also
/// sends their progress to that store's tablets (none connected).
const ORDERS_STORE: &str = "SH001";

pub struct OtherNode {
    bus: Arc<dyn Bus>,
    /// Kept for the adapters' threads and the namespaces the pump emits to.
    _io: SocketIo,
}

impl OtherNode {
    /// `key_prefix` as the product's `redis.key_prefix` (e.g. "pizza:").
    pub fn start(url: &str, key_prefix: &str) -> Result<OtherNode, String> {
        // As src/realtime/setup.rs makes it.
        let adapters = RedisAdapterFactory::connect(url, key_prefix.trim_end_matches(':'))
            .map_err(|e| format!("redis at {url}: {e}"))?;
        let io = SocketIo::with_adapter(SocketIoConfig::default(), Arc::new(adapters));
        io.of(CUSTOMERS);
        io.of(TABLETS);
        let bus: Arc<dyn Bus> = Arc::new(LocalBus::new());
        tokio::spawn(gateway::pump(io.clone(), bus.clone()));
        Ok(OtherNode { bus, _io: io })
    }

    /// Runs a publish job (rooms `order:<orderNo>`, `store:<storeCode>`) on the common
    /// schedule, each event as the product's `Event`, noting when each order event was sent
    /// (its `at` is whole milliseconds). Returns the ack the servers' `publish` answers.
    pub async fn publish(&self, job: Publish) -> Value {
        publish(job, |room, seq, sent_at, pad| {
            let event = match room.strip_prefix("order:") {
                Some(order_no) => {
                    STATS.with(|s| {
                        s.borrow_mut()
                            .sent
                            .entry(order_no.to_owned())
                            .or_default()
                            .insert(seq, sent_at)
                    });
                    Event::OrderProgress {
                        order_no: order_no.to_owned(),
                        store_code: ORDERS_STORE.to_owned(),
                        user_id: None,
                        progress: 20,
                        state: 6,
                        at: sent_at as i64,
                        eta: None,
                        arrival: None,
                        seq,
                    }
                }
                None => Event::StoreUpdate {
                    store_code: room.strip_prefix("store:").unwrap_or(room).to_owned(),
                    status: "open".to_owned(),
                    notice: Some(store_notice(seq, sent_at, pad)),
                    sold_out: Vec::new(),
                    version: 0,
                },
            };
            // The in-process bus takes an event at once (a broadcast channel's send): no
            // await point, so it is polled once here, inside the schedule's closure.
            let mut published = std::pin::pin!(self.bus.publish(&event));
            match published
                .as_mut()
                .poll(&mut Context::from_waker(Waker::noop()))
            {
                Poll::Ready(Ok(())) => {}
                Poll::Ready(Err(e)) => eprintln!("event not published: {e}"),
                Poll::Pending => eprintln!("the bus did not take an event at once"),
            }
        })
        .await
    }
}
