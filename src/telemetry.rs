//! One subscriber set-up: readable logs in development, JSON in production.

use crate::config::{LogFormat, LogSettings};
use tracing_subscriber::{fmt, prelude::*, EnvFilter};

pub fn init(settings: &LogSettings) {
    let filter = EnvFilter::try_from_env("RUST_LOG")
        .unwrap_or_else(|_| EnvFilter::new(settings.filter.clone()));
    let registry = tracing_subscriber::registry().with(filter);
    // try_init: tests start several apps in one process; the first subscriber wins.
    let _ = match settings.format {
        LogFormat::Json => registry
            .with(
                fmt::layer()
                    .json()
                    .flatten_event(true)
                    .with_current_span(true)
                    .with_span_list(false),
            )
            .try_init(),
        LogFormat::Pretty => registry.with(fmt::layer().compact()).try_init(),
    };
}
