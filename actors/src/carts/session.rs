//! One cart's session: an actix actor that runs one command at a time (an atomic response
//! holds the mailbox until the command's writes are done) and stops after a quiet spell.

use super::{CartFailure, CartKey, Mutation};
use crate::bus::{Bus, Event};
use crate::clock::Clock;
use crate::db::carts::{save_in, CartRepo, StoredCart};
use crate::db::idempotency::{record_in, Recorded};
use crate::db::orders::{insert_in, NewOrder, OrderRepo};
use crate::domain::cart::Cart;
use actix::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Attempts when another node keeps writing the same cart between our read and our write.
const ATTEMPTS: usize = 5;

pub struct CartSession {
    key: CartKey,
    carts: CartRepo,
    orders: OrderRepo,
    bus: Arc<dyn Bus>,
    clock: Clock,
    /// A session nobody used for this long stops; the next command starts a new one.
    idle: Duration,
    last_used: Instant,
}

impl CartSession {
    pub fn new(
        key: CartKey,
        carts: CartRepo,
        orders: OrderRepo,
        bus: Arc<dyn Bus>,
        clock: Clock,
        idle: Duration,
    ) -> CartSession {
        CartSession {
            key,
            carts,
            orders,
            bus,
            clock,
            idle,
            last_used: Instant::now(),
        }
    }
}

impl Actor for CartSession {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.run_interval(self.idle / 5, |session, ctx| {
            if session.last_used.elapsed() >= session.idle {
                ctx.stop();
            }
        });
    }
}

/// Apply a mutation and persist it; the cart as the caller just read it, if it did, is the
/// first one tried (a stale one loses its compare-and-set and is read again).
#[derive(Message)]
#[rtype(result = "Result<StoredCart, CartFailure>")]
pub struct Update(pub Mutation, pub Option<StoredCart>);

impl Handler<Update> for CartSession {
    type Result = AtomicResponse<Self, Result<StoredCart, CartFailure>>;

    fn handle(&mut self, msg: Update, _: &mut Context<Self>) -> Self::Result {
        self.last_used = Instant::now();
        let (key, carts, bus, clock) = (
            self.key.clone(),
            self.carts.clone(),
            self.bus.clone(),
            self.clock.clone(),
        );
        AtomicResponse::new(Box::pin(
            async move { update(&key, &carts, bus.as_ref(), &clock, msg.0, msg.1).await }
                .into_actor(self),
        ))
    }
}

async fn update(
    key: &CartKey,
    carts: &CartRepo,
    bus: &dyn Bus,
    clock: &Clock,
    mutation: Mutation,
    read: Option<StoredCart>,
) -> Result<StoredCart, CartFailure> {
    let storage_key = key.storage_key();
    let mut read = read;
    for _ in 0..ATTEMPTS {
        let mut stored = match read.take() {
            Some(stored) => stored,
            None => carts.load(&storage_key).await?,
        };
        if !mutation(&mut stored.cart)? {
            return Ok(stored);
        }
        if carts
            .save(
                &storage_key,
                key.user_id(),
                &stored.cart,
                stored.version,
                clock.now_ms(),
            )
            .await?
        {
            stored.version += 1;
            announce(bus, key, stored.version).await;
            return Ok(stored);
        }
        // Another node wrote first: read again and re-apply.
    }
    Err(CartFailure::Contended)
}

/// After the write: the owner's other tabs and devices re-read the cart.
async fn announce(bus: &dyn Bus, key: &CartKey, version: i64) {
    let event = Event::CartUpdated {
        user_id: key.user_id(),
        cart_token: key.token().map(String::from),
        version: version.max(0) as u64,
    };
    if let Err(e) = bus.publish(&event).await {
        // The change is stored; a tab that misses the event sees it on its next read.
        tracing::warn!(error = %e, "cart:updated not published");
    }
}

