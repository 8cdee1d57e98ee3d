//! One order's session: runs its moves one at a time and stops when idle.

use super::view::{order_arrival, order_eta, stamp_arrival, tablet_order};
use super::OrderFailure;
use crate::bus::{Bus, Event};
use crate::clock::Clock;
use crate::db::orders::{OrderRepo, OrderRow, TransitionRow};
use crate::domain::money::Fen;
use crate::domain::ordering::order_machine::{
    apply, Actor as Mover, Command, OrderState, Transition,
};
use crate::stores::LiveStores;
use actix::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

const ATTEMPTS: usize = 5;

pub struct OrderSession {
    order_no: String,
    repo: OrderRepo,
    stores: LiveStores,
    bus: Arc<dyn Bus>,
    clock: Clock,
    /// A session nobody used for this long stops; the next move starts a new one.
    idle: Duration,
    last_used: Instant,
}

impl OrderSession {
    pub fn new(
        order_no: String,
        repo: OrderRepo,
        stores: LiveStores,
        bus: Arc<dyn Bus>,
        clock: Clock,
        idle: Duration,
    ) -> OrderSession {
        OrderSession {
            order_no,
            repo,
            stores,
            bus,
            clock,
            idle,
            last_used: Instant::now(),
        }
    }
}

impl Actor for OrderSession {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.run_interval(self.idle / 5, |session, ctx| {
            if session.last_used.elapsed() >= session.idle {
                ctx.stop();
            }
        });
    }
}

/// A move of the order, by whom, and the money it brings (a payment).
#[derive(Message)]
#[rtype(result = "Result<MoveDone, OrderFailure>")]
pub struct Move {
    pub mover: Mover,
    pub command: Command,
    pub paid: Fen,
    /// The payment that brings `paid` (a payment move): claims the order's settlement.
    pub paid_by: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MoveDone {
    pub transition: Transition,
    pub seq: i64,
    pub store_code: String,
    pub user_id: i64,
    pub at: i64,
}

impl Handler<Move> for OrderSession {
    type Result = AtomicResponse<Self, Result<MoveDone, OrderFailure>>;

    fn handle(&mut self, msg: Move, _: &mut Context<Self>) -> Self::Result {
        self.last_used = Instant::now();
        let (order_no, repo, stores, bus, clock) = (
            self.order_no.clone(),
            self.repo.clone(),
            self.stores.clone(),
            self.bus.clone(),
            self.clock.clone(),
        );
        AtomicResponse::new(Box::pin(
            async move { make_move(&order_no, &repo, &stores, bus.as_ref(), &clock, msg).await }
                .into_actor(self),
        ))
    }
}

async fn make_move(
    order_no: &str,
    repo: &OrderRepo,
    stores: &LiveStores,
    bus: &dyn Bus,
    clock: &Clock,
    msg: Move,
) -> Result<MoveDone, OrderFailure> {
    for _ in 0..ATTEMPTS {
        let row = repo.find(order_no).await?.ok_or(OrderFailure::NotFound)?;
        let now = clock.now_ms();
        let current = OrderState {
            state: row.state,
            progress: row.progress,
            last_move_at_ms: row.updated_at,
        };
        let transition = apply(&current, msg.mover, &msg.command, now)?;
        let write = TransitionRow {
            state: transition.state,
            progress: transition.progress,
            actor: msg.mover.as_str().to_string(),
            note: transition
                .note
                .clone()
                .or_else(|| Some(msg.command.name().to_string())),
            at: now,
            paid: msg.paid,
            paid_by: msg.paid_by.clone(),
        };
        let Some(seq) = repo.transition(order_no, row.version, &write).await? else {
            continue; // another node moved it first: read again and re-check
        };
        metrics::counter!("order_transitions_total",
            "from" => format!("{}/{}", current.state, current.progress),
            "to" => format!("{}/{}", transition.state, transition.progress))
        .increment(1);
        // The tablets see an order from the moment it reaches the store until it leaves.
        let for_tablets = transition.reaches_store || current.in_store_queue();
        // The row as the transition wrote it (a compare-and-set on the version read, so
        // nothing else changed it meanwhile): announced without reading it back.
        let written = OrderRow {
            state: transition.state,
            progress: transition.progress,
            seq,
            version: row.version + 1,
            paid_amount: row.paid_amount + msg.paid,
            paid_by: msg.paid_by.clone().or(row.paid_by),
            updated_at: now,
            ..row
        };
        announce(
            &written,
            repo,
            stores,
            bus,
            clock,
            &transition,
            now,
            for_tablets,
        )
        .await;
        return Ok(MoveDone {
            transition,
            seq,
            store_code: written.store_code,
            user_id: written.user_id,
            at: now,
        });
    }
    Err(OrderFailure::Contended)
}

/// After the write: the watchers' progress event, and the tablet's card when the order is (or
/// just became) part of the store's queue. A failed publish is logged: clients catch up from
/// the next event's seq gap or their next snapshot.
#[allow(clippy::too_many_arguments)]
async fn announce(
    row: &OrderRow,
    repo: &OrderRepo,
    stores: &LiveStores,
    bus: &dyn Bus,
    clock: &Clock,
    transition: &Transition,
    at: i64,
    for_tablets: bool,
) {
    let order_no = row.order_no.as_str();
    let seq = row.seq;
    let history = match repo.history(order_no).await {
        Ok(history) => history,
        Err(e) => {
            tracing::warn!(error = %e, order_no, "order moved but its history could not be read to announce it");
            return;
        }
    };
    let store = stores.store(&row.store_code).await;
    let progress = Event::OrderProgress {
        order_no: order_no.to_string(),
        store_code: row.store_code.clone(),
        user_id: Some(row.user_id),
        progress: transition.progress,
        state: transition.state,
        at,
        eta: order_eta(row, &history, store.as_ref(), clock.now_ms()),
        arrival: order_arrival(row, &history, store.as_ref(), clock.now_ms()),
        seq: seq.max(0) as u64,
    };
    if let Err(e) = bus.publish(&progress).await {
        tracing::warn!(error = %e, order_no, "order:progress not published");
    }
    if for_tablets {
        let mut card = tablet_order(row, &history);
        stamp_arrival(&mut card, store.as_ref(), clock.now_ms());
        let card = serde_json::to_value(card).unwrap_or_default();
        let event = Event::TabletOrder {
            store_code: row.store_code.clone(),
            new: transition.reaches_store,
            order: card,
        };
        if let Err(e) = bus.publish(&event).await {
            tracing::warn!(error = %e, order_no, "tablet order event not published");
        }
    }
}
