//! The periodic account cleanup, as a task that lives as long as the server.

use crate::state::AppState;
use std::time::Duration;
use tokio::task::JoinHandle;

/// Every 10 minutes: frequent enough that the tables stay small, rare enough to cost nothing.
pub const PERIOD: Duration = Duration::from_secs(10 * 60);

/// The running task; dropping it stops the task.
pub struct Housekeeping(JoinHandle<()>);

impl Drop for Housekeeping {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Starts the cleanup, first run one period from now (not at start, where it would race the
/// migrations' and the tests' setup for no gain).
pub fn start(state: AppState) -> Housekeeping {
    Housekeeping(tokio::spawn(async move {
        tokio::join!(
            cleanup(state.clone()),
            expire_payments(state.clone()),
            sandbox_notifies(state.clone()),
            loyalty_sweep(state.clone()),
            memory_sweep(state.clone()),
            crate::reconcile_job::daily(state),
        );
    }))
}

/// At start, every open payment attempt gets its session back (timer re-armed, an overdue one
/// expired at once); then every 15 s the sweep, the backstop of the sessions' timers
/// (`actors::payments` says why it stays). Payments past their 30 minutes are asked about at the provider, then settled (paid) or
/// closed there and here, their orders cancelled; then refunds owed (the provider could not
/// make them) are asked for again, with the same refund id. Checked often: a status page
/// asking meanwhile runs its own payment's expiry on the spot anyway.
async fn expire_payments(state: AppState) {
    match state.payments.restore_open().await {
        Ok(restored) => tracing::info!(?restored, "payment sessions restored"),
        Err(e) => {
            tracing::warn!(error = %e, "payment sessions not restored; the sweep expires them")
        }
    }
    let mut ticks = tokio::time::interval(PAYMENT_EXPIRY_CHECK);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        match state.payments.expire_due().await {
            Ok(0) => {}
            Ok(expired) => tracing::info!(expired, "expired payments settled or closed"),
            Err(e) => tracing::warn!(error = %e, "payment expiry failed"),
        }
    }
}

/// The sandbox provider's notifies still being sent resume at once, and those of a node that
/// went away are taken over (see `providers::payment::sandbox`).
async fn sandbox_notifies(state: AppState) {
    if let Some(sandbox) = &state.sandbox_payments {
        sandbox.resume_and_sweep().await;
    }
}

/// Every `[memory] sweep_seconds`: the orders' details and session tokens past their max age
/// go (they would never be served again), and so do the registry entries of carts', orders'
/// and payments' actors that stopped, so a node that went idle after a rush holds only what is
/// fresh (docs/operations.md "Memory").
async fn memory_sweep(state: AppState) {
    let period = Duration::from_secs(state.memory_sweep_seconds.max(1));
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let now = state.clock.now_ms();
        state.order_views.sweep(now);
        state.cached_sessions.sweep(now);
        state.carts.prune();
        state.orders.prune();
        state.payments.prune();
    }
}

const PAYMENT_EXPIRY_CHECK: std::time::Duration = std::time::Duration::from_secs(15);

async fn cleanup(state: AppState) {
    {
        let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + PERIOD, PERIOD);
        // A run that was late (the process was suspended) is not made up for in a burst.
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let now = state.clock.now_ms();
            match actors::accounts::cleanup::sweep(&state.db, state.sessions(), now).await {
                Ok(swept) => tracing::info!(?swept, "account cleanup"),
                // Logged and retried next period: a missed sweep only leaves dead rows longer.
                Err(e) => tracing::warn!(error = %e, "account cleanup failed"),
            }
            match sweep_ordering(&state, now).await {
                Ok((carts, keys)) => tracing::info!(carts, keys, "ordering cleanup"),
                Err(e) => tracing::warn!(error = %e, "ordering cleanup failed"),
            }
        }
    }
}

/// Visitors' carts untouched for 30 days, Idempotency-Key answers past their 24 hours,
/// expired tablet sessions and coupon exchange attempts older than an hour.
async fn sweep_ordering(state: &AppState, now: i64) -> Result<(u64, u64), actors::db::DbError> {
    const VISITOR_CART_DAYS: i64 = 30;
    let carts = actors::db::carts::CartRepo::new(state.db.clone())
        .delete_stale_visitor_carts(now - VISITOR_CART_DAYS * 86_400_000)
        .await?;
    let keys = actors::db::idempotency::IdempotencyRepo::new(state.db.clone())
        .delete_older_than(now - actors::db::idempotency::KEEP_MS)
        .await?;
    actors::db::staff::StaffRepo::new(state.db.clone())
        .delete_expired_sessions(now)
        .await?;
    // Coupon exchange attempts matter for a minute; an hour is plenty for support to look.
    state
        .coupons
        .repo()
        .prune_exchange_attempts(now - 3_600_000)
        .await?;
    Ok((carts, keys))
}

/// The loyalty sweep, every `[loyalty] sweep_ms`: completed orders not credited yet (the
/// order hook's backstop), holds of orders paid or closed, pending points whose refund window
/// closed, expired lots; then the coupon sweep (give-backs due on the outbox, coupons still
/// locked by an order that was paid or closed, coupons past their validity); then the members'
/// privilege coupons due (birthday treats, the month's free deliveries: two anti-joins when
/// nothing is due); and once an hour the level review (downgrades as the window rolls)
/// and a reconcile of every balance with its ledger (a mismatch is logged as an error).
async fn loyalty_sweep(state: AppState) {
    let period = Duration::from_millis(state.loyalty_sweep_ms.max(100));
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_review = tokio::time::Instant::now();
    loop {
        ticks.tick().await;
        match state.loyalty.sweep().await {
            Ok(swept) if swept != actors::loyalty::Swept::default() => {
                tracing::info!(?swept, "loyalty sweep")
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "loyalty sweep failed"),
        }
        match state.coupons.sweep().await {
            Ok(swept) if swept != actors::coupons::Swept::default() => {
                tracing::info!(?swept, "coupon sweep")
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "coupon sweep failed"),
        }
        match state.loyalty.privileges().grant_due().await {
            Ok(run) if run != actors::loyalty::privileges::GrantRun::default() => {
                tracing::info!(?run, "member privileges granted")
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "privilege grants failed"),
        }
        if last_review.elapsed() >= LOYALTY_REVIEW {
            last_review = tokio::time::Instant::now();
            match state.loyalty.review_levels().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(changed = n, "member levels reviewed"),
                Err(e) => tracing::warn!(error = %e, "level review failed"),
            }
            match state.loyalty.reconcile().await {
                Ok(r) if r.points.mismatches.is_empty() && r.reversals.lost.is_empty() => {}
                Ok(r) => {
                    tracing::error!(checked = r.points.checked, mismatches = ?r.points.mismatches,
                        orders_checked = r.reversals.checked, lost_reversals = ?r.reversals.lost,
                        "points ledger mismatches or lost reversals")
                }
                Err(e) => tracing::warn!(error = %e, "points reconcile failed"),
            }
        }
    }
}

const LOYALTY_REVIEW: Duration = Duration::from_secs(3600);
