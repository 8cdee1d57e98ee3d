//! The access line, formatted here rather than by the tracing subscriber. It is the one line
//! written for every request, and the subscriber's generic formatting (each field through
//! `Debug`, the timestamp, the level's styling) cost more than the rest of answering
//! `/system/time` put together. Here it is a few writes of known text into a reused buffer,
//! handed to the same non-blocking writer as every other line, in the same two formats.
//!
//! The subscriber's filter still decides: the line is written only where an `info` event of
//! this module would be. Without the server's own subscriber (tests install theirs) the line
//! goes through tracing as an ordinary event instead.

use crate::config::LogFormat;
use chrono::{DateTime, Datelike, Timelike, Utc};
use std::cell::RefCell;
use std::io::Write;
use std::net::IpAddr;
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};
use tracing_appender::non_blocking::NonBlocking;

/// [`TARGET`] as a literal, for `concat!`.
macro_rules! target {
    () => {
        "pizza_order::http::edge::request_log"
    };
}

/// The module the line is attributed to, as the subscriber would name it.
pub const TARGET: &str = target!();

struct Sink {
    writer: NonBlocking,
    format: LogFormat,
}

static SINK: OnceLock<Sink> = OnceLock::new();

/// Called once the server's subscriber is installed, with its writer and format.
pub fn install(writer: NonBlocking, format: LogFormat) {
    let _ = SINK.set(Sink { writer, format });
}

/// One request's line.
pub struct Line<'a> {
    pub status: u16,
    pub elapsed: Duration,
    pub method: &'a str,
    pub route: &'a str,
    pub target: &'a str,
    /// None without a peer address (tests): "unknown".
    pub client_ip: Option<IpAddr>,
    pub request_id: &'a str,
}

/// Writes the line; false when there is no sink of ours (the caller then logs through tracing).
///
/// The line joins this worker thread's pending lines, handed to the writer as one message when
/// they reach [`HAND_OVER_BYTES`] or [`HAND_OVER_AFTER`] after the first of them, whichever
/// comes first: the access log's `buffer=` and `flush=` of nginx. A hand-over is an
/// allocation, a queue operation and the writer thread's wake-up, with its `write`, all on the
/// server's own cores; one now carries about a hundred lines under load. Once per turn of the
/// event loop, as it was, it carried a handful, and a single one for a quiet connection, whose
/// every request is a turn of its own (docs/operations.md, "The cost of the access log").
/// Called only while serving a request, so on one of the server's worker threads (a
/// `LocalSet`).
pub fn write(line: &Line<'_>) -> bool {
    let Some(sink) = SINK.get() else {
        return false;
    };
    let (first, full) = PENDING.with_borrow_mut(|buf| {
        let first = buf.is_empty();
        format(buf, sink.format, SystemTime::now(), line);
        (first, buf.len() >= HAND_OVER_BYTES)
    });
    if full {
        hand_over();
    } else if first {
        tokio::task::spawn_local(HandOverLater {
            at: Box::pin(tokio::time::sleep(HAND_OVER_AFTER)),
            done: false,
        });
    }
    true
}

/// A worker's lines are handed to the writer once they fill this much …
pub const HAND_OVER_BYTES: usize = 32 * 1024;
/// … or this long after the first of them, whichever comes first: a line is in the log at
/// most this late.
pub const HAND_OVER_AFTER: Duration = Duration::from_millis(100);

