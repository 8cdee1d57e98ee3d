//! The client harness of the real-time benchmarks (`make bench-realtime`,
//! `make bench-socket-inbound`, `tests/bench/run.sh`), the same for every server. It
//! speaks Engine.IO v4 / Socket.IO v5 directly over WebSocket (open, ping/pong, CONNECT, EVENT,
//! ACK; text frames only), on one thread with no garbage collector, so that the client side
//! is not what limits or delays: a Node harness (`ws`) paused up to 180 ms at 20k sockets
//! (young-generation collections snowballing into a backlog), which showed as the servers'
//! p99.
//!
//!     target/release/examples/bench_harness --port 3100 --pid <server pid> --n 1000 \
//!         --label rust --out r.json
//!
//! Socket i connects to <host>:<port> (default 127.0.0.1) from
//! <source-net>.<addr-base + floor(i / per-addr)> (default 127.0.0, 2, 5000 each).
//! `--bill <pid>[,<pid>...]` names other threads whose CPU time counts as the server's: with
//! BENCH_NET=veth, the server host's network receive thread.
//!
//! `--mode inbound` (`make bench-socket-inbound`): the clients send `order:watch` and
//! `time:sync` and the servers answer; see inbound.rs. The default, `--mode fanout`:
//!
//! Phases:
//!   1. idle: server VmRSS before connecting and after N sockets are connected, socket i having
//!      followed order `<order-prefix><i % R, 8 digits>` with `order:watch` (its view token
//!      an HMAC under `--table-secret`, as the product signs them) and store `BS<i % S, 3
//!      digits>` with `store:watch`, as the app's order and menu pages do -> bytes per socket;
//!   2. fixed rate: RATE events/s for SECONDS s, round-robin over the S store rooms and the
//!      order rooms 0..S-1: `store:update` and `order:progress`, shaped as the product's;
//!   3. burst: BURST `store:update`s to each store room at once.
//!
//! Who publishes: with `--redis-url` (the product, `pizza-order serve` with Redis), the harness
//! itself, as another node of the product (publisher.rs); otherwise the server, on the harness's
//! `publish` command (the floor, Node; bench_common/mod.rs).
//!
//! For 2 and 3: delivery latency (receive time - sentAt, both the wall clock of this
//! machine), lost (expected - received), reordered (seq not increasing per socket per room)
//! and the server's CPU time (all its threads, /proc/<pid>/task/*/schedstat) from the publish
//! until the last delivery -> deliveries per CPU-second. The JSON written to --out is what
//! tests/bench/report.mjs reads.

mod client;
#[allow(dead_code)] // the floor's `publish` command is parsed by the floor only
#[path = "../bench_common/mod.rs"]
mod common;
mod inbound;
mod publisher;

use client::{now_ms, open, reset_stats, Client, STATS};
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::net::Ipv4Addr;
use std::rc::Rc;
use std::time::{Duration, Instant};
use tokio::task::LocalSet;

/// What the harness measures.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The server emits to rooms; the clients count deliveries.
    Fanout,
    /// The clients send `time:sync` (and `order:watch`); the server answers (inbound.rs).
    Inbound,
}

struct Options {
    mode: Mode,
    port: u16,
    host: Ipv4Addr,
    source_net: [u8; 3],
    pid: u32,
    bill: Vec<String>,
    n: usize,
    stores: usize,
    orders: usize,
    rate: f64,
    seconds: f64,
    burst: u64,
    payload: usize,
    per_addr: usize,
    addr_base: usize,
    concurrency: usize,
    label: String,
    out: Option<String>,
    connect_timeout: Duration,
    inbound: inbound::InboundOptions,
    /// The product's Redis and key prefix: the harness publishes there (publisher.rs).
    redis: Option<(String, String)>,
}

