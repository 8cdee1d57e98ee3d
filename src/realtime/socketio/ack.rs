//! Acknowledgements the server waits for: ack ids and the pending answers of one socket.

use serde_json::Value;
use std::collections::HashMap;
use tokio::sync::oneshot;

/// Why [`super::Socket::emit_with_ack`] got no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AckError {
    #[error("no acknowledgement within the timeout")]
    Timeout,
    #[error("the socket disconnected before acknowledging")]
    Disconnected,
    #[error("\"{0}\" is a reserved event name")]
    ReservedEvent(String),
}

/// The acks a socket waits for. Ids count up from 0, per socket (the client matches an ACK to
/// its EVENT within the namespace of the connection, so that is unique enough).
#[derive(Debug, Default)]
pub(crate) struct AckTable {
    next_id: u64,
    pending: HashMap<u64, oneshot::Sender<Vec<Value>>>,
    closed: bool,
}

impl AckTable {
    /// A fresh id and the receiver of its answer; `None` once the socket closed.
    pub(crate) fn register(&mut self) -> Option<(u64, oneshot::Receiver<Vec<Value>>)> {
        if self.closed {
            return None;
        }
        while self.pending.contains_key(&self.next_id) {
            self.next_id = self.next_id.wrapping_add(1);
        }
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        let (tx, rx) = oneshot::channel();
        self.pending.insert(id, tx);
        Some((id, rx))
    }

    /// Hands the client's answer to the waiter; false for an unknown (or already answered,
    /// or timed out) id.
    pub(crate) fn resolve(&mut self, id: u64, args: Vec<Value>) -> bool {
        match self.pending.remove(&id) {
            Some(tx) => tx.send(args).is_ok(),
            None => false,
        }
    }

    /// Forgets an id (its waiter gave up).
    pub(crate) fn cancel(&mut self, id: u64) -> bool {
        self.pending.remove(&id).is_some()
    }

    /// The socket closed: every waiter fails, and no more ids are given.
    pub(crate) fn close(&mut self) {
        self.closed = true;
        self.pending.clear();
    }

    pub(crate) fn pending(&self) -> usize {
        self.pending.len()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_count_up_and_answers_reach_their_waiter() {
        let mut table = AckTable::default();
        let (a, mut rx_a) = table.register().unwrap();
        let (b, mut rx_b) = table.register().unwrap();
        let (c, _rx_c) = table.register().unwrap();
        assert_eq!((a, b, c), (0, 1, 2));
        assert_eq!(table.pending(), 3);

        assert!(table.resolve(b, vec![json!("for b")]));
        assert_eq!(rx_b.try_recv().unwrap(), vec![json!("for b")]);
        assert!(rx_a.try_recv().is_err(), "a still waits");
        assert!(!table.resolve(b, vec![]), "answered once");
        assert!(!table.resolve(99, vec![]), "unknown id");

        assert!(table.cancel(a));
        assert!(!table.resolve(a, vec![json!(1)]), "gave up");
        assert!(rx_a.try_recv().is_err());
        assert_eq!(table.pending(), 1);
    }

    #[test]
    fn an_answer_for_a_dropped_waiter_is_not_delivered() {
        let mut table = AckTable::default();
        let (id, rx) = table.register().unwrap();
        drop(rx);
        assert!(!table.resolve(id, vec![]));
        assert_eq!(table.pending(), 0);
    }

    #[test]
    fn closing_fails_every_waiter() {
        let mut table = AckTable::default();
        let (_, mut rx) = table.register().unwrap();
        table.close();
        assert!(matches!(
            rx.try_recv(),
            Err(oneshot::error::TryRecvError::Closed)
        ));
        assert!(table.register().is_none());
        assert_eq!(table.pending(), 0);
    }

    #[test]
    fn ids_in_use_are_skipped_after_wrapping() {
        let mut table = AckTable {
            next_id: u64::MAX,
            ..AckTable::default()
        };
        let (max, _rx1) = table.register().unwrap();
        let (zero, _rx2) = table.register().unwrap();
        assert_eq!((max, zero), (u64::MAX, 0));
        table.next_id = u64::MAX;
        let (next, _rx3) = table.register().unwrap();
        assert_eq!(next, 1, "MAX and 0 are waiting");
    }
}
