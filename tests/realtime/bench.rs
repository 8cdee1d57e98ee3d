//! The benchmark's parts still fit together: `examples/bench_harness` against
//! `pizza-order serve` and `examples/bench_floor` (debug builds, which
//! `cargo test --workspace` makes before the tests run), a few dozen sockets for a second, every
//! delivery accounted for, and `tests/bench/report.mjs` reading what the harness wrote. Not a
//! measurement: the figures come from `make bench-realtime`.
//!
//! Without the example binaries (e.g. `cargo test --test realtime` alone) the test prints
//! `SKIPPED` and passes, except on CI (`CI=true`), where it fails. The fanout test needs Redis
//! (`REDIS_URL`, default 127.0.0.1:6379) as the Redis adapter tests do: SKIPPED without it,
//! failed on CI.

use super::redis_adapter::{redis_ready, redis_url, Prefix};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

const SOCKETS: u64 = 60;
const STORES: u64 = 3;
const RATE: u64 = 60;
const BURST: u64 = 2;

/// `target/<profile>/examples`, next to the `deps` folder this test runs from.
fn examples_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().join("examples")
}

/// Kills the server however the test ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the server on a free port; returns it and the port.
fn start_server(binary: &Path) -> (Server, u16) {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    // Both take the port first; the Rust server's workers default to one.
    let mut child = Command::new(binary)
        .arg(port.to_string())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // It prints its banner once it listens.
    let mut banner = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut banner)
        .unwrap();
    assert!(banner.contains(&format!(":{port}/")), "banner: {banner}");
    (Server(child), port)
}

fn phase_is_complete(result: &Value, phase: &str, expected: u64) {
    let p = &result["phases"][phase];
    assert_eq!(p["expected"], expected, "{phase}: {p}");
    assert_eq!(p["received"], expected, "{phase}: {p}");
    assert_eq!(p["lost"], 0, "{phase}: {p}");
    assert_eq!(p["reordered"], 0, "{phase}: {p}");
    assert!(p["serverCpuS"].as_f64().unwrap() > 0.0, "{phase}: {p}");
    assert!(p["p99"].as_f64().unwrap() >= 0.0, "{phase}: {p}");
}

/// The table secret the product signs view tokens with in these tests.
const TABLE_SECRET: &str = "smoke-table-secret-0123";

/// Runs the harness in fanout mode against `server` (run 1 of `label`), with `extra` arguments
/// (the product's Redis), and checks every delivery arrived.
fn drive(server: Server, port: u16, harness: &Path, label: &str, extra: &[&str], dir: &Path) {
    // Named as `tests/bench/run.sh` names run 1 of a benchmark.
    let out = dir.join(format!("{SOCKETS}-{label}.1.json"));
    let addr_base = if label == "rust" { 250 } else { 252 };
    let status = Command::new(harness)
        .args([
            "--port",
            &port.to_string(),
            "--pid",
            &server.0.id().to_string(),
        ])
        .args(["--table-secret", TABLE_SECRET])
        .args(extra)
        .args(["--n", &SOCKETS.to_string(), "--stores", &STORES.to_string()])
        .args(["--rate", &RATE.to_string(), "--seconds", "1"])
        .args(["--burst", &BURST.to_string(), "--payload", "16"])
        // 127.0.0.250 and up: clear of the benchmark's own 127.0.0.2, .3 …
        .args([
            "--addr-base",
            &addr_base.to_string(),
            "--per-addr",
            "30",
            "--connect-timeout",
            "30",
        ])
        .args(["--label", label, "--out", out.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success(), "{label}: harness exited with {status}");
    drop(server);

    let result: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(result["connected"], SOCKETS, "{result}");
    assert_eq!(result["stillOpen"], SOCKETS, "{result}");
    assert!(result["rssPerSocket"].as_f64().unwrap() > 0.0, "{result}");
    // Fixed rate: RATE events over the store rooms and as many order rooms, round-robin, each
    // store room holding SOCKETS / STORES sockets and each order room two.
    let per_store = SOCKETS / STORES;
    let rooms = 2 * STORES;
    let rounds = RATE / rooms;
    phase_is_complete(&result, "rate", rounds * STORES * (per_store + 2));
    phase_is_complete(&result, "burst", BURST * STORES * per_store);
}

/// The benchmark's orders (tests/bench/seed-orders.sql, `count` of them) in the migrated but
/// otherwise empty embedded database under `dir`.
fn seed_orders(dir: &Path, count: u64) {
    let status = Command::new(env!("CARGO_BIN_EXE_pizza-order"))
        .args(["--data-dir", dir.join("data").to_str().unwrap(), "migrate"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "pizza-order migrate: {status}");
    let sql = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/bench/seed-orders.sql"
    ))
    .unwrap()
    .replace(":orders", &count.to_string());
    let url = format!("sqlite://{}", dir.join("data/pizza.db").display());
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            use sqlx::Connection;
            let mut conn = sqlx::SqliteConnection::connect(&url).await.unwrap();
            sqlx::raw_sql(&sql).execute(&mut conn).await.unwrap();
        });
}

