//! The server: HTTP and Socket.IO edges over the `actors` domain core.

pub mod app;
pub mod config;
pub mod housekeeping;
pub mod http;
pub mod metrics;
pub mod providers;
pub mod realtime;
pub mod reconcile_job;
pub mod seed;
pub mod state;
pub mod telemetry;
