//! Payment providers: the sandbox (the embedded default, behaving like a real provider) and,
//! later, real provider clients over reqwest. The trait is `actors::providers::payment`.

pub mod keys;
pub mod sandbox;

pub use sandbox::{SandboxConfig, SandboxPayments};

use actors::clock::Clock;
use actors::db::Db;
use actors::providers::payment::PaymentProvider;
use std::sync::Arc;

/// The configured provider, and the sandbox again when it is the one (its cashier routes and
/// the `/sandbox/api/pay` handler need it).
pub struct PaymentSetup {
    pub provider: Arc<dyn PaymentProvider>,
    pub sandbox: Option<Arc<SandboxPayments>>,
}

/// Unknown names are a configuration error, not a silent fallback to the sandbox. The sandbox
/// keeps its ledger in `db` and signs with the key `sandbox_secret` answers (asked only when
/// the sandbox is the provider).
pub fn provider(
    name: &str,
    sandbox: SandboxConfig,
    sandbox_secret: impl FnOnce() -> anyhow::Result<String>,
    db: Db,
    clock: Clock,
) -> anyhow::Result<PaymentSetup> {
    match name.trim() {
        "" | sandbox::NAME => {
            let sandbox = Arc::new(SandboxPayments::new(sandbox, sandbox_secret()?, db, clock)?);
            Ok(PaymentSetup {
                provider: sandbox.clone(),
                sandbox: Some(sandbox),
            })
        }
        other => anyhow::bail!("unknown payment provider {other:?} (only \"sandbox\" exists)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[actix_web::test]
    async fn unknown_providers_are_refused() {
        let clock = Clock::manual(0);
        let db = sandbox::tests::ledger_db().await;
        let key = || Ok("a-key-for-this-test-only".to_string());
        let setup = provider(
            "sandbox",
            SandboxConfig::default(),
            key,
            db.clone(),
            clock.clone(),
        );
        assert!(setup.is_ok_and(|s| s.sandbox.is_some() && s.provider.name() == "sandbox"));
        assert!(provider("", SandboxConfig::default(), key, db.clone(), clock.clone()).is_ok());
        assert!(provider(
            "alipay",
            SandboxConfig::default(),
            key,
            db.clone(),
            clock.clone()
        )
        .is_err());
        // The sandbox never runs without a key of its own, nor with a short one.
        let none = || anyhow::bail!("no key");
        assert!(provider(
            "sandbox",
            SandboxConfig::default(),
            none,
            db.clone(),
            clock.clone()
        )
        .is_err());
        let short = || Ok("short".to_string());
        assert!(provider("sandbox", SandboxConfig::default(), short, db, clock).is_err());
    }
}
