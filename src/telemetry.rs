//! One subscriber set-up: readable logs in development, JSON in production. Lines go through
//! a non-blocking writer: a request formats its line and queues it; a background thread does
//! the write, so a slow or busy stdout never holds a worker.

use crate::config::{LogFormat, LogSettings};
use std::io::IsTerminal;
use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::{fmt, prelude::*, EnvFilter};

/// Installs the subscriber. Keep the answer for the life of the process: dropping it flushes
/// and stops the writer thread. `None` when a subscriber was already set (tests start several
/// apps in one process; the first subscriber wins).
#[must_use = "dropping the guard stops the log writer"]
pub fn init(settings: &LogSettings) -> Option<WorkerGuard> {
    let filter = EnvFilter::try_from_env("RUST_LOG")
        .unwrap_or_else(|_| EnvFilter::new(settings.filter.clone()));
    // Past its buffer (128k lines) the writer drops lines rather than block the server.
    let (writer, guard) = tracing_appender::non_blocking(std::io::stdout());
    let registry = tracing_subscriber::registry().with(filter);
    let installed = match settings.format {
        LogFormat::Json => registry
            .with(
                fmt::layer()
                    .json()
                    .flatten_event(true)
                    .with_current_span(true)
                    .with_span_list(false)
                    .with_writer(writer),
            )
            .try_init(),
        LogFormat::Pretty => registry
            .with(
                fmt::layer()
                    .compact()
                    // Colour codes only for a person at a terminal, never into a file or a pipe.
                    .with_ansi(std::io::stdout().is_terminal())
                    .with_writer(writer),
            )
            .try_init(),
    };
    installed.ok().map(|()| guard)
}
