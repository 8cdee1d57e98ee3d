//! Persistence: one `Any` pool over SQLite (embedded default) or PostgreSQL (production).
//!
//! Queries are written once with `$1, $2 …` placeholders in ascending order, which both
//! drivers bind by number; columns are TEXT, BIGINT and DOUBLE so they decode alike on both.

pub mod addresses;
pub mod carts;
pub mod catalogue;
pub mod comments;
pub mod consents;
pub mod coupons;
pub mod gifts;
pub mod idempotency;
pub mod locks;
pub mod login_failures;
pub mod members;
pub mod order_numbers;
pub mod orders;
pub mod outbox;
pub mod payments;
pub mod points;
pub mod privileges;
pub mod reversals;
pub mod sessions;
pub mod sms_codes;
pub mod staff;
pub mod store_boards;
pub mod users;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::Migrator;
use sqlx::{Any, AnyPool, Executor, Transaction};
use std::str::FromStr;
use std::time::Duration;

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("../migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("../migrations/postgres");

/// A transaction on the pool, as the repositories' `…_in` functions take it.
pub type Tx = Transaction<'static, Any>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("unsupported database url (expected sqlite: or postgres:): {0}")]
    UnsupportedUrl(String),
    #[error(transparent)]
    Sqlx(#[from] sqlx::Error),
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("stored document is corrupt: {0}")]
    Corrupt(#[from] serde_json::Error),
    #[error("write conflict on {0}: it changed meanwhile")]
    Conflict(String),
}

impl DbError {
    /// A unique key refused the write (the same key written twice).
    pub fn is_unique_violation(&self) -> bool {
        matches!(self, DbError::Sqlx(sqlx::Error::Database(e)) if e.is_unique_violation())
    }
}

/// The database handle every repository takes. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
}

impl Db {
    /// Connects to `sqlite://path?mode=rwc` or `postgres://…`.
    pub async fn connect(url: &str, max_connections: u32) -> Result<Db, DbError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            return Err(DbError::UnsupportedUrl(redact(url)));
        };
        let options = AnyConnectOptions::from_str(url)?;
        let pool = AnyPoolOptions::new()
            // SQLite allows one writer; a small pool with a busy timeout avoids lock errors.
            .max_connections(match backend {
                Backend::Sqlite => max_connections.min(4),
                Backend::Postgres => max_connections,
            })
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        conn.execute(
                            "PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; \
                             PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;",
                        )
                        .await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        Ok(Db { pool, backend })
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub async fn migrate(&self) -> Result<(), DbError> {
        let migrator = match self.backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            Backend::Postgres => &POSTGRES_MIGRATIONS,
        };
        migrator.run(&self.pool).await?;
        Ok(())
    }

    /// A round trip, for the readiness check.
    pub async fn ping(&self) -> Result<(), DbError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// A database url without its password, for logs and errors.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let userinfo = &url[scheme_end + 3..at];
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{}://{}:***@{}", &url[..scheme_end], user, &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_passwords() {
        let cases = [
            (
                "postgres://u:secret@h:5432/db",
                "postgres://u:***@h:5432/db",
            ),
            ("postgres://h/db", "postgres://h/db"),
            ("sqlite://data/pizza.db", "sqlite://data/pizza.db"),
        ];
        for (url, want) in cases {
            assert_eq!(redact(url), want);
        }
    }
}
