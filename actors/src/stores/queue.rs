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

/// Where an order stands in the queue: priority orders (优先制作, kept on the order) first,
/// then oldest first. The tablet shows the queue by stage, so within each stage priority
/// orders come first.
pub fn queue_rank(priority: bool, created_at: i64, id: i64) -> (bool, i64, i64) {
    (!priority, created_at, id)
}

/// One order of the queue: its card and what orders and checks it.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueEntry {
    pub order_no: String,
    /// The order's write version when the card was made.
    pub version: i64,
    /// The queue's order (`queue_rank`): priority, then oldest first.
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

    pub fn rank(&self) -> (bool, i64, i64) {
        queue_rank(self.card.priority, self.created_at, self.id)
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

    /// Replaces the whole queue (a check against the database), in the queue's order.
    pub fn replace(&mut self, mut entries: Vec<QueueEntry>) {
        entries.sort_by_key(QueueEntry::rank);
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
                let at = self.entries.partition_point(|e| e.rank() < entry.rank());
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
/// ones read for the rest (an order gone from the database meanwhile is left out); in the
/// queue's order (`queue_rank`).
pub fn merge(
    held: &[QueueEntry],
    current: &[(String, i64)],
    mut fresh: HashMap<String, QueueEntry>,
) -> Vec<QueueEntry> {
    let held: HashMap<&str, &QueueEntry> = held.iter().map(|e| (e.order_no.as_str(), e)).collect();
    let mut merged: Vec<QueueEntry> = current
        .iter()
        .filter_map(|(no, version)| match held.get(no.as_str()) {
            Some(e) if e.version == *version => Some((*e).clone()),
            _ => fresh.remove(no),
        })
        .collect();
    merged.sort_by_key(QueueEntry::rank);
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(no: &str, version: i64, created_at: i64) -> QueueEntry {
        entry_with(no, version, created_at, serde_json::json!({}))
    }

    /// An order whose customer's level gave priority making at submit.
    fn first(no: &str, version: i64, created_at: i64) -> QueueEntry {
        entry_with(
            no,
            version,
            created_at,
            serde_json::json!({"priority": true}),
        )
    }

    fn entry_with(no: &str, version: i64, created_at: i64, doc: serde_json::Value) -> QueueEntry {
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
            doc,
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

    #[test]
    fn priority_orders_come_first_then_the_oldest() {
        let mut q = LiveQueue::default();
        q.replace(vec![
            entry("A", 1, 10),
            first("P", 1, 30),
            entry("B", 1, 20),
        ]);
        assert_eq!(nos(q.entries()), [("P", 1), ("A", 1), ("B", 1)]);
        // A later priority order goes after the earlier ones, before every other order.
        q.apply(first("Q", 1, 40), true);
        assert_eq!(nos(q.entries()), [("P", 1), ("Q", 1), ("A", 1), ("B", 1)]);
        // An ordinary order waits behind every priority order, however old it is.
        q.apply(entry("C", 1, 5), true);
        assert_eq!(
            nos(q.entries()),
            [("P", 1), ("Q", 1), ("C", 1), ("A", 1), ("B", 1)]
        );
        // A move keeps an order's place; the flag is the order's, not re-read.
        q.apply(first("P", 2, 30), true);
        assert_eq!(q.entries()[0].order_no, "P");
        // The database lists oldest first; the merged queue puts priority first.
        let current = vec![
            ("C".to_string(), 1),
            ("A".to_string(), 1),
            ("P".to_string(), 2),
        ];
        assert_eq!(
            nos(&merge(q.entries(), &current, HashMap::new())),
            [("P", 2), ("C", 1), ("A", 1)]
        );
        assert!(queue_rank(true, 99, 9) < queue_rank(false, 1, 1));
    }
}
