//! One subscriber set-up: readable logs in development, JSON in production. Lines go through
//! a non-blocking writer: a request formats its line and queues it; a background thread does
//! the write, so a slow or busy stdout never holds a worker.

use crate::config::{LogFormat, LogSettings};
use std::io::IsTerminal;
use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::fmt::format::{FormatEvent, FormatFields, Writer};
use tracing_subscriber::fmt::FmtContext;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::{fmt, prelude::*, EnvFilter};

/// Installs the subscriber. Keep the answer for the life of the process: dropping it flushes
/// and stops the writer thread. `None` when a subscriber was already set (tests start several
/// apps in one process; the first subscriber wins).
#[must_use = "dropping the guard stops the log writer"]
pub fn init(settings: &LogSettings) -> Option<WorkerGuard> {
    let filter = EnvFilter::try_from_env("RUST_LOG")
        .unwrap_or_else(|_| EnvFilter::new(settings.filter.clone()));
    // Past its buffer (128k lines) the writer drops lines rather than block the server. Its
    // thread writes every line queued and then flushes, so under load one write carries many
    // lines instead of one system call a line; a line never waits longer than the queue is busy.
    let stdout = std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout());
    let (writer, guard) = tracing_appender::non_blocking(stdout);
    let registry = tracing_subscriber::registry().with(filter);
    let installed = match settings.format {
        LogFormat::Json => registry
            .with(
                fmt::layer()
                    .json()
                    .flatten_event(true)
                    .with_current_span(true)
                    .with_span_list(false)
                    .map_event_format(|f| WithRequestId {
                        inner: f,
                        json: true,
                    })
                    .with_writer(writer.clone()),
            )
            .try_init(),
        LogFormat::Pretty => registry
            .with(
                fmt::layer()
                    .compact()
                    // Colour codes only for a person at a terminal, never into a file or a pipe.
                    .with_ansi(std::io::stdout().is_terminal())
                    .map_event_format(|f| WithRequestId {
                        inner: f,
                        json: false,
                    })
                    .with_writer(writer.clone()),
            )
            .try_init(),
    };
    installed.ok().map(|()| {
        // The access line is formatted by hand and queued on the same writer.
        crate::http::edge::access_line::install(writer, settings.format);
        guard
    })
}

/// Adds the request id to a line written while a request is served (by its handler, say:
/// the access line carries it already), so the line says which request it belongs to. The
/// line is formatted as usual, then the field is put before its end: `request_id=…` in the
/// readable format, `"request_id":"…"` in JSON. At a terminal (colour codes) lines are left
/// as they are.
struct WithRequestId<F> {
    inner: F,
    json: bool,
}

impl<S, N, F> FormatEvent<S, N> for WithRequestId<F>
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
    F: FormatEvent<S, N>,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        let id = crate::http::edge::context::current_request_id();
        let Some(id) = id.filter(|_| !writer.has_ansi_escapes()) else {
            return self.inner.format_event(ctx, writer, event);
        };
        let mut line = String::new();
        self.inner
            .format_event(ctx, Writer::new(&mut line), event)?;
        writer.write_str(&with_field(&line, &id.to_string(), self.json))
    }
}

/// The line with the request id added before its end (and its closing brace, in JSON).
fn with_field(line: &str, id: &str, json: bool) -> String {
    let body = line.trim_end_matches('\n');
    match (json, body.strip_suffix('}')) {
        (true, Some(object)) => format!("{object},\"request_id\":\"{id}\"}}\n"),
        _ => format!("{body} request_id={id}\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::with_field;

    #[test]
    fn the_request_id_goes_at_the_end_of_the_line() {
        let id = "6f1c1f0e-2a9b-4c1e-9d1e-0f4b5f1c2d3e";
        let cases = [
            (
                "2026-11-25T14:48:17.216974Z  WARN pizza_order::http::accounts::auth: refused reason=x\n",
                false,
                "2026-11-25T14:48:17.216974Z  WARN pizza_order::http::accounts::auth: refused reason=x request_id=6f1c1f0e-2a9b-4c1e-9d1e-0f4b5f1c2d3e\n",
            ),
            (
                "{\"level\":\"WARN\",\"message\":\"refused\"}\n",
                true,
                "{\"level\":\"WARN\",\"message\":\"refused\",\"request_id\":\"6f1c1f0e-2a9b-4c1e-9d1e-0f4b5f1c2d3e\"}\n",
            ),
        ];
        for (line, json, want) in cases {
            assert_eq!(with_field(line, id, json), want);
        }
        let parsed: serde_json::Value =
            serde_json::from_str(&with_field(cases[1].0, id, true)).unwrap_or_default();
        assert_eq!(parsed["request_id"], id);
    }
}
