//! The in-process bus: one node, nothing to run.

use super::{Bus, BusError, Event, CHANNEL_CAPACITY};
use async_trait::async_trait;
use tokio::sync::broadcast;

#[derive(Clone)]
pub struct LocalBus {
    sender: broadcast::Sender<Event>,
}

impl LocalBus {
    pub fn new() -> LocalBus {
        LocalBus {
            sender: broadcast::channel(CHANNEL_CAPACITY).0,
        }
    }
}

impl Default for LocalBus {
    fn default() -> Self {
        LocalBus::new()
    }
}

#[async_trait]
impl Bus for LocalBus {
    async fn publish(&self, event: &Event) -> Result<(), BusError> {
        // No subscriber yet is not an error: nobody is watching.
        let _ = self.sender.send(event.clone());
        Ok(())
    }

    fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.sender.subscribe()
    }

    async fn ping(&self) -> Result<(), BusError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn cart(version: u64) -> Event {
        Event::CartUpdated {
            user_id: Some(1),
            cart_token: None,
            version,
        }
    }

    #[tokio::test]
    async fn every_subscriber_gets_every_event_in_order() {
        let bus = LocalBus::new();
        let mut a = bus.subscribe();
        let mut b = bus.subscribe();
        for v in 1..=3 {
            bus.publish(&cart(v)).await.unwrap();
        }
        for rx in [&mut a, &mut b] {
            for v in 1..=3 {
                assert_eq!(rx.recv().await.unwrap(), cart(v));
            }
        }
    }

    #[tokio::test]
    async fn publishing_with_nobody_listening_is_fine() {
        LocalBus::new().publish(&cart(1)).await.unwrap();
    }
}
