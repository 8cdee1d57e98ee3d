//! `--mode inbound`: what the server pays to answer its clients, as the app's sockets ask.
//!
//! After N sockets connect (phase 1, as in fanout mode, with no room joined):
//!   2. watch (with `--watch-orders K`): every socket sends `order:watch {orderNo, viewToken}`
//!      once, as the order page does on load, for order `<order-prefix><i % K, 8 digits>` with
//!      its view token (an HMAC under `--table-secret`, the server's `[ordering] table_secret`);
//!      at most `--watch-window` wait for their ack at a time. Every ack must say errCode "00".
//!   3. sync: the sockets send `time:sync {clientTime}` in turn, `--sync-rate` a second in all,
//!      for `--seconds` s, as the app's clock does; the ack echoes clientTime.
//!
//! Each phase: acks, lost (sent - acked), ack latency (round trip) p50/p99/p99.9/max, the
//! server's CPU (all threads) from the first send to the last ack -> acks per CPU-second.

use super::client::{ack_ok, now_ms, reset_stats, Client, STATS};
use super::{connect_all, core_times, cpu_seconds, percentile, Options};
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::{Duration, Instant};

pub struct InboundOptions {
    pub sync_rate: f64,
    pub watch_orders: usize,
    pub order_prefix: String,
    pub table_secret: Option<String>,
    pub watch_window: usize,
}

/// The order number of the k-th benchmark order (tests/bench/seed-orders.sql makes them).
pub fn order_no(prefix: &str, k: usize) -> String {
    format!("{prefix}{k:08}")
}

/// CPU and wall-clock readings at the start of a phase.
struct Meter {
    pid: String,
    cpu: f64,
    billed: f64,
    harness: f64,
    cores: Vec<(u64, u64)>,
    t0: f64,
}

impl Meter {
    fn start(opts: &Options) -> Meter {
        let pid = opts.pid.to_string();
        Meter {
            cpu: cpu_seconds(&pid),
            billed: billed(opts),
            harness: cpu_seconds("self"),
            cores: core_times(),
            t0: now_ms(),
            pid,
        }
    }

    /// The phase's figures, from STATS: `sent` requests, of which STATS counted the acks.
    fn finish(&self, opts: &Options, name: &str, sent: u64, extra: Value) -> Value {
        let billed_cpu = billed(opts) - self.billed;
        let cpu = cpu_seconds(&self.pid) - self.cpu + billed_cpu;
        let harness_cpu = cpu_seconds("self") - self.harness;
        let cores: Vec<f64> = core_times()
            .iter()
            .zip(&self.cores)
            .map(|((busy, total), (b0, t0))| {
                100.0 * (busy - b0) as f64 / (total - t0).max(1) as f64
            })
            .collect();
        STATS.with(|s| {
            let mut s = s.borrow_mut();
            let end = if s.received >= sent {
                s.last_received
            } else {
                now_ms()
            };
            let wall = (end - self.t0) / 1000.0;
            let received = s.received;
            let sorted = &mut s.latencies;
            sorted.sort_unstable_by(f64::total_cmp);
            let mut result = json!({
                "phase": name,
                "expected": sent,
                "received": received,
                "lost": sent as i64 - received as i64,
                "p50": percentile(sorted, 50.0),
                "p99": percentile(sorted, 99.0),
                "p999": percentile(sorted, 99.9),
                "max": sorted.last().copied().unwrap_or(f64::NAN),
                "wallS": wall,
                "serverCpuS": cpu,
                "billedCpuS": billed_cpu,
                "acksPerCpuS": if cpu > 0.0 { received as f64 / cpu } else { f64::NAN },
                "coreBusyPct": cores,
                "harnessCpuPct": 100.0 * harness_cpu / wall.max(1e-3),
            });
            if let (Some(r), Some(e)) = (result.as_object_mut(), extra.as_object()) {
                r.extend(e.clone());
            }
            eprintln!(
                "[{} n={}] {name}: {received}/{sent} acked, p50 {:.2} ms, p99 {:.2} ms, server cpu {cpu:.2} s, {:.0} acks/cpu-s",
                opts.label,
                opts.n,
                percentile(sorted, 50.0),
                percentile(sorted, 99.0),
                received as f64 / cpu.max(1e-9),
            );
            result
        })
    }
}

fn billed(opts: &Options) -> f64 {
    opts.bill.iter().map(|p| cpu_seconds(p)).sum()
}

