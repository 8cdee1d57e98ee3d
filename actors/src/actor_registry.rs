//! Where a node finds the running actor of a cart, an order or a payment attempt, by its key.
//!
//! The actors stop themselves after an idle spell ([`IDLE`], `[memory] session_idle_seconds`);
//! their entries here are dropped in batches: when the map has doubled since the last pruning,
//! and on the memory sweep. Pruning on every start (as before) cost a walk over every live
//! session per new order, which at 100 orders/s and 300 s of idle is 30,000 entries a start.

use actix::{Actor, Addr};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::Duration;

/// How long a session nobody used lives on by default.
pub const IDLE: Duration = Duration::from_secs(300);

/// Below this many entries the map is not pruned on start: a walk over it is cheap anyway.
const PRUNE_FLOOR: usize = 256;

pub struct ActorRegistry<K, A: Actor> {
    entries: Mutex<Entries<K, A>>,
}

struct Entries<K, A: Actor> {
    map: HashMap<K, Addr<A>>,
    /// The next start prunes first once the map holds this many entries.
    prune_at: usize,
}

impl<K: Eq + Hash + Clone, A: Actor> Default for ActorRegistry<K, A> {
    fn default() -> Self {
        ActorRegistry {
            entries: Mutex::new(Entries {
                map: HashMap::new(),
                prune_at: PRUNE_FLOOR,
            }),
        }
    }
}

impl<K: Eq + Hash + Clone, A: Actor> ActorRegistry<K, A> {
    /// The running actor of `key`, or the one `start` starts (and registers).
    pub fn get_or_start(&self, key: &K, start: impl FnOnce() -> Addr<A>) -> Addr<A> {
        let mut entries = self.lock();
        if let Some(addr) = entries.map.get(key).filter(|a| a.connected()) {
            return addr.clone();
        }
        if entries.map.len() >= entries.prune_at {
            entries.prune();
        }
        let addr = start();
        entries.map.insert(key.clone(), addr.clone());
        addr
    }

    /// Drops `key`'s entry if its actor has stopped (a send to it just failed).
    pub fn forget(&self, key: &K) {
        let mut entries = self.lock();
        if entries.map.get(key).is_some_and(|a| !a.connected()) {
            entries.map.remove(key);
        }
    }

    /// Drops the entries of stopped actors and gives back the map's spare room: the memory
    /// sweep's call, so an idle node does not keep the map of its busiest minute.
    pub fn prune(&self) {
        self.lock().prune();
    }

    /// Actors running (for tests and metrics).
    pub fn live(&self) -> usize {
        self.lock().map.values().filter(|a| a.connected()).count()
    }

    /// Entries held, stopped actors' included (for tests).
    pub fn held(&self) -> usize {
        self.lock().map.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries<K, A>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl<K: Eq + Hash, A: Actor> Entries<K, A> {
    fn prune(&mut self) {
        self.map.retain(|_, a| a.connected());
        if self.map.capacity() > 4 * self.map.len().max(PRUNE_FLOOR) {
            self.map.shrink_to_fit();
        }
        self.prune_at = (2 * self.map.len()).max(PRUNE_FLOOR);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use actix::{Actor, ActorContext, Context, Handler, Message};

    struct Probe;
    impl Actor for Probe {
        type Context = Context<Self>;
    }
    #[derive(Message)]
    #[rtype(result = "()")]
    struct Stop;
    impl Handler<Stop> for Probe {
        type Result = ();
        fn handle(&mut self, _: Stop, ctx: &mut Context<Self>) {
            ctx.stop();
        }
    }

    async fn settle() {
        for _ in 0..20 {
            tokio::task::yield_now().await;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    #[actix::test]
    async fn a_running_actor_is_found_again_and_a_stopped_one_is_replaced() {
        let registry: ActorRegistry<u32, Probe> = ActorRegistry::default();
        let first = registry.get_or_start(&1, || Probe.start());
        let again = registry.get_or_start(&1, || panic!("started twice"));
        assert_eq!(first, again);
        first.send(Stop).await.unwrap();
        settle().await;
        assert_eq!(registry.live(), 0);
        let second = registry.get_or_start(&1, || Probe.start());
        assert_ne!(first, second);
        assert_eq!(registry.held(), 1);
    }

    #[actix::test]
    async fn stopped_entries_are_pruned_in_batches_and_on_the_sweep() {
        let registry: ActorRegistry<usize, Probe> = ActorRegistry::default();
        let mut addrs = Vec::new();
        for key in 0..PRUNE_FLOOR {
            addrs.push(registry.get_or_start(&key, || Probe.start()));
        }
        for addr in &addrs {
            addr.send(Stop).await.unwrap();
        }
        settle().await;
        assert_eq!(registry.held(), PRUNE_FLOOR, "kept until the next batch");
        // The map has reached the floor: the next start prunes the stopped ones first.
        registry.get_or_start(&PRUNE_FLOOR, || Probe.start());
        assert_eq!(registry.held(), 1);
        assert_eq!(registry.live(), 1);
        // The sweep drops the rest, and no running actor.
        let last = registry.get_or_start(&(PRUNE_FLOOR + 1), || Probe.start());
        registry.prune();
        assert_eq!(registry.held(), 2);
        last.send(Stop).await.unwrap();
        settle().await;
        registry.prune();
        assert_eq!(registry.held(), 1);
    }
}
