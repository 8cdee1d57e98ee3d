//! The sandbox's notify key. No key ships in the source: a notify signed with a key anyone
//! can read would settle any payment. It is configured (`[payment] sandbox_secret`, or
//! `PIZZA__PAYMENT__SANDBOX_SECRET`), or, on a laptop with the embedded database, made on first
//! start (32 random bytes, hex) and kept in `<data_dir>/payment-sandbox-secret` (mode 0600),
//! as the table secret is. Production and PostgreSQL deployments (several nodes, which must
//! share one key) refuse to start without a configured key.

use super::sandbox::MIN_SECRET_CHARS;
use crate::config::Settings;
use anyhow::Context;
use rand::RngCore;
use std::io::Write;
use std::path::Path;

/// The file in the data dir that keeps a made key.
pub const FILE: &str = "payment-sandbox-secret";

/// Where the key comes from, decided from the configuration alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    Configured(String),
    /// Read from the data dir, or made there on first start.
    DataDir,
}

/// Why the server cannot have a key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    #[error(
        "[payment] sandbox_secret (PIZZA__PAYMENT__SANDBOX_SECRET) must be at least \
         {MIN_SECRET_CHARS} characters"
    )]
    TooShort,
    #[error(
        "[payment] sandbox_secret (PIZZA__PAYMENT__SANDBOX_SECRET) is required {0}: the sandbox \
         signs its payment notifies with it, and every node must share it"
    )]
    Required(&'static str),
}

/// The rule: a configured key wins (if long enough); otherwise only an embedded, non-production
/// deployment may make its own.
pub fn key_source(
    configured: &str,
    embedded_database: bool,
    production: bool,
) -> Result<KeySource, KeyError> {
    let configured = configured.trim();
    if !configured.is_empty() {
        return if configured.chars().count() >= MIN_SECRET_CHARS {
            Ok(KeySource::Configured(configured.to_owned()))
        } else {
            Err(KeyError::TooShort)
        };
    }
    if production {
        return Err(KeyError::Required("in production (PIZZA_ENV=production)"));
    }
    if !embedded_database {
        return Err(KeyError::Required("with an external database"));
    }
    Ok(KeySource::DataDir)
}

/// The sandbox's key for these settings (see the module doc).
pub fn sandbox_secret(settings: &Settings) -> anyhow::Result<String> {
    let production = std::env::var("PIZZA_ENV").is_ok_and(|e| e.trim() == "production");
    match key_source(
        &settings.payment.sandbox_secret,
        settings.is_embedded_database(),
        production,
    )? {
        KeySource::Configured(key) => Ok(key),
        KeySource::DataDir => kept_in(&settings.server.data_dir),
    }
}

/// The key kept in `dir`, made there (owner-only) when there is none yet. Two processes
/// starting at once agree: the file is created exclusively and the loser reads the winner's.
pub fn kept_in(dir: &Path) -> anyhow::Result<String> {
    let path = dir.join(FILE);
    if let Some(key) = read_key(&path)? {
        return Ok(key);
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let key = actors::hex::encode(&bytes);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(&path) {
        Ok(mut file) => {
            file.write_all(key.as_bytes())
                .and_then(|()| file.sync_all())
                .with_context(|| format!("writing {}", path.display()))?;
            tracing::info!(path = %path.display(), "made the sandbox payment key");
            Ok(key)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => read_key(&path)?
            .with_context(|| format!("{} is being written by another process", path.display())),
        Err(e) => Err(e).with_context(|| format!("creating {}", path.display())),
    }
}

fn read_key(path: &Path) -> anyhow::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let key = text.trim();
            anyhow::ensure!(
                key.chars().count() >= MIN_SECRET_CHARS,
                "{} holds no usable key (at least {MIN_SECRET_CHARS} characters); remove it to \
                 make a new one",
                path.display()
            );
            tighten(path)?;
            Ok(Some(key.to_owned()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// A key file others can read is made owner-only.
fn tighten(path: &Path) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)?.permissions().mode() & 0o777;
        if mode != 0o600 {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
                .with_context(|| format!("making {} owner-only", path.display()))?;
            tracing::warn!(path = %path.display(), "the sandbox payment key was readable by others: now 0600");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn where_the_key_comes_from() {
        let long = "k".repeat(MIN_SECRET_CHARS);
        let short = "k".repeat(MIN_SECRET_CHARS - 1);
        let configured = Ok(KeySource::Configured(long.clone()));
        let cases: Vec<(&str, bool, bool, Result<KeySource, KeyError>)> = vec![
            // (configured, embedded database, production) → source
            (&long, true, false, configured.clone()),
            (&long, false, false, configured.clone()),
            (&long, false, true, configured.clone()),
            (&long, true, true, configured),
            (&short, true, false, Err(KeyError::TooShort)),
            (&short, false, true, Err(KeyError::TooShort)),
            ("", true, false, Ok(KeySource::DataDir)),
            ("   ", true, false, Ok(KeySource::DataDir)),
            (
                "",
                false,
                false,
                Err(KeyError::Required("with an external database")),
            ),
            (
                "",
                true,
                true,
                Err(KeyError::Required("in production (PIZZA_ENV=production)")),
            ),
            (
                "",
                false,
                true,
                Err(KeyError::Required("in production (PIZZA_ENV=production)")),
            ),
        ];
        for (key, embedded, production, want) in cases {
            assert_eq!(
                key_source(key, embedded, production),
                want,
                "{key:?} {embedded} {production}"
            );
        }
        let message = KeyError::Required("with an external database").to_string();
        assert!(
            message.contains("PIZZA__PAYMENT__SANDBOX_SECRET"),
            "{message}"
        );
    }

    #[test]
    fn a_made_key_is_random_kept_owner_only_and_read_again() {
        let dir = std::env::temp_dir().join(format!("pizza-key-{}", uuid::Uuid::new_v4().simple()));
        let key = kept_in(&dir).unwrap();
        assert_eq!(key.len(), 64);
        assert!(key.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(
            kept_in(&dir).unwrap(),
            key,
            "the same key on the next start"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let path = dir.join(FILE);
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            assert_eq!(kept_in(&dir).unwrap(), key);
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "tightened");
        }
        let other =
            std::env::temp_dir().join(format!("pizza-key-{}", uuid::Uuid::new_v4().simple()));
        assert_ne!(kept_in(&other).unwrap(), key, "each data dir its own");
        std::fs::write(dir.join(FILE), "short").unwrap();
        assert!(
            kept_in(&dir).is_err(),
            "a damaged key is not silently replaced"
        );
        let _ = std::fs::remove_dir_all(dir);
        let _ = std::fs::remove_dir_all(other);
    }
}