/// Waits until `sent` acks are counted, or 5 s pass without one, or `timeout`.
async fn settle(sent: u64, timeout: Duration) {
    let deadline = Instant::now() + timeout;
    let mut last_seen = (0, Instant::now());
    loop {
        let received = STATS.with(|s| s.borrow().received);
        if received >= sent || Instant::now() >= deadline {
            return;
        }
        if received != last_seen.0 {
            last_seen = (received, Instant::now());
        } else if last_seen.1.elapsed() > Duration::from_secs(5) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Phase 2: one `order:watch` per socket, at most `watch_window` waiting at a time.
async fn watch(opts: &Rc<Options>, clients: &Rc<Vec<Rc<Client>>>) -> Result<Value, String> {
    let io = &opts.inbound;
    let secret = io
        .table_secret
        .clone()
        .ok_or("--watch-orders needs --table-secret")?;
    reset_stats();
    let meter = Meter::start(opts);
    let next = Rc::new(Cell::new(0usize));
    let refused: Rc<RefCell<Vec<String>>> = Rc::default();
    let workers: Vec<_> = (0..io.watch_window.max(1))
        .map(|_| {
            let (opts, clients, next, refused, secret) = (
                opts.clone(),
                clients.clone(),
                next.clone(),
                refused.clone(),
                secret.clone(),
            );
            tokio::task::spawn_local(async move {
                while next.get() < clients.len() {
                    let i = next.get();
                    next.set(i + 1);
                    let order = order_no(&opts.inbound.order_prefix, i % opts.inbound.watch_orders);
                    let token =
                        actors::domain::ordering::view_token::view_token(secret.as_bytes(), &order);
                    let sent = now_ms();
                    let arg = json!({"orderNo": order, "viewToken": token});
                    let ack = tokio::time::timeout(
                        Duration::from_secs(30),
                        clients[i].emit_with_ack("order:watch", arg),
                    )
                    .await
                    .ok()
                    .flatten();
                    let at = now_ms();
                    match ack {
                        Some(ack) if ack_ok(&ack) => STATS.with(|s| {
                            let mut s = s.borrow_mut();
                            s.received += 1;
                            s.last_received = at;
                            s.latencies.push(at - sent);
                        }),
                        Some(ack) => {
                            let mut text = ack.to_string();
                            text.truncate(160);
                            refused.borrow_mut().push(text);
                        }
                        None => refused.borrow_mut().push("no ack".into()),
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        let _ = worker.await;
    }
    let sent = clients.len() as u64;
    let refused = refused.borrow();
    if let Some(first) = refused.first() {
        eprintln!(
            "[{} n={}] order:watch: {} refused, e.g. {first}",
            opts.label,
            opts.n,
            refused.len()
        );
    }
    Ok(meter.finish(
        opts,
        "watch",
        sent,
        json!({"orders": opts.inbound.watch_orders, "refused": refused.len()}),
    ))
}

/// Phase 3: `time:sync` at a fixed rate in all, the sockets in turn.
async fn sync(opts: &Rc<Options>, clients: &[Rc<Client>]) -> Value {
    let rate = opts.inbound.sync_rate;
    reset_stats();
    let meter = Meter::start(opts);
    let started = Instant::now();
    let total = (rate * opts.seconds).round() as u64;
    let (mut due_sent, mut sent, mut short) = (0u64, 0u64, 0u64);
    let mut tick = tokio::time::interval(Duration::from_millis(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    while due_sent < total && !clients.is_empty() {
        tick.tick().await;
        let due = ((started.elapsed().as_secs_f64() * rate) as u64).min(total);
        while due_sent < due {
            // A socket whose buffer is full is skipped (counted), never waited for.
            if clients[(due_sent % clients.len() as u64) as usize].send_sync() {
                sent += 1;
            } else {
                short += 1;
            }
            due_sent += 1;
        }
    }
    let late_ms = (started.elapsed().as_secs_f64() - total as f64 / rate).max(0.0) * 1000.0;
    settle(sent, Duration::from_secs(30)).await;
    meter.finish(
        opts,
        "sync",
        sent,
        json!({"rate": rate, "notSent": short, "sendsLateMs": late_ms}),
    )
}

pub async fn bench(
    opts: Rc<Options>,
    result: &mut serde_json::Map<String, Value>,
) -> Result<(), String> {
    result.insert("mode".into(), json!("inbound"));
    let nothing = Rc::new(|_: usize| (Vec::new(), Vec::new()));
    let (clients, _control) = connect_all(&opts, result, nothing).await?;
    let clients: Rc<Vec<Rc<Client>>> = Rc::new(clients.into_iter().flatten().collect());
    let mut phases = serde_json::Map::new();
    if opts.inbound.watch_orders > 0 {
        phases.insert("watch".into(), watch(&opts, &clients).await?);
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    phases.insert("sync".into(), sync(&opts, &clients).await);
    result.insert("rssAfter".into(), json!(super::server_rss(opts.pid)));
    result.insert("phases".into(), Value::Object(phases));
    let still_open = clients.iter().filter(|c| !c.closed.get()).count();
    result.insert("stillOpen".into(), json!(still_open));
    Ok(())
}
