//! The store's live queue as its StoreActor holds it: the orders its tablets list (awaiting
//! acceptance and in production), each as the tablet's card with the order's write version.
//!
//! Why the queue is exact on every node: each write to an order bumps its version, so the
//! list of `(order number, version)` of the store's active orders — one indexed read — says
//! precisely which cards in memory are still right. A tablet's read checks that list and reads
//! only the orders that are new or moved; an order paid on another node is therefore listed by
//! the very next read here, whether or not any event reached this node. Transitions made on
//! this node (the bus's tablet events) update the queue as they happen, so that read usually
//! finds nothing to fetch.

use crate::db::orders::{OrderEvent, OrderRow};
use crate::domain::ordering::order_machine::state as s;
use crate::orders::view::{tablet_order, TabletOrder};
use std::collections::HashMap;

/// The states the tablet's live queue lists (what `GET /tablet/orders` has always shown).
pub const ACTIVE: [u8; 3] = [s::PAID, s::CASH_ON_DELIVERY, s::ACCEPTED];

pub fn is_active(state: u8) -> bool {
    ACTIVE.contains(&state)
}

/// One order of the queue: its card and what orders and checks it.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueEntry {
    pub order_no: String,
    /// The order's write version when the card was made.
    pub version: i64,
    /// The queue's order: oldest first, as the database lists it.
    pub created_at: i64,
    pub id: i64,
    pub card: TabletOrder,
}

impl QueueEntry {
    pub fn new(row: &OrderRow, history: &[OrderEvent]) -> QueueEntry {
        QueueEntry {
            order_no: row.order_no.clone(),
            version: row.version,
            created_at: row.created_at,
            id: row.id,
            card: tablet_order(row, history),
        }
    }
}

/// The queue held in memory; empty and not loaded until a tablet first reads it.
#[derive(Debug, Default)]
pub struct LiveQueue {
    pub loaded: bool,
    entries: Vec<QueueEntry>,
}

impl LiveQueue {
    pub fn entries(&self) -> &[QueueEntry] {
        &self.entries
    }

    /// Replaces the whole queue (a check against the database), in the database's order.
    pub fn replace(&mut self, entries: Vec<QueueEntry>) {
        self.entries = entries;
        self.loaded = true;
    }

    /// An order just read back after a transition: listed, moved or dropped. A read older
    /// than the card held (two transitions' read-backs finishing out of order) changes nothing.
    pub fn apply(&mut self, entry: QueueEntry, active: bool) {
        match self
            .entries
            .iter()
            .position(|e| e.order_no == entry.order_no)
        {
            Some(i) if self.entries[i].version > entry.version => {}
            Some(i) if active => self.entries[i] = entry,
            Some(i) => {
                self.entries.remove(i);
            }
            None if active => {
                let at = self
                    .entries
                    .partition_point(|e| (e.created_at, e.id) < (entry.created_at, entry.id));
                self.entries.insert(at, entry);
            }
            None => {}
        }
    }
}

/// Which orders of the database's list (`current`: order number and version, in order) must be
/// read again: those not held, or held at another version.
pub fn to_read(held: &[QueueEntry], current: &[(String, i64)]) -> Vec<String> {
    let versions: HashMap<&str, i64> = held
        .iter()
        .map(|e| (e.order_no.as_str(), e.version))
        .collect();
    current
        .iter()
        .filter(|(no, version)| versions.get(no.as_str()) != Some(version))
        .map(|(no, _)| no.clone())
        .collect()
}

/// The queue as `current` lists it: the held entries still at their version, and the `fresh`
/// ones read for the rest (an order gone from the database meanwhile is left out).
pub fn merge(
    held: &[QueueEntry],
    current: &[(String, i64)],
    mut fresh: HashMap<String, QueueEntry>,
) -> Vec<QueueEntry> {
    let held: HashMap<&str, &QueueEntry> = held.iter().map(|e| (e.order_no.as_str(), e)).collect();
    current
        .iter()
        .filter_map(|(no, version)| match held.get(no.as_str()) {
            Some(e) if e.version == *version => Some((*e).clone()),
            _ => fresh.remove(no),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(no: &str, version: i64, created_at: i64) -> QueueEntry {
        let row = OrderRow {
            id: created_at,
            order_no: no.into(),
            user_id: 1,
            store_code: "SH001".into(),
            order_type: 0,
            state: s::PAID,
            progress: 0,
            payment_type: "sandbox".into(),
            is_book: false,
            order_time: 0,
            product_amount: crate::domain::money::Fen(100),
            discount_amount: crate::domain::money::Fen::ZERO,
            delivery_fee: crate::domain::money::Fen::ZERO,
            order_amount: crate::domain::money::Fen(100),
            paid_amount: crate::domain::money::Fen(100),
            paid_by: None,
            doc: serde_json::json!({}),
            lines: vec![],
            seq: version,
            version,
            created_at,
            updated_at: created_at,
        };
        QueueEntry::new(&row, &[])
    }

    fn nos(entries: &[QueueEntry]) -> Vec<(&str, i64)> {
        entries
            .iter()
            .map(|e| (e.order_no.as_str(), e.version))
            .collect()
    }

    #[test]
    fn only_new_or_moved_orders_are_read_again() {
        let held = [entry("A", 2, 1), entry("B", 3, 2)];
        let current = |v: &[(&str, i64)]| -> Vec<(String, i64)> {
            v.iter().map(|(n, v)| (n.to_string(), *v)).collect()
        };
        // (database's list, orders to read)
        type Case<'a> = (&'a [(&'a str, i64)], &'a [&'a str]);
        let cases: [Case; 5] = [
            (&[("A", 2), ("B", 3)], &[]),
            (&[("A", 2), ("B", 4)], &["B"]),
            (&[("A", 2), ("B", 3), ("C", 2)], &["C"]),
            (&[("B", 3)], &[]),
            (&[], &[]),
        ];
        for (db, want) in cases {
            assert_eq!(to_read(&held, &current(db)), want, "{db:?}");
        }
        assert_eq!(to_read(&[], &current(&[("A", 1)])), ["A"]);
    }

    #[test]
    fn a_merge_follows_the_database_list() {
        let held = [entry("A", 2, 1), entry("B", 3, 2)];
        let current = vec![("B".to_string(), 4), ("C".to_string(), 2)];
        let fresh = HashMap::from([("B".to_string(), entry("B", 4, 2))]);
        // A left the queue; B moved; C vanished between the list and its read.
        assert_eq!(nos(&merge(&held, &current, fresh)), [("B", 4)]);
    }

    #[test]
    fn transitions_list_move_and_drop_orders_in_queue_order() {
        let mut q = LiveQueue::default();
        q.replace(vec![entry("A", 2, 10), entry("C", 2, 30)]);
        q.apply(entry("B", 2, 20), true);
        assert_eq!(nos(q.entries()), [("A", 2), ("B", 2), ("C", 2)]);
        q.apply(entry("A", 3, 10), true);
        assert_eq!(nos(q.entries()), [("A", 3), ("B", 2), ("C", 2)]);
        // A late read-back of an older version changes nothing.
        q.apply(entry("A", 2, 10), true);
        assert_eq!(q.entries()[0].version, 3);
        q.apply(entry("B", 3, 20), false);
        assert_eq!(nos(q.entries()), [("A", 3), ("C", 2)]);
        // An order leaving that was never listed here: nothing to drop.
        q.apply(entry("D", 5, 40), false);
        assert_eq!(q.entries().len(), 2);
        assert!(is_active(s::ACCEPTED) && !is_active(s::COMPLETED) && !is_active(s::UNPAID));
    }
}