fn options() -> Result<Options, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == &format!("--{name}"))
            .and_then(|i| args.get(i + 1).cloned())
    };
    fn num<T: std::str::FromStr>(name: &str, v: Option<String>, dflt: T) -> Result<T, String> {
        match v {
            None => Ok(dflt),
            Some(s) => s
                .parse()
                .map_err(|_| format!("--{name}: not a number: {s}")),
        }
    }
    let n: usize = num("n", get("n"), 1000)?;
    let host = match get("host") {
        None => Ipv4Addr::LOCALHOST,
        Some(s) => s
            .parse()
            .map_err(|_| format!("--host: not an IPv4 address: {s}"))?,
    };
    let source_net = match get("source-net") {
        None => [127, 0, 0],
        Some(s) => {
            let [a, b, c, _] = format!("{s}.0")
                .parse::<Ipv4Addr>()
                .map_err(|_| {
                    format!("--source-net: not the first three parts of an IPv4 address: {s}")
                })?
                .octets();
            [a, b, c]
        }
    };
    let bill = get("bill").map_or_else(Vec::new, |s| s.split(',').map(str::to_owned).collect());
    if let Some(bad) = bill.iter().find(|p| p.parse::<u32>().is_err()) {
        return Err(format!("--bill: not a pid: {bad}"));
    }
    let mode = match get("mode").as_deref() {
        None | Some("fanout") => Mode::Fanout,
        Some("inbound") => Mode::Inbound,
        Some(other) => return Err(format!("--mode: fanout or inbound, not {other}")),
    };
    let inbound = inbound::InboundOptions {
        sync_rate: num("sync-rate", get("sync-rate"), 5000.0)?,
        watch_orders: num("watch-orders", get("watch-orders"), 0)?,
        order_prefix: get("order-prefix").unwrap_or_else(|| "BENCH".into()),
        table_secret: get("table-secret"),
        watch_window: num("watch-window", get("watch-window"), 256)?,
    };
    let redis = get("redis-url").map(|url| {
        let prefix = get("redis-prefix").unwrap_or_else(|| "pizza:".into());
        (url, prefix)
    });
    Ok(Options {
        mode,
        redis,
        inbound,
        port: num("port", get("port"), 3100)?,
        host,
        source_net,
        pid: num("pid", get("pid"), 0)?,
        bill,
        n,
        stores: num("stores", get("stores"), 50)?,
        orders: num("orders", get("orders"), (n / 2).max(1))?,
        rate: num("rate", get("rate"), 200.0)?,
        seconds: num("seconds", get("seconds"), 10.0)?,
        burst: num("burst", get("burst"), 20)?,
        payload: num("payload", get("payload"), 64)?,
        per_addr: num("per-addr", get("per-addr"), 5000)?,
        addr_base: num("addr-base", get("addr-base"), 2)?,
        concurrency: num("concurrency", get("concurrency"), 200)?,
        label: get("label").unwrap_or_else(|| "server".into()),
        out: get("out"),
        connect_timeout: Duration::from_secs(num("connect-timeout", get("connect-timeout"), 180)?),
    })
}

// ---- /proc readings ----

fn server_rss(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb * 1024.0)
}

/// CPU time of all the threads of a process (s): the sum of their schedstat run times (ns).
fn cpu_seconds(pid: &str) -> f64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return f64::NAN;
    };
    let mut ns = 0u64;
    for task in tasks.flatten() {
        let stat = std::fs::read_to_string(task.path().join("schedstat")).unwrap_or_default();
        ns += stat
            .split(' ')
            .next()
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0);
    }
    ns as f64 / 1e9
}

/// Busy and total jiffies of each core, to see time the per-process counters miss.
fn core_times() -> Vec<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    stat.lines()
        .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        .map(|l| {
            let v: Vec<u64> = l
                .split_whitespace()
                .skip(1)
                .take(8)
                .filter_map(|x| x.parse().ok())
                .collect();
            let total: u64 = v.iter().sum();
            let idle = v.get(3).copied().unwrap_or(0) + v.get(4).copied().unwrap_or(0);
            (total - idle, total)
        })
        .collect()
}

/// The benchmark's k-th store: any code will do, `store:watch` only names a room.
fn store_code(k: usize) -> String {
    format!("BS{k:03}")
}

