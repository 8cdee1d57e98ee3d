//! The bus between nodes: events are published on one Redis pub/sub channel; every node
//! (the publisher too) subscribes and hands them to its local subscribers. A node therefore
//! sees its own events exactly when the others do, in the order Redis delivered them.
//!
//! Pub/sub keeps nothing: an event published while a node is cut off from Redis is lost for
//! that node. The subscriber resubscribes with backoff, and clients recover by `seq` gaps and
//! snapshots (see the module comment of `bus`).

use super::{Bus, BusError, Event, CHANNEL_CAPACITY};
use async_trait::async_trait;
use futures_util::StreamExt;
use redis::aio::{ConnectionManager, PubSub};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, oneshot};

#[derive(Clone)]
pub struct RedisBus {
    publisher: ConnectionManager,
    sender: broadcast::Sender<Event>,
    channel: Arc<str>,
    /// Dropped with the last clone, which stops the subscriber task.
    _stop: Arc<oneshot::Sender<()>>,
}

impl RedisBus {
    /// Connects and subscribes before returning, so nothing published afterwards is missed.
    pub async fn connect(url: &str, channel: &str) -> Result<RedisBus, BusError> {
        let client = redis::Client::open(url)?;
        let publisher = ConnectionManager::new(client.clone()).await?;
        let (sender, _) = broadcast::channel(CHANNEL_CAPACITY);
        let channel: Arc<str> = Arc::from(channel);
        let first = subscribe(&client, &channel).await?;
        let (stop, stopped) = oneshot::channel();
        tokio::spawn(forward(
            client,
            channel.clone(),
            first,
            sender.clone(),
            stopped,
        ));
        Ok(RedisBus {
            publisher,
            sender,
            channel,
            _stop: Arc::new(stop),
        })
    }
}

async fn subscribe(client: &redis::Client, channel: &str) -> Result<PubSub, BusError> {
    let mut pubsub = client.get_async_pubsub().await?;
    pubsub.subscribe(channel).await?;
    Ok(pubsub)
}

async fn forward(
    client: redis::Client,
    channel: Arc<str>,
    first: PubSub,
    sender: broadcast::Sender<Event>,
    mut stopped: oneshot::Receiver<()>,
) {
    let mut pubsub = first;
    loop {
        let mut messages = pubsub.into_on_message();
        loop {
            tokio::select! {
                _ = &mut stopped => return,
                message = messages.next() => match message {
                    Some(message) => deliver(&sender, &message),
                    None => break,
                },
            }
        }
        tracing::warn!(%channel, "redis bus subscription ended; resubscribing");
        let mut delay = Duration::from_millis(100);
        pubsub = loop {
            tokio::select! {
                _ = &mut stopped => return,
                _ = tokio::time::sleep(delay) => {}
            }
            match subscribe(&client, &channel).await {
                Ok(pubsub) => break pubsub,
                Err(err) => {
                    tracing::warn!(%channel, error = %err, "redis bus: resubscribe failed");
                    delay = (delay * 2).min(Duration::from_secs(5));
                }
            }
        };
    }
}

fn deliver(sender: &broadcast::Sender<Event>, message: &redis::Msg) {
    let event = message
        .get_payload::<String>()
        .map_err(BusError::from)
        .and_then(|payload| Ok(serde_json::from_str::<Event>(&payload)?));
    match event {
        // No local subscriber is not an error.
        Ok(event) => {
            let _ = sender.send(event);
        }
        Err(err) => tracing::warn!(error = %err, "redis bus: unreadable event dropped"),
    }
}

#[async_trait]
impl Bus for RedisBus {
    async fn publish(&self, event: &Event) -> Result<(), BusError> {
        let payload = serde_json::to_string(event)?;
        let mut conn = self.publisher.clone();
        let _receivers: i64 = redis::cmd("PUBLISH")
            .arg(&*self.channel)
            .arg(payload)
            .query_async(&mut conn)
            .await?;
        Ok(())
    }

    fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.sender.subscribe()
    }

    async fn ping(&self) -> Result<(), BusError> {
        let mut conn = self.publisher.clone();
        let _: String = redis::cmd("PING").query_async(&mut conn).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    const URL: &str = "redis://127.0.0.1:6379";

    /// Redis is mandatory on CI; on a laptop without it these tests say so and pass.
    async fn redis_or_skip() -> bool {
        let up = match redis::Client::open(URL) {
            Ok(client) => client.get_multiplexed_async_connection().await.is_ok(),
            Err(_) => false,
        };
        if !up {
            assert_ne!(
                std::env::var("CI").as_deref(),
                Ok("true"),
                "Redis is mandatory on CI"
            );
            eprintln!("SKIPPED: no Redis at {URL}");
        }
        up
    }

    fn progress(seq: u64) -> Event {
        Event::OrderProgress {
            order_no: "O1".into(),
            store_code: "SH001".into(),
            user_id: Some(1),
            progress: 20,
            state: 6,
            at: 0,
            eta: None,
            arrival: None,
            seq,
        }
    }

    #[tokio::test]
    async fn an_event_published_on_one_node_reaches_both_in_order() {
        if !redis_or_skip().await {
            return;
        }
        let channel = format!("pizza-test:{}:events", uuid::Uuid::new_v4());
        let a = RedisBus::connect(URL, &channel).await.unwrap();
        let b = RedisBus::connect(URL, &channel).await.unwrap();
        let (mut on_a, mut on_b) = (a.subscribe(), b.subscribe());
        for seq in 1..=5 {
            b.publish(&progress(seq)).await.unwrap();
        }
        for rx in [&mut on_a, &mut on_b] {
            for seq in 1..=5 {
                let got = tokio::time::timeout(Duration::from_secs(5), rx.recv())
                    .await
                    .expect("event within 5 s")
                    .unwrap();
                assert_eq!(got, progress(seq));
            }
        }
        a.ping().await.unwrap();
    }

    #[tokio::test]
    async fn buses_on_other_channels_hear_nothing() {
        if !redis_or_skip().await {
            return;
        }
        let a = RedisBus::connect(URL, &format!("pizza-test:{}:a", uuid::Uuid::new_v4()))
            .await
            .unwrap();
        let b = RedisBus::connect(URL, &format!("pizza-test:{}:b", uuid::Uuid::new_v4()))
            .await
            .unwrap();
        let mut on_b = b.subscribe();
        a.publish(&progress(1)).await.unwrap();
        let heard = tokio::time::timeout(Duration::from_millis(300), on_b.recv()).await;
        assert!(
            heard.is_err(),
            "a bus on another channel received {heard:?}"
        );
    }
}
