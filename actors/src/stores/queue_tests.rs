#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The StoreActor's live queue through its registry, on a real SQLite file: loaded by the
//! first tablet read, moved by this node's order events, and re-read where another node (two
//! registries on one file) moved orders without telling this one.

use super::tests::{deployment, until, Deployment};
use super::*;
use crate::db::orders::{insert_in, NewOrder, OrderRepo, TransitionRow};
use crate::domain::money::Fen;
use crate::domain::ordering::order_machine::{progress as p, state as s};

async fn order(d: &Deployment, order_no: &str, store: &str, state: u8, created_at: i64) {
    let mut tx = d.db.pool().begin().await.unwrap();
    // The customer the orders belong to (orders name a user).
    sqlx::query(
        "INSERT INTO users (id, user_key, created_at, updated_at) VALUES (1, 'u1', 0, 0) \
         ON CONFLICT DO NOTHING",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    insert_in(
        &mut tx,
        &NewOrder {
            order_no: order_no.into(),
            user_id: 1,
            store_code: store.into(),
            order_type: 0,
            state,
            progress: 0,
            payment_type: "sandbox".into(),
            is_book: false,
            order_time: created_at,
            product_amount: Fen(3_900),
            discount_amount: Fen::ZERO,
            delivery_fee: Fen::ZERO,
            order_amount: Fen(3_900),
            doc: serde_json::json!({"remark": order_no}),
            lines: vec![],
            created_at,
        },
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

/// Moves an order as any node's OrderSession writes it (without announcing it).
async fn move_to(d: &Deployment, order_no: &str, state: u8, progress: u8) {
    let repo = OrderRepo::new(d.db.clone());
    let row = repo.find(order_no).await.unwrap().unwrap();
    let write = TransitionRow {
        state,
        progress,
        actor: "store".into(),
        note: None,
        at: d.clock.now_ms(),
        paid: Fen::ZERO,
        paid_by: None,
    };
    assert!(repo
        .transition(order_no, row.version, &write)
        .await
        .unwrap()
        .is_some());
}

/// What this node's OrderSession publishes after a move that concerns the tablets.
async fn announce(node: &super::tests::Node, order_no: &str) {
    let event = Event::TabletOrder {
        store_code: "SH001".into(),
        new: false,
        order: serde_json::json!({"orderNo": order_no}),
    };
    node.bus.publish(&event).await.unwrap();
}

async fn listed(node: &super::tests::Node) -> Vec<(String, u8, u8)> {
    node.boards
        .queue("SH001")
        .await
        .unwrap()
        .into_iter()
        .map(|e| (e.order_no, e.card.state, e.card.progress))
        .collect()
}

fn row(no: &str, state: u8, progress: u8) -> (String, u8, u8) {
    (no.into(), state, progress)
}

#[tokio::test]
async fn the_first_read_loads_the_active_orders_oldest_first() {
    let d = deployment().await;
    order(&d, "O3", "SH001", s::ACCEPTED, 3_000).await;
    order(&d, "O1", "SH001", s::PAID, 1_000).await;
    order(&d, "O2", "SH001", s::UNPAID, 2_000).await;
    order(&d, "O4", "SH002", s::PAID, 500).await;
    order(&d, "O5", "SH001", s::CASH_ON_DELIVERY, 4_000).await;
    order(&d, "O6", "SH001", s::COMPLETED, 100).await;
    let a = d.node(None, IDLE);
    assert_eq!(a.boards.held_queue("SH001"), None);
    assert_eq!(
        listed(&a).await,
        [
            row("O1", s::PAID, 0),
            row("O3", s::ACCEPTED, 0),
            row("O5", s::CASH_ON_DELIVERY, 0)
        ]
    );
    assert_eq!(a.boards.held_queue("SH001").unwrap().len(), 3);
    assert_eq!(listed(&a).await.len(), 3, "a second read is the same");
}

#[tokio::test]
async fn this_nodes_transitions_add_move_and_remove_orders_in_memory() {
    let d = deployment().await;
    order(&d, "O1", "SH001", s::PAID, 1_000).await;
    order(&d, "O2", "SH001", s::UNPAID, 2_000).await;
    let a = d.node(None, IDLE);
    assert_eq!(listed(&a).await, [row("O1", s::PAID, 0)]);

    // Paid: the order reaches the store, and the queue held gets it without a tablet read.
    move_to(&d, "O2", s::PAID, 0).await;
    announce(&a, "O2").await;
    until("O2 listed", || {
        a.boards.held_queue("SH001").is_some_and(|q| q.len() == 2)
    })
    .await;
    // Accepted and making: moved in place, at its new version.
    move_to(&d, "O1", s::ACCEPTED, p::MAKING).await;
    announce(&a, "O1").await;
    until("O1 moved", || {
        a.boards
            .held_queue("SH001")
            .is_some_and(|q| q[0] == ("O1".to_string(), 2))
    })
    .await;
    // Completed: it leaves the queue.
    move_to(&d, "O1", s::COMPLETED, p::DONE).await;
    announce(&a, "O1").await;
    until("O1 gone", || {
        a.boards
            .held_queue("SH001")
            .is_some_and(|q| q == [("O2".to_string(), 2)])
    })
    .await;
    assert_eq!(listed(&a).await, [row("O2", s::PAID, 0)]);
}

#[tokio::test]
async fn a_queue_moved_by_another_node_is_read_again_by_the_next_read() {
    let d = deployment().await;
    order(&d, "O1", "SH001", s::PAID, 1_000).await;
    order(&d, "O2", "SH001", s::UNPAID, 2_000).await;
    order(&d, "O3", "SH001", s::PAID, 3_000).await;
    let a = d.node(None, IDLE);
    let b = d.node(None, IDLE);
    assert_eq!(listed(&a).await.len(), 2);

    // Node B's tablets and payments move orders; no event reaches node A.
    move_to(&d, "O2", s::PAID, 0).await;
    move_to(&d, "O1", s::ACCEPTED, p::MAKING).await;
    move_to(&d, "O3", s::REFUSED_BY_STORE, p::REFUSED).await;
    announce(&b, "O1").await;
    let held = a.boards.held_queue("SH001").unwrap();
    assert_eq!(held, [("O1".to_string(), 1), ("O3".to_string(), 1)]);

    assert_eq!(
        listed(&a).await,
        [row("O1", s::ACCEPTED, p::MAKING), row("O2", s::PAID, 0)]
    );
    assert_eq!(
        a.boards.held_queue("SH001").unwrap(),
        [("O1".to_string(), 2), ("O2".to_string(), 2)]
    );
}

#[tokio::test]
async fn an_unread_queue_is_not_loaded_by_order_events() {
    let d = deployment().await;
    order(&d, "O1", "SH001", s::PAID, 1_000).await;
    let a = d.node(None, IDLE);
    a.boards.live("SH001").await.unwrap();
    announce(&a, "O1").await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(a.boards.held_queue("SH001"), None);
    assert_eq!(listed(&a).await, [row("O1", s::PAID, 0)]);
}
