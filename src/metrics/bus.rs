//! Payment outcomes, counted where they are announced: an event is published once, on the node
//! whose actor made the change (every node receives it, so counting on receipt would count it
//! once per node).

use actors::bus::{Bus, BusError, Event, PaymentOutcome};
use async_trait::async_trait;
use tokio::sync::broadcast;

/// A bus that counts what is published on it, then hands it on.
pub struct CountingBus<B> {
    inner: B,
}

impl<B: Bus> CountingBus<B> {
    pub fn new(inner: B) -> CountingBus<B> {
        CountingBus { inner }
    }
}

/// The outcome label of a payment event; `None` for every other event.
pub fn payment_outcome(event: &Event) -> Option<&'static str> {
    match event {
        Event::PaymentResult { result, .. } => Some(match result {
            PaymentOutcome::Paid => "paid",
            PaymentOutcome::Failed => "failed",
            PaymentOutcome::Closed => "closed",
        }),
        _ => None,
    }
}

#[async_trait]
impl<B: Bus> Bus for CountingBus<B> {
    async fn publish(&self, event: &Event) -> Result<(), BusError> {
        // Published means persisted (the bus's rule), so the outcome counts even if the
        // hand-on fails: clients catch up from their next snapshot.
        if let Some(outcome) = payment_outcome(event) {
            metrics::counter!("payment_outcomes_total", "outcome" => outcome).increment(1);
        }
        self.inner.publish(event).await
    }

    fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.inner.subscribe()
    }

    async fn ping(&self) -> Result<(), BusError> {
        self.inner.ping().await
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use actors::bus::LocalBus;

    fn payment(result: PaymentOutcome) -> Event {
        Event::PaymentResult {
            order_no: "O1".into(),
            user_id: 1,
            payment_id: "P1".into(),
            result,
            at: 1,
        }
    }

    #[test]
    fn payment_events_name_their_outcome() {
        assert_eq!(
            payment_outcome(&payment(PaymentOutcome::Paid)),
            Some("paid")
        );
        assert_eq!(
            payment_outcome(&payment(PaymentOutcome::Failed)),
            Some("failed")
        );
        assert_eq!(
            payment_outcome(&payment(PaymentOutcome::Closed)),
            Some("closed")
        );
        let cart = Event::CartUpdated {
            user_id: Some(1),
            cart_token: None,
            version: 1,
        };
        assert_eq!(payment_outcome(&cart), None);
    }

    #[tokio::test]
    async fn events_pass_through_unchanged() {
        let bus = CountingBus::new(LocalBus::new());
        let mut rx = bus.subscribe();
        bus.publish(&payment(PaymentOutcome::Paid)).await.unwrap();
        assert_eq!(rx.recv().await.unwrap(), payment(PaymentOutcome::Paid));
        bus.ping().await.unwrap();
    }
}