thread_local! {
    /// This thread's lines not yet handed to the writer.
    static PENDING: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Hands this thread's pending lines (if any) to the writer.
fn hand_over() {
    let Some(sink) = SINK.get() else {
        return;
    };
    // `try_with`: at the thread's exit its lines may be gone already, and nothing is left to do.
    let _ = PENDING.try_with(|buf| {
        let mut buf = buf.borrow_mut();
        if !buf.is_empty() {
            // Lossy like every other line: past the queue's bound it is dropped, never waited for.
            let _ = sink.writer.clone().write_all(&buf);
            buf.clear();
        }
    });
}

/// Hands the thread's lines over when its time comes, or when it is dropped without having
/// run out (the worker's runtime stopping with the server): a stopping server still writes the
/// lines of its last requests.
struct HandOverLater {
    at: std::pin::Pin<Box<tokio::time::Sleep>>,
    done: bool,
}

impl std::future::Future for HandOverLater {
    type Output = ();

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<()> {
        std::task::ready!(self.at.as_mut().poll(cx));
        self.done = true;
        hand_over();
        std::task::Poll::Ready(())
    }
}

impl Drop for HandOverLater {
    fn drop(&mut self) {
        if !self.done {
            hand_over();
        }
    }
}

pub fn format(buf: &mut Vec<u8>, format: LogFormat, now: SystemTime, line: &Line<'_>) {
    match format {
        LogFormat::Pretty => pretty(buf, now, line),
        LogFormat::Json => json(buf, now, line),
    }
}

/// What a line takes besides its route and target, rounded up: one reservation a line, so
/// the writes below need not grow the buffer one by one.
const LINE_ROOM: usize = 320;

/// As the compact formatter writes an event: `<time>  INFO <target>: request status=… …`.
fn pretty(buf: &mut Vec<u8>, now: SystemTime, line: &Line<'_>) {
    buf.reserve(LINE_ROOM + line.route.len() + line.target.len());
    timestamp(buf, now);
    buf.extend_from_slice(b"  INFO ");
    buf.extend_from_slice(TARGET.as_bytes());
    buf.extend_from_slice(b": request status=");
    number(buf, u64::from(line.status));
    buf.extend_from_slice(b" elapsed_ms=");
    millis(buf, line.elapsed);
    for (name, value) in [
        ("http.method", line.method),
        ("http.route", line.route),
        ("http.target", line.target),
    ] {
        buf.push(b' ');
        buf.extend_from_slice(name.as_bytes());
        buf.push(b'=');
        buf.extend_from_slice(value.as_bytes());
    }
    buf.extend_from_slice(b" http.client_ip=");
    ip(buf, line.client_ip);
    buf.extend_from_slice(b" request_id=");
    buf.extend_from_slice(line.request_id.as_bytes());
    buf.push(b'\n');
}

/// As the JSON formatter writes an event with its fields flattened, one object a line.
fn json(buf: &mut Vec<u8>, now: SystemTime, line: &Line<'_>) {
    buf.reserve(LINE_ROOM + line.route.len() + line.target.len());
    buf.extend_from_slice(b"{\"timestamp\":\"");
    timestamp(buf, now);
    buf.extend_from_slice(b"\",\"level\":\"INFO\",\"message\":\"request\",\"status\":");
    number(buf, u64::from(line.status));
    buf.extend_from_slice(b",\"elapsed_ms\":");
    millis(buf, line.elapsed);
    buf.extend_from_slice(b",\"http.client_ip\":\"");
    ip(buf, line.client_ip);
    // The method is one of `metrics::method_label`'s, the request id a UUID and the target
    // this module's name: plain ASCII, copied as they are. The route and the target come from
    // the request (a pattern of ours, the path as the client sent it) and are escaped.
    debug_assert!(line.method.bytes().all(|b| PLAIN[usize::from(b)]));
    debug_assert!(line.request_id.bytes().all(|b| PLAIN[usize::from(b)]));
    buf.extend_from_slice(b"\",\"http.method\":\"");
    buf.extend_from_slice(line.method.as_bytes());
    buf.extend_from_slice(b"\",\"http.route\":");
    json_string(buf, line.route);
    buf.extend_from_slice(b",\"http.target\":");
    json_string(buf, line.target);
    buf.extend_from_slice(b",\"request_id\":\"");
    buf.extend_from_slice(line.request_id.as_bytes());
    buf.extend_from_slice(JSON_END.as_bytes());
}

/// The end of every JSON line, the module's name included.
const JSON_END: &str = concat!("\",\"target\":\"", target!(), "\"}\n");

/// A JSON string. Nearly every value is plain ASCII with nothing to escape and is copied as it
/// is; one that is not (a quote or a backslash in a path, say) goes through serde_json.
fn json_string(buf: &mut Vec<u8>, value: &str) {
    if value.bytes().all(|b| PLAIN[usize::from(b)]) {
        buf.push(b'"');
        buf.extend_from_slice(value.as_bytes());
        buf.push(b'"');
    } else {
        let _ = serde_json::to_writer(&mut *buf, value);
    }
}

/// The bytes a JSON string holds as they are: printable ASCII but the quote and the backslash.
/// One load a byte, where the four comparisons cost more than the copy.
const PLAIN: [bool; 256] = {
    let mut plain = [false; 256];
    let mut b = 0x20;
    while b < 0x7f {
        plain[b] = b != b'"' as usize && b != b'\\' as usize;
        b += 1;
    }
    plain
};

/// RFC 3339 in UTC with microseconds, as the subscriber's own timestamps. The date and time
/// to the second are formatted once a second per thread, then copied.
fn timestamp(buf: &mut Vec<u8>, now: SystemTime) {
    thread_local! {
        static SECOND: RefCell<(u64, Vec<u8>)> = const { RefCell::new((u64::MAX, Vec::new())) };
    }
    let since = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    SECOND.with_borrow_mut(|(second, text)| {
        if *second != since.as_secs() {
            let t: DateTime<Utc> = now.into();
            text.clear();
            let _ = write!(
                text,
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
                t.year(),
                t.month(),
                t.day(),
                t.hour(),
                t.minute(),
                t.second(),
            );
            *second = since.as_secs();
        }
        buf.extend_from_slice(text);
    });
    buf.push(b'.');
    padded(buf, since.subsec_micros(), 6);
    buf.push(b'Z');
}

/// The client's address; IPv4, nearly every one, digit by digit rather than through `Display`.
fn ip(buf: &mut Vec<u8>, ip: Option<IpAddr>) {
    match ip {
        Some(IpAddr::V4(v4)) => {
            for (i, octet) in v4.octets().into_iter().enumerate() {
                if i > 0 {
                    buf.push(b'.');
                }
                if octet >= 100 {
                    buf.push(b'0' + octet / 100);
                }
                if octet >= 10 {
                    buf.push(b'0' + octet / 10 % 10);
                }
                buf.push(b'0' + octet % 10);
            }
        }
        Some(v6) => {
            let _ = write!(buf, "{v6}");
        }
        None => buf.extend_from_slice(b"unknown"),
    }
}

/// Milliseconds with three decimals (the microsecond is the clock's useful resolution here).
fn millis(buf: &mut Vec<u8>, elapsed: Duration) {
    let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
    number(buf, micros / 1000);
    buf.push(b'.');
    padded(buf, (micros % 1000) as u32, 3);
}

// Numbers digit by digit: `write!` goes through the formatting machinery, several hundred
// instructions a number, on every line.

fn number(buf: &mut Vec<u8>, n: u64) {
    buf.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// `n` in exactly `width` digits, zeros in front (`n` < 10^width).
fn padded(buf: &mut Vec<u8>, n: u32, width: u32) {
    let mut div = 10u32.pow(width - 1);
    while div > 0 {
        buf.push(b'0' + (n / div % 10) as u8);
        div /= 10;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line() -> Line<'static> {
        Line {
            status: 200,
            elapsed: Duration::from_micros(1_234),
            method: "GET",
            route: "/api/v1/stores/{storeCode}",
            target: "/api/v1/stores/SH001?x=\"a\\b\"",
            client_ip: Some(IpAddr::from([203, 0, 113, 7])),
            request_id: "6f1c1f0e-2a9b-4c1e-9d1e-0f4b5f1c2d3e",
        }
    }

    /// What the log's writer thread wrote, shared with the test.
    #[derive(Clone, Default)]
    struct Written(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Written {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| std::io::ErrorKind::Other)?
                .extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Written {
        fn lines_with(&self, marker: &str) -> usize {
            let text = self.0.lock().map(|b| b.clone()).unwrap_or_default();
            String::from_utf8_lossy(&text)
                .lines()
                .filter(|l| l.contains(marker))
                .count()
        }

        /// Waits (the writer is a thread of its own) for `n` lines holding `marker`.
        fn wait_for(&self, marker: &str, n: usize) -> usize {
            let deadline = std::time::Instant::now() + Duration::from_secs(5);
            while self.lines_with(marker) < n && std::time::Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            self.lines_with(marker)
        }
    }

    fn marked(marker: &str) -> Line<'_> {
        Line {
            target: marker,
            ..line()
        }
    }

    /// A worker thread's runtime. The test blocks it (`std::thread::sleep`, `wait_for`) where
    /// no timer may run meanwhile, and awaits where the hand-over's timer may.
    fn worker() -> (tokio::runtime::Runtime, tokio::task::LocalSet) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        (runtime, tokio::task::LocalSet::new())
    }

    /// The three ways a worker's lines reach the writer. One test: the sink is the process's.
    #[test]
    fn lines_are_handed_over_when_due_when_full_and_when_the_worker_stops() {
        let written = Written::default();
        let (writer, _guard) = tracing_appender::non_blocking(written.clone());
        install(writer, LogFormat::Json);
        let (runtime, local) = worker();

        // Due: held while the worker is busy (blocked here, past the delay), out once its timer
        // has run.
        local.block_on(&runtime, async {
            for _ in 0..3 {
                assert!(write(&marked("/due")));
            }
            std::thread::sleep(HAND_OVER_AFTER + Duration::from_millis(50));
            assert_eq!(written.lines_with("/due"), 0);
            tokio::time::sleep(HAND_OVER_AFTER + Duration::from_millis(20)).await;
            assert_eq!(written.wait_for("/due", 3), 3);
        });

        // Full: the line that fills the buffer hands it over, itself included, at once (the
        // worker never yields to its timer here).
        local.block_on(&runtime, async {
            let mut lines = 0;
            while PENDING.with_borrow(Vec::len) + 400 < HAND_OVER_BYTES {
                write(&marked("/full"));
                lines += 1;
            }
            write(&marked("/full"));
            write(&marked("/full"));
            lines += 2;
            assert_eq!(written.wait_for("/full", lines - 1), lines - 1);
            tokio::time::sleep(HAND_OVER_AFTER + Duration::from_millis(20)).await;
            assert_eq!(written.wait_for("/full", lines), lines);
        });

        // The worker stops (its runtime dropped) before the delay: the lines still go.
        local.block_on(&runtime, async {
            for _ in 0..2 {
                write(&marked("/stopping"));
            }
        });
        drop(local);
        drop(runtime);
        assert_eq!(written.wait_for("/stopping", 2), 2);
    }

    fn at() -> SystemTime {
        // 2026-11-25T14:48:17.216974Z
        SystemTime::UNIX_EPOCH + Duration::from_micros(1_795_618_097_216_974)
    }

    fn text(format: LogFormat, line: &Line<'_>) -> String {
        let mut buf = Vec::new();
        super::format(&mut buf, format, at(), line);
        String::from_utf8(buf).unwrap_or_default()
    }

    #[test]
    fn the_pretty_line_is_the_compact_formatters_shape() {
        assert_eq!(
            text(LogFormat::Pretty, &line()),
            "2026-11-25T14:48:17.216974Z  INFO pizza_order::http::edge::request_log: request status=200 \
             elapsed_ms=1.234 http.method=GET http.route=/api/v1/stores/{storeCode} \
             http.target=/api/v1/stores/SH001?x=\"a\\b\" http.client_ip=203.0.113.7 \
             request_id=6f1c1f0e-2a9b-4c1e-9d1e-0f4b5f1c2d3e\n"
        );
    }

    #[test]
    fn the_json_line_is_one_object_with_every_field() {
        let text = text(LogFormat::Json, &line());
        assert!(text.ends_with("}\n") && text.lines().count() == 1, "{text}");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        let want = serde_json::json!({
            "timestamp": "2026-11-25T14:48:17.216974Z", "level": "INFO", "message": "request",
            "status": 200, "elapsed_ms": 1.234, "http.method": "GET",
            "http.route": "/api/v1/stores/{storeCode}", "http.target": "/api/v1/stores/SH001?x=\"a\\b\"",
            "http.client_ip": "203.0.113.7", "request_id": "6f1c1f0e-2a9b-4c1e-9d1e-0f4b5f1c2d3e",
            "target": TARGET,
        });
        assert_eq!(value, want);
    }

    #[test]
    fn timestamps_follow_the_clock_across_seconds() {
        let cases = [
            (0, "1970-01-01T00:00:00.000000Z"),
            (1_795_618_097_216_974, "2026-11-25T14:48:17.216974Z"),
            (1_795_618_097_999_999, "2026-11-25T14:48:17.999999Z"),
            (1_795_618_098_000_001, "2026-11-25T14:48:18.000001Z"),
            (1_795_618_097_000_000, "2026-11-25T14:48:17.000000Z"),
        ];
        for (micros, want) in cases {
            let mut buf = Vec::new();
            timestamp(
                &mut buf,
                SystemTime::UNIX_EPOCH + Duration::from_micros(micros),
            );
            assert_eq!(String::from_utf8(buf).unwrap_or_default(), want);
        }
    }

    #[test]
    fn addresses_are_written_as_display_writes_them() {
        let cases: [Option<IpAddr>; 7] = [
            Some(IpAddr::from([0, 0, 0, 0])),
            Some(IpAddr::from([9, 10, 99, 100])),
            Some(IpAddr::from([255, 201, 110, 101])),
            Some(IpAddr::from([127, 0, 0, 1])),
            Some(IpAddr::from([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1])),
            Some(
                "::ffff:1.2.3.4"
                    .parse()
                    .unwrap_or(IpAddr::from([0, 0, 0, 0])),
            ),
            None,
        ];
        for case in cases {
            let mut buf = Vec::new();
            ip(&mut buf, case);
            let want = case.map_or_else(|| "unknown".to_string(), |ip| ip.to_string());
            assert_eq!(String::from_utf8(buf).unwrap_or_default(), want);
        }
        for octet in 0..=255u8 {
            let mut buf = Vec::new();
            ip(&mut buf, Some(IpAddr::from([octet, 1, 2, 3])));
            assert_eq!(
                String::from_utf8(buf).unwrap_or_default(),
                format!("{octet}.1.2.3")
            );
        }
    }

    #[test]
    fn elapsed_times_keep_three_decimals() {
        let cases = [
            (Duration::ZERO, "0.000"),
            (Duration::from_nanos(999), "0.000"),
            (Duration::from_micros(7), "0.007"),
            (Duration::from_micros(1_050), "1.050"),
            (Duration::from_secs(12), "12000.000"),
        ];
        for (elapsed, want) in cases {
            let mut buf = Vec::new();
            millis(&mut buf, elapsed);
            assert_eq!(String::from_utf8(buf).unwrap_or_default(), want);
        }
    }

    #[test]
    fn numbers_are_written_as_format_writes_them() {
        let written = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut buf = Vec::new();
            f(&mut buf);
            String::from_utf8(buf).unwrap_or_default()
        };
        for n in [0u64, 7, 10, 99, 100, 200, 404, 65_535, 1_000_000, u64::MAX] {
            assert_eq!(written(&|b| number(b, n)), n.to_string());
        }
        for n in [0u32, 5, 42, 999, 1_000, 123_456, 999_999] {
            assert_eq!(written(&|b| padded(b, n, 6)), format!("{n:06}"));
        }
        for n in 0..1_000u32 {
            assert_eq!(written(&|b| padded(b, n, 3)), format!("{n:03}"));
        }
    }

    #[test]
    fn json_strings_are_what_serde_json_writes() {
        for value in [
            "",
            "/api/v1/stores/SH001",
            "/x?q=\"a\\b\"",
            "tab\there",
            "门店",
            "\u{7f}",
            "a\u{1}b",
        ] {
            let mut buf = Vec::new();
            json_string(&mut buf, value);
            let want = serde_json::to_string(value).unwrap_or_default();
            assert_eq!(
                String::from_utf8(buf).unwrap_or_default(),
                want,
                "{value:?}"
            );
        }
    }
}
