//! SMS providers. The sandbox is the embedded default: instead of sending, it keeps each
//! message in an in-memory outbox that the dev endpoint lists, so people and tests register
//! the way a real client does. It logs that a message went out, never its text (the code).

use actors::domain::accounts::phone::Phone;
use actors::providers::sms::{SmsError, SmsProvider};
use async_trait::async_trait;
use serde::Serialize;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use utoipa::ToSchema;

/// Messages kept per phone; older ones fall off so the outbox cannot grow without bound.
const KEPT_PER_PHONE: usize = 20;

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutboxMessage {
    pub text: String,
    /// Epoch ms.
    pub sent_at: i64,
}

pub struct SandboxSms {
    clock: actors::clock::Clock,
    outbox: Mutex<HashMap<String, VecDeque<OutboxMessage>>>,
}

impl SandboxSms {
    pub fn new(clock: actors::clock::Clock) -> SandboxSms {
        SandboxSms {
            clock,
            outbox: Mutex::new(HashMap::new()),
        }
    }

    /// What was "sent" to the phone, newest first.
    pub fn sent_to(&self, phone: &Phone) -> Vec<OutboxMessage> {
        let outbox = self.outbox.lock().unwrap_or_else(|e| e.into_inner());
        outbox
            .get(phone.as_str())
            .map(|list| list.iter().rev().cloned().collect())
            .unwrap_or_default()
    }
}

#[async_trait]
impl SmsProvider for SandboxSms {
    async fn send(&self, phone: &Phone, text: &str) -> Result<(), SmsError> {
        let message = OutboxMessage {
            text: text.to_owned(),
            sent_at: self.clock.now_ms(),
        };
        {
            let mut outbox = self.outbox.lock().unwrap_or_else(|e| e.into_inner());
            let list = outbox.entry(phone.as_str().to_owned()).or_default();
            list.push_back(message);
            while list.len() > KEPT_PER_PHONE {
                list.pop_front();
            }
        }
        tracing::info!(phone = %phone.masked(), "sandbox sms stored in the outbox");
        Ok(())
    }
}

/// The configured provider, and the sandbox again when it is the one (the dev outbox reads it).
pub struct SmsSetup {
    pub provider: Arc<dyn SmsProvider>,
    pub outbox: Option<Arc<SandboxSms>>,
}

/// Unknown names are a configuration error, not a silent fallback to the sandbox.
pub fn provider(name: &str, clock: actors::clock::Clock) -> anyhow::Result<SmsSetup> {
    match name.trim() {
        "" | "sandbox" => {
            let sandbox = Arc::new(SandboxSms::new(clock));
            Ok(SmsSetup {
                provider: sandbox.clone(),
                outbox: Some(sandbox),
            })
        }
        other => anyhow::bail!("unknown SMS provider {other:?} (only \"sandbox\" exists)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn keeps_messages_newest_first_per_phone() {
        let clock = actors::clock::Clock::manual(1_000);
        let sms = SandboxSms::new(clock.clone());
        let (a, b) = match (Phone::parse("13812345678"), Phone::parse("13912345678")) {
            (Ok(a), Ok(b)) => (a, b),
            other => panic!("{other:?}"),
        };
        for i in 0..25 {
            clock.advance_ms(1);
            assert!(sms.send(&a, &format!("m{i}")).await.is_ok());
        }
        assert!(sms.send(&b, "other").await.is_ok());
        let list = sms.sent_to(&a);
        assert_eq!(list.len(), KEPT_PER_PHONE);
        assert_eq!(list[0].text, "m24");
        assert_eq!(list[19].text, "m5");
        assert_eq!(sms.sent_to(&b).len(), 1);
    }

    #[test]
    fn unknown_providers_are_refused() {
        let clock = actors::clock::Clock::manual(0);
        assert!(provider("sandbox", clock.clone()).is_ok_and(|s| s.outbox.is_some()));
        assert!(provider("aliyun", clock).is_err());
    }
}
