//! Payment providers: the sandbox (the embedded default, behaving like a real provider) and,
//! later, real provider clients over reqwest. The trait is `actors::providers::payment`.

pub mod sandbox;

pub use sandbox::{SandboxConfig, SandboxPayments};

use actors::clock::Clock;
use actors::providers::payment::PaymentProvider;
use std::sync::Arc;

/// The configured provider, and the sandbox again when it is the one (its cashier routes and
/// the `/sandbox/api/pay` handler need it).
pub struct PaymentSetup {
    pub provider: Arc<dyn PaymentProvider>,
    pub sandbox: Option<Arc<SandboxPayments>>,
}

/// Unknown names are a configuration error, not a silent fallback to the sandbox.
pub fn provider(name: &str, sandbox: SandboxConfig, clock: Clock) -> anyhow::Result<PaymentSetup> {
    match name.trim() {
        "" | sandbox::NAME => {
            let sandbox = Arc::new(SandboxPayments::new(sandbox, clock)?);
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

    #[test]
    fn unknown_providers_are_refused() {
        let clock = Clock::manual(0);
        let setup = provider("sandbox", SandboxConfig::default(), clock.clone());
        assert!(setup.is_ok_and(|s| s.sandbox.is_some() && s.provider.name() == "sandbox"));
        assert!(provider("", SandboxConfig::default(), clock.clone()).is_ok());
        assert!(provider("alipay", SandboxConfig::default(), clock).is_err());
    }
}