#[test]
fn the_harness_drives_the_product_through_redis_and_the_floor_and_the_report_reads_them() {
    let examples = examples_dir();
    let binaries = ["bench_floor", "bench_harness"].map(|b| examples.join(b));
    if binaries.iter().any(|b| !b.is_file()) {
        let message = format!(
            "no bench_floor/bench_harness in {} (cargo test --workspace builds them)",
            examples.display()
        );
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
        println!("SKIPPED: {message}");
        return;
    }
    if !redis_ready() {
        return;
    }
    let [floor, harness] = &binaries;

    let dir = std::env::temp_dir().join(format!("bench-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The product follows SOCKETS / 2 seeded orders and publishes nothing of its own: the
    // harness publishes the events into Redis as another node, on the product's key prefix.
    seed_orders(&dir, SOCKETS / 2);
    let prefix = Prefix::new();
    let key_prefix = format!("{}:", prefix.0);
    let url = redis_url();
    let (product, port) = start_product(
        &dir,
        &[
            ("REDIS_URL", &url),
            ("PIZZA__REDIS__KEY_PREFIX", &key_prefix),
        ],
    );
    let publisher = [
        "--redis-url",
        url.as_str(),
        "--redis-prefix",
        key_prefix.as_str(),
    ];
    drive(product, port, harness, "rust", &publisher, &dir);
    let (server, port) = start_server(floor);
    drive(server, port, harness, "floor", &[], &dir);

    let report = Command::new("node")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/bench/report.mjs"
        ))
        .arg(&dir)
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    match report {
        Ok(report) => {
            let text = String::from_utf8_lossy(&report.stdout);
            assert!(
                report.status.success(),
                "{text}{}",
                String::from_utf8_lossy(&report.stderr)
            );
            assert!(text.contains(&format!("N = {SOCKETS} sockets")), "{text}");
            assert!(text.contains("deliveries per server CPU-second"), "{text}");
            assert!(text.contains(&format!("N={SOCKETS}: floor ")), "{text}");
        }
        Err(error) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "node: {error}"
            );
            println!("SKIPPED the report: no node ({error})");
        }
    }
}

/// Runs the harness in inbound mode against `server` (started by `start`), as run.sh names run
/// 1 of `label`, and checks that every request was answered.
fn drive_inbound(server: Server, port: u16, harness: &Path, label: &str, watch: bool, dir: &Path) {
    let out = dir.join(format!("{SOCKETS}-{label}.1.json"));
    let mut command = Command::new(harness);
    command
        .args(["--mode", "inbound", "--port", &port.to_string()])
        .args(["--pid", &server.0.id().to_string()])
        .args([
            "--n",
            &SOCKETS.to_string(),
            "--sync-rate",
            "200",
            "--seconds",
            "1",
        ])
        .args([
            "--addr-base",
            "248",
            "--per-addr",
            "30",
            "--connect-timeout",
            "30",
        ])
        .args(["--label", label, "--out", out.to_str().unwrap()]);
    if watch {
        command.args(["--watch-orders", "5", "--table-secret", TABLE_SECRET]);
    }
    let status = command.status().unwrap();
    assert!(status.success(), "{label}: harness exited with {status}");
    drop(server);
    let result: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(result["connected"], SOCKETS, "{result}");
    assert_eq!(result["stillOpen"], SOCKETS, "{result}");
    let sync = &result["phases"]["sync"];
    assert_eq!(sync["expected"], 200, "{sync}");
    assert_eq!(sync["received"], 200, "{sync}");
    assert!(sync["acksPerCpuS"].as_f64().unwrap() > 0.0, "{sync}");
    if watch {
        let watched = &result["phases"]["watch"];
        assert_eq!(watched["received"], SOCKETS, "{watched}");
        assert_eq!(watched["refused"], 0, "{watched}");
    }
}

/// `pizza-order serve` (this build's binary) on the embedded database under `dir` (fresh and
/// empty unless seeded) and a free port, with `env` besides.
fn start_product(dir: &Path, env: &[(&str, &str)]) -> (Server, u16) {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(env!("CARGO_BIN_EXE_pizza-order"))
        .args(["--data-dir", dir.join("data").to_str().unwrap(), "serve"])
        .env("PIZZA__SERVER__BIND", format!("127.0.0.1:{port}"))
        .env("PIZZA__SERVER__WORKERS", "1")
        .env("PIZZA__ORDERING__TABLE_SECRET", TABLE_SECRET)
        .envs(env.iter().copied())
        // No demo chain: time:sync needs none, and seeding it in a debug build is seconds of
        // CPU that the timing-sensitive tests running beside this one would feel.
        .env("PIZZA__DATABASE__SEED_WHEN_EMPTY", "false")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = Server(child);
    // Migrating and seeding come first: wait until it listens.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "pizza-order did not listen"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    (server, port)
}

#[test]
fn the_inbound_harness_drives_the_product_and_the_floor_and_the_report_reads_them() {
    let examples = examples_dir();
    let binaries = ["bench_floor", "bench_harness"].map(|b| examples.join(b));
    if binaries.iter().any(|b| !b.is_file()) {
        let message = format!(
            "no bench_floor/bench_harness in {} (cargo test --workspace builds them)",
            examples.display()
        );
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
        println!("SKIPPED: {message}");
        return;
    }
    let [floor, harness] = &binaries;
    let dir = std::env::temp_dir().join(format!("bench-inbound-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    // The product answers time:sync (order:watch needs seeded orders: run.sh seeds them).
    let (product, port) = start_product(&dir, &[]);
    drive_inbound(product, port, harness, "rust", false, &dir);
    // The floor answers both, order:watch without a database.
    let (server, port) = start_server(floor);
    drive_inbound(server, port, harness, "floor", true, &dir);

    let report = Command::new("node")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/bench/report-inbound.mjs"
        ))
        .arg(&dir)
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    match report {
        Ok(report) => {
            let text = String::from_utf8_lossy(&report.stdout);
            assert!(
                report.status.success(),
                "{text}{}",
                String::from_utf8_lossy(&report.stderr)
            );
            assert!(text.contains(&format!("N = {SOCKETS} sockets")), "{text}");
            assert!(text.contains("acks per server CPU-second"), "{text}");
            assert!(text.contains(&format!("N={SOCKETS}: ")), "{text}");
        }
        Err(error) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "node: {error}"
            );
            println!("SKIPPED the report: no node ({error})");
        }
    }
}
