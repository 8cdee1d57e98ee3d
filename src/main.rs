//! pizza-order: serve the product, apply the schema, load the demo chain, print a table's
//! link, reconcile a day's payments with the provider, or print the API's OpenAPI document.

use anyhow::Context;
use clap::{Parser, Subcommand};
use pizza_order::app::{open_database, Application};
use pizza_order::config::{default_config_dir, Settings};
use std::path::PathBuf;

/// mimalloc, not the system's malloc: a request allocates and frees a few dozen small buffers
/// (headers, the body, the request's state) on one worker thread, which mimalloc's per-thread
/// free lists serve in a fraction of glibc's instructions (docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "pizza-order",
    version,
    about = "The pizza chain's ordering system"
)]
struct Cli {
    /// Folder holding default.toml and the environment files.
    #[arg(long, global = true, env = "PIZZA_CONFIG_DIR")]
    config_dir: Option<PathBuf>,
    /// Where the embedded database and the keys made on first start live. Every command takes
    /// it: `reconcile` and `table-link` must read the server's database and keys, not ./data.
    #[arg(long, global = true)]
    data_dir: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// HTTP and Socket.IO on one port, serving the built app; migrates (and seeds an empty
    /// embedded database) before it listens.
    Serve {
        /// Address to listen on, e.g. 127.0.0.1:8080.
        #[arg(long)]
        bind: Option<String>,
    },
    /// Apply the schema.
    Migrate,
    /// Load the demo chain: cities, stores, menu.
    Seed,
    /// Print the scan-to-order link for a table (what its QR code holds).
    TableLink {
        /// e.g. SH001.
        store_code: String,
        /// e.g. A12: 1-16 letters, digits or '-'.
        desk_no: String,
        /// Where customers open the app.
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        base_url: String,
    },
    /// Compare the payment provider's statement of a day with our payments and refunds:
    /// settle the payments whose notify we missed, and report what cannot be repaired. Then
    /// compare every points balance with its ledger (docs/loyalty.md).
    Reconcile {
        /// The China calendar day, YYYY-MM-DD; yesterday (China time) when omitted.
        #[arg(long)]
        date: Option<chrono::NaiveDate>,
    },
    /// Print the OpenAPI document the server serves at /api-docs/openapi.json, so the app's
    /// TypeScript types can be generated without a running server (`npm run gen:api`).
    Openapi,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if let Command::Openapi = cli.command {
        // The document is the annotations alone: no settings, database or log (the log writes
        // to stdout, which must hold nothing but the JSON).
        return print_openapi();
    }
    let config_dir = cli.config_dir.unwrap_or_else(default_config_dir);
    let mut settings = Settings::load(&config_dir).context("reading the configuration")?;
    if let Some(dir) = cli.data_dir {
        settings.server.data_dir = dir;
    }
    // Held to the end of main: dropping it flushes the queued log lines.
    let _log_writer = pizza_order::telemetry::init(&settings.log);
    actix_web::rt::System::new().block_on(async move {
        match cli.command {
            Command::Serve { bind } => {
                if let Some(bind) = bind {
                    settings.server.bind = bind;
                }
                let app = Application::build(settings, actors::clock::Clock::System).await?;
                app.run_until_stopped().await?;
            }
            Command::Migrate => {
                let db = open_database(&settings).await?;
                db.migrate().await?;
                tracing::info!("schema is up to date");
            }
            Command::Seed => {
                let db = open_database(&settings).await?;
                db.migrate().await?;
                pizza_order::seed::run(&db).await?;
            }
            Command::TableLink {
                store_code,
                desk_no,
                base_url,
            } => {
                anyhow::ensure!(
                    actors::domain::ordering::scan_order::valid_desk_no(&desk_no),
                    "desk number: 1-16 letters, digits or '-'"
                );
                let db = open_database(&settings).await?;
                db.migrate().await?;
                let catalogue = actors::db::catalogue::CatalogueRepo::new(db).load().await?;
                let store = catalogue
                    .stores
                    .iter()
                    .find(|s| s.store_code == store_code)
                    .with_context(|| format!("no store {store_code}"))?;
                let secret = pizza_order::app::table_secret(&settings)?;
                let link = pizza_order::http::orders::table_link(
                    &secret,
                    &base_url,
                    &store.name.cn,
                    &store.store_code,
                    &desk_no,
                );
                println!("{}", link.url);
            }
            Command::Reconcile { date } => {
                let clock = actors::clock::Clock::System;
                let day =
                    date.unwrap_or_else(|| actors::payments::reconcile::yesterday(clock.now_ms()));
                let app = Application::for_command(settings, clock).await?;
                let report = pizza_order::reconcile_job::run(app.state(), day, "cli").await?;
                print!("{}", report.summary());
                // The points ledger too: every balance against its entries, lots and holds;
                // and every ended order against what its ledgers hold.
                let ledgers = app.state().loyalty.reconcile().await?;
                println!(
                    "points: {} balances checked, {} mismatches; orders: {} ended checked, {} lost reversals",
                    ledgers.points.checked,
                    ledgers.points.mismatches.len(),
                    ledgers.reversals.checked,
                    ledgers.reversals.lost.len()
                );
                for m in &ledgers.points.mismatches {
                    println!("  points mismatch: {m:?}");
                }
                for l in &ledgers.reversals.lost {
                    println!("  lost reversal: {l:?}");
                }
            }
            Command::Openapi => print_openapi()?,
        }
        Ok(())
    })
}

fn print_openapi() -> anyhow::Result<()> {
    let doc = pizza_order::http::openapi::document();
    println!("{}", serde_json::to_string_pretty(&doc)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command reads the data dir it is given (before or after the command's name), so
    /// `reconcile` or `table-link` beside `serve --data-dir X` reads X's database and keys.
    #[test]
    fn every_command_takes_the_data_dir() {
        let commands: [&[&str]; 6] = [
            &["serve", "--bind", "127.0.0.1:1"],
            &["migrate"],
            &["seed"],
            &["table-link", "SH001", "A12"],
            &["reconcile"],
            &["reconcile", "--date", "2026-11-24"],
        ];
        for command in commands {
            for before in [true, false] {
                let mut args = vec!["pizza-order"];
                if before {
                    args.extend(["--data-dir", "/tmp/x"]);
                }
                args.extend(command);
                if !before {
                    args.extend(["--data-dir", "/tmp/x"]);
                }
                let cli = Cli::try_parse_from(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
                assert_eq!(cli.data_dir, Some(PathBuf::from("/tmp/x")), "{args:?}");
            }
        }
    }
}