fn order_of(opts: &Options, i: usize) -> String {
    inbound::order_no(&opts.inbound.order_prefix, i % opts.orders)
}

fn rooms_of(opts: &Options, i: usize) -> Vec<String> {
    vec![
        format!("order:{}", order_of(opts, i)),
        format!("store:{}", store_code(i % opts.stores)),
    ]
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((p / 100.0 * sorted.len() as f64) as usize).min(sorted.len() - 1)]
}

/// Publishes and waits for every expected delivery (or for the timeout, or 5 s of silence).
/// `publish` answers `[{emitted, tookMs, maxLateMs}]`.
async fn phase(
    opts: &Options,
    name: &str,
    publish: impl Future<Output = Option<Value>>,
    expected: u64,
    timeout: Duration,
) -> Value {
    reset_stats();
    let pid = opts.pid.to_string();
    let billed = || opts.bill.iter().map(|p| cpu_seconds(p)).sum::<f64>();
    let cpu0 = cpu_seconds(&pid);
    let billed0 = billed();
    let harness0 = cpu_seconds("self");
    let cores0 = core_times();
    let t0 = now_ms();
    let ack = tokio::time::timeout(timeout, publish)
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| json!([{ "error": "publish ack timeout" }]));
    let deadline = t0 + timeout.as_secs_f64() * 1000.0;
    loop {
        let (received, last) = STATS.with(|s| (s.borrow().received, s.borrow().last_received));
        let now = now_ms();
        if received >= expected || now >= deadline || (last > 0.0 && now - last > 5000.0) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let billed_cpu = billed() - billed0;
    let cpu = cpu_seconds(&pid) - cpu0 + billed_cpu;
    let harness_cpu = cpu_seconds("self") - harness0;
    let cores: Vec<f64> = core_times()
        .iter()
        .zip(&cores0)
        .map(|((busy, total), (b0, t0))| 100.0 * (busy - b0) as f64 / (total - t0).max(1) as f64)
        .collect();
    STATS.with(|s| {
        let mut s = s.borrow_mut();
        let end = if s.received >= expected { s.last_received } else { now_ms() };
        let wall = (end - t0) / 1000.0;
        let received = s.received;
        let reordered = s.reordered;
        let sorted = &mut s.latencies;
        sorted.sort_unstable_by(f64::total_cmp);
        let ack = &ack[0];
        let result = json!({
            "phase": name,
            "events": ack.get("emitted"),
            "publishMs": ack.get("tookMs"),
            "emitMaxLateMs": ack.get("maxLateMs"),
            "expected": expected,
            "received": received,
            "lost": expected as i64 - received as i64,
            "reordered": reordered,
            "p50": percentile(sorted, 50.0),
            "p99": percentile(sorted, 99.0),
            "p999": percentile(sorted, 99.9),
            "max": sorted.last().copied().unwrap_or(f64::NAN),
            "wallS": wall,
            "serverCpuS": cpu,
            "billedCpuS": billed_cpu,
            "deliveriesPerCpuS": if cpu > 0.0 { received as f64 / cpu } else { f64::NAN },
            "coreBusyPct": cores,
            "harnessCpuPct": 100.0 * harness_cpu / wall.max(1e-3),
        });
        eprintln!(
            "[{} n={}] {name}: {received}/{expected} delivered, p99 {:.2} ms, server cpu {cpu:.2} s, harness cpu {:.0}%",
            opts.label, opts.n, percentile(sorted, 99.0), 100.0 * harness_cpu / wall.max(1e-3)
        );
        if let Some(error) = ack.get("error") {
            eprintln!("[{} n={}] publish: {error}", opts.label, opts.n);
        }
        result
    })
}