/// Turn a priced cart into an order: in one transaction the order is created, the cart
/// (still at the version that was priced) is emptied, and the idempotent answer is recorded.
#[derive(Message)]
#[rtype(result = "Result<CheckoutDone, CartFailure>")]
pub struct Checkout {
    pub read_version: i64,
    pub order: NewOrder,
    /// The cart after checkout: no lines, the rest as it was.
    pub emptied: Cart,
    /// (scope, key, answer given the order id) for the Idempotency-Key.
    pub idempotency: Option<(String, String, IdempotentAnswer)>,
    /// Points authorised (held) for the order in the same transaction: (user, points).
    pub points_hold: Option<(i64, i64)>,
    /// Coupons locked for the order in the same transaction: (user, coupon codes). One lost
    /// compare-and-set rolls everything back.
    pub coupons_lock: Option<(i64, Vec<String>)>,
}

/// Builds the recorded answer once the order id is known.
pub type IdempotentAnswer = Box<dyn FnOnce(i64) -> Recorded + Send>;

#[derive(Debug, Clone, PartialEq)]
pub struct CheckoutDone {
    pub order_id: i64,
    pub cart_version: i64,
    pub recorded: Option<Recorded>,
}

impl Handler<Checkout> for CartSession {
    type Result = AtomicResponse<Self, Result<CheckoutDone, CartFailure>>;

    fn handle(&mut self, msg: Checkout, _: &mut Context<Self>) -> Self::Result {
        self.last_used = Instant::now();
        let (key, orders, bus, clock) = (
            self.key.clone(),
            self.orders.clone(),
            self.bus.clone(),
            self.clock.clone(),
        );
        AtomicResponse::new(Box::pin(
            async move {
                let done = checkout(&key, &orders, &clock, msg).await?;
                announce(bus.as_ref(), &key, done.cart_version).await;
                Ok(done)
            }
            .into_actor(self),
        ))
    }
}

async fn checkout(
    key: &CartKey,
    orders: &OrderRepo,
    clock: &Clock,
    msg: Checkout,
) -> Result<CheckoutDone, CartFailure> {
    let now = clock.now_ms();
    let mut tx = orders
        .db()
        .pool()
        .begin()
        .await
        .map_err(crate::db::DbError::from)?;
    let order_id = match insert_in(&mut tx, &msg.order).await {
        Ok(id) => id,
        // Only the order's number is unique among what it writes first.
        Err(e) if e.is_unique_violation() => {
            tx.rollback().await.map_err(crate::db::DbError::from)?;
            return Err(CartFailure::NumberTaken);
        }
        Err(e) => return Err(e.into()),
    };
    if !save_in(
        &mut tx,
        &key.storage_key(),
        key.user_id(),
        &msg.emptied,
        msg.read_version,
        now,
    )
    .await?
    {
        tx.rollback().await.map_err(crate::db::DbError::from)?;
        return Err(CartFailure::Stale);
    }
    if let Some((user_id, points)) = msg.points_hold.filter(|(_, p)| *p > 0) {
        use crate::db::points::{PointsError, PointsRepo};
        match PointsRepo::hold_in(&mut tx, user_id, &msg.order.order_no, points, now).await {
            Ok(_) => {}
            Err(PointsError::NotEnough { available }) => {
                tx.rollback().await.map_err(crate::db::DbError::from)?;
                return Err(CartFailure::NotEnoughPoints { available });
            }
            Err(PointsError::Db(e)) => return Err(e.into()),
        }
    }
    if let Some((user_id, codes)) = msg.coupons_lock.filter(|(_, c)| !c.is_empty()) {
        use crate::db::coupons::{CouponLockError, CouponRepo};
        match CouponRepo::lock_in(&mut tx, user_id, &codes, &msg.order.order_no, now).await {
            Ok(()) => {}
            Err(CouponLockError::Taken(code)) => {
                tx.rollback().await.map_err(crate::db::DbError::from)?;
                return Err(CartFailure::CouponTaken(code));
            }
            Err(CouponLockError::Db(e)) => return Err(e.into()),
        }
    }
    let mut recorded = None;
    if let Some((scope, idem_key, answer)) = msg.idempotency {
        let answer = answer(order_id);
        record_in(&mut tx, &scope, &idem_key, &answer, now).await?;
        recorded = Some(answer);
    }
    tx.commit().await.map_err(crate::db::DbError::from)?;
    Ok(CheckoutDone {
        order_id,
        cart_version: msg.read_version + 1,
        recorded,
    })
}