/// Phase 1, idle: server VmRSS before and after N sockets connect (each making the `joins` of
/// its index); the clients (None: failed) and the control connection.
#[allow(clippy::type_complexity)]
async fn connect_all(
    opts: &Rc<Options>,
    result: &mut serde_json::Map<String, Value>,
    joins: Rc<dyn Fn(usize) -> (Vec<String>, Vec<(String, Value)>)>,
) -> Result<(Vec<Option<Rc<Client>>>, Rc<Client>), String> {
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_before = server_rss(opts.pid);
    result.insert("rssBefore".into(), json!(rss_before));
    let started = Instant::now();
    let next = Rc::new(Cell::new(0usize));
    let clients: Rc<RefCell<Vec<Option<Rc<Client>>>>> = Rc::new(RefCell::new(vec![None; opts.n]));
    let errors: Rc<RefCell<HashMap<String, usize>>> = Rc::default();
    let workers: Vec<_> = (0..opts.concurrency)
        .map(|_| {
            let (opts, next, clients, errors, joins) = (
                opts.clone(),
                next.clone(),
                clients.clone(),
                errors.clone(),
                joins.clone(),
            );
            tokio::task::spawn_local(async move {
                while next.get() < opts.n && started.elapsed() < opts.connect_timeout {
                    let i = next.get();
                    next.set(i + 1);
                    let (rooms, joins) = joins(i);
                    match open(&opts, Some(i), rooms, joins).await {
                        Ok(client) => clients.borrow_mut()[i] = Some(client),
                        Err(e) => *errors.borrow_mut().entry(e).or_default() += 1,
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        let _ = worker.await;
    }
    let clients: Vec<Option<Rc<Client>>> = clients.borrow().clone();
    let connected = clients.iter().flatten().count();
    let connect_s = started.elapsed().as_secs_f64();
    if !errors.borrow().is_empty() {
        eprintln!(
            "[{} n={}] connect errors: {:?}",
            opts.label,
            opts.n,
            errors.borrow()
        );
    }
    eprintln!(
        "[{} n={}] {connected}/{} connected and joined in {connect_s:.1} s",
        opts.label, opts.n, opts.n
    );
    result.insert("connected".into(), json!(connected));
    result.insert("connectFailed".into(), json!(opts.n - connected));
    result.insert("connectS".into(), json!(connect_s));
    let control = open(opts, None, Vec::new(), Vec::new()).await?;
    tokio::time::sleep(Duration::from_secs(3)).await; // let the server settle
    let rss_idle = server_rss(opts.pid);
    result.insert("rssIdle".into(), json!(rss_idle));
    result.insert(
        "rssPerSocket".into(),
        json!((rss_idle - rss_before) / connected.max(1) as f64),
    );
    Ok((clients, control))
}

async fn fanout(
    opts: Rc<Options>,
    result: &mut serde_json::Map<String, Value>,
) -> Result<(), String> {
    let secret = opts
        .inbound
        .table_secret
        .clone()
        .ok_or("fanout needs --table-secret (order:watch takes a view token)")?;
    let other_node = match &opts.redis {
        Some((url, prefix)) => Some(publisher::OtherNode::start(url, prefix)?),
        None => None,
    };
    let rooms_opts = opts.clone();
    let joins = Rc::new(move |i: usize| {
        let order = order_of(&rooms_opts, i);
        let token = actors::domain::ordering::view_token::view_token(secret.as_bytes(), &order);
        let join = vec![
            (
                "order:watch".to_owned(),
                json!({"orderNo": order, "viewToken": token}),
            ),
            (
                "store:watch".to_owned(),
                json!({"storeCode": store_code(i % rooms_opts.stores)}),
            ),
        ];
        (rooms_of(&rooms_opts, i), join)
    });
    let (clients, control) = connect_all(&opts, result, joins).await?;
    // The harness publishes as another node of the product, or asks the server to.
    let publish = |spec: Value| {
        let (control, other_node) = (&control, &other_node);
        async move {
            match other_node {
                Some(node) => {
                    let job = common::parse_publish(&[spec])?;
                    Some(json!([node.publish(job).await]))
                }
                None => control.emit_with_ack("publish", spec).await,
            }
        }
    };

    // Expected deliveries per room (only sockets that connected count).
    let mut members: HashMap<String, u64> = HashMap::new();
    for (i, client) in clients.iter().enumerate() {
        if client.is_some() {
            for room in rooms_of(&opts, i) {
                *members.entry(room).or_default() += 1;
            }
        }
    }
    let expected_for = |rooms: &[String], count: u64| -> u64 {
        rooms
            .iter()
            .map(|r| count * members.get(r).copied().unwrap_or(0))
            .sum()
    };

    // ---- phase 2: fixed rate ----
    let stores: Vec<String> = (0..opts.stores)
        .map(|k| format!("store:{}", store_code(k)))
        .collect();
    let rate_rooms: Vec<String> = stores
        .iter()
        .enumerate()
        .flat_map(|(k, s)| [s.clone(), format!("order:{}", order_of(&opts, k))])
        .collect();
    let rate_count = ((opts.rate * opts.seconds) / rate_rooms.len() as f64)
        .round()
        .max(1.0) as u64;
    let spec = json!({"rooms": rate_rooms, "count": rate_count, "rateHz": opts.rate, "payloadSize": opts.payload});
    let timeout = Duration::from_secs_f64(opts.seconds + 30.0);
    let rate = phase(
        &opts,
        "rate",
        publish(spec),
        expected_for(&rate_rooms, rate_count),
        timeout,
    )
    .await;

    // ---- phase 3: burst ----
    tokio::time::sleep(Duration::from_secs(1)).await;
    let spec =
        json!({"rooms": stores, "count": opts.burst, "rateHz": 0, "payloadSize": opts.payload});
    let expected = expected_for(&stores, opts.burst);
    let burst = phase(
        &opts,
        "burst",
        publish(spec),
        expected,
        Duration::from_secs(60),
    )
    .await;

    result.insert("rssAfter".into(), json!(server_rss(opts.pid)));
    result.insert("phases".into(), json!({ "rate": rate, "burst": burst }));
    let still_open = clients.iter().flatten().filter(|c| !c.closed.get()).count();
    result.insert("stillOpen".into(), json!(still_open));
    Ok(())
}

fn main() {
    let opts = match options() {
        Ok(opts) => Rc::new(opts),
        Err(e) => {
            eprintln!("bench_harness: {e}");
            std::process::exit(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("bench_harness: no tokio runtime: {e}");
            std::process::exit(2);
        }
    };
    let mut result = serde_json::Map::new();
    for (k, v) in [
        ("label", json!(opts.label)),
        ("n", json!(opts.n)),
        ("orders", json!(opts.orders)),
        ("stores", json!(opts.stores)),
        ("rate", json!(opts.rate)),
        ("seconds", json!(opts.seconds)),
        ("burst", json!(opts.burst)),
        ("payload", json!(opts.payload)),
    ] {
        result.insert(k.into(), v);
    }
    let hard_limit = opts.connect_timeout + Duration::from_secs_f64(opts.seconds + 240.0);
    let outcome = runtime.block_on(LocalSet::new().run_until(async {
        let run = async {
            match opts.mode {
                Mode::Fanout => fanout(opts.clone(), &mut result).await,
                Mode::Inbound => inbound::bench(opts.clone(), &mut result).await,
            }
        };
        tokio::time::timeout(hard_limit, run).await
    }));
    let code = match outcome {
        Ok(Ok(())) => 0,
        Ok(Err(e)) => {
            eprintln!("[{} n={}] failed: {e}", opts.label, opts.n);
            result.insert("error".into(), json!(e));
            1
        }
        Err(_) => {
            eprintln!("[{} n={}] harness timeout", opts.label, opts.n);
            result.insert("error".into(), json!("harness timeout"));
            2
        }
    };
    if let Some(out) = &opts.out {
        let text = serde_json::to_string_pretty(&Value::Object(result)).unwrap_or_default();
        if let Err(e) = std::fs::write(out, text) {
            eprintln!("bench_harness: cannot write {out}: {e}");
        }
    }
    // Exits without closing the sockets one by one: the servers see them all go at once.
    std::process::exit(code);
}
