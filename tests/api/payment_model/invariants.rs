//! The model's invariants, checked after every step, and the signature states are pruned by.

use super::fake::TradeState;
use super::world::{Seen, World};
use super::{Attempt, Model};
use actors::db::payments::PaymentRow;
use actors::domain::money::Fen;
use actors::domain::ordering::order_machine::state as s;
use actors::domain::payments::state::PaymentState;
use actors::providers::payment::{PaymentProvider, StatementKind};

/// What a state is, for pruning: everything that decides what happens next, nothing else
/// (payment ids, versions and times are left out; due-ness stands for the clock).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sig {
    pub order: (u8, u8, i64, Option<usize>),
    pub attempts: Vec<AttemptSig>,
    pub outage: (bool, bool, bool, bool),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AttemptSig {
    NotYet,
    Refused,
    Made {
        row: PaymentState,
        reason: Option<String>,
        refunded: i64,
        due: bool,
        trade: u8,
        trade_refunded: i64,
        notify: bool,
    },
}

pub fn sig(seen: &Seen, model: &Model) -> Sig {
    let index_of = |id: &str| {
        model
            .attempts
            .iter()
            .position(|a| *a == Attempt::Made(id.to_string()))
    };
    let attempts = model
        .attempts
        .iter()
        .zip(&seen.rows)
        .map(|(a, row)| match (a, row) {
            (Attempt::NotYet, _) => AttemptSig::NotYet,
            (Attempt::Refused, _) => AttemptSig::Refused,
            (Attempt::Made(id), Some(r)) => {
                let t = &seen.ledger.trades[id];
                AttemptSig::Made {
                    row: r.state,
                    reason: r.refund_reason.clone(),
                    refunded: r.refunded.0,
                    due: r.expires_at <= seen.now,
                    trade: match t.state {
                        TradeState::Pending => 0,
                        TradeState::Paid { .. } => 1,
                        TradeState::Closed => 2,
                        TradeState::Failed => 3,
                    },
                    trade_refunded: t.refunded().0,
                    notify: t.notify_pending,
                }
            }
            (Attempt::Made(id), None) => panic!("no row for {id}"),
        })
        .collect();
    Sig {
        order: (
            seen.order.state,
            seen.order.progress,
            seen.order.paid_amount.0,
            seen.order
                .paid_by
                .as_deref()
                .map(|id| index_of(id).unwrap()),
        ),
        attempts,
        outage: (
            seen.ledger.refund_outage,
            model.outage_used,
            seen.ledger.query_outage,
            model.unreachable_used,
        ),
    }
}

/// The invariants, after any step. `job_ran`: the step was the expiry job; `outage_now`: a
/// refund failed during this step; `unreachable_now`: a query or close failed during it.
pub async fn check(
    world: &World,
    seen: &Seen,
    model: &Model,
    job_ran: bool,
    outage_now: bool,
    unreachable_now: bool,
) -> Result<(), String> {
    let order = &seen.order;
    let stands = matches!(order.state, s::PAID | s::ACCEPTED | s::COMPLETED);
    let given_back = matches!(order.state, s::CANCELLED_BY_CUSTOMER | s::REFUSED_BY_STORE);
    let made: Vec<(&String, &PaymentRow)> = model
        .attempts
        .iter()
        .zip(&seen.rows)
        .filter_map(|(a, r)| match a {
            Attempt::Made(id) => Some((id, r.as_ref().unwrap())),
            _ => None,
        })
        .collect();
    let keeper = order
        .paid_by
        .as_deref()
        .map(|id| made.iter().find(|(m, _)| m.as_str() == id).map(|(_, r)| *r));
    let keeper = match keeper {
        Some(None) => return Err(format!("paid_by {:?} is no attempt", order.paid_by)),
        Some(Some(r)) => Some(r),
        None => None,
    };
    // The order is paid by at most one attempt, and its state says so.
    let paid_rows: Vec<&&PaymentRow> = made
        .iter()
        .map(|(_, r)| r)
        .filter(|r| r.state == PaymentState::Paid)
        .collect();
    if paid_rows.len() > 1 {
        return Err(format!("{} attempts keep the money", paid_rows.len()));
    }
    if let Some(r) = paid_rows.first() {
        if keeper.map(|k| &k.payment_id) != Some(&r.payment_id) || !stands {
            return Err(format!(
                "{} is paid but the order (state {}) is settled by {:?}",
                r.payment_id, order.state, order.paid_by
            ));
        }
    }
    let want_paid = keeper.map_or(Fen::ZERO, |k| k.amount);
    if order.paid_amount != want_paid {
        return Err(format!(
            "paidAmount {} but the settling attempt paid {want_paid}",
            order.paid_amount
        ));
    }
    match order.state {
        s::PAID | s::ACCEPTED | s::COMPLETED
            if keeper.map(|k| k.state) != Some(PaymentState::Paid) =>
        {
            return Err(format!("order {} without a kept payment", order.state));
        }
        s::UNPAID | s::PAYMENT_FAILED | s::EXPIRED_UNPAID if keeper.is_some() => {
            return Err(format!("order {} has a settlement", order.state));
        }
        _ => {}
    }
    // Each attempt against the provider's ledger.
    let mut expected_kept = Fen::ZERO;
    for (id, r) in &made {
        let t = &seen.ledger.trades[*id];
        let paid_there = matches!(t.state, TradeState::Paid { .. });
        let is_keeper = keeper.is_some_and(|k| &k.payment_id == *id);
        let fail = |what: &str| Err(format!("{id} ({}; trade {t:?}): {what}", r.state));
        match r.state {
            PaymentState::Paid if !paid_there || t.kept() != r.amount => {
                return fail("paid here, not there")
            }
            PaymentState::Refunding | PaymentState::Refunded if !paid_there => {
                return fail("refund of money never paid")
            }
            PaymentState::Refunded
                if t.refunds.len() != 1
                    || t.refunds[0].0 != actors::payments::refund_id(id)
                    || t.kept() != Fen::ZERO
                    || r.refunded != r.amount =>
            {
                return fail("refunded here, not exactly once there")
            }
            PaymentState::Refunding if !t.refunds.is_empty() || seen.ledger.outages_hit == 0 => {
                return fail("a refund owed without an outage")
            }
            PaymentState::Closed if !matches!(t.state, TradeState::Closed | TradeState::Failed) => {
                return fail("closed here, not there")
            }
            PaymentState::Failed if t.state != TradeState::Failed => {
                return fail("failed here, not there")
            }
            PaymentState::Pending
                if (paid_there || t.state == TradeState::Failed) && !t.notify_pending =>
            {
                return fail("settled there, notify taken, still pending here")
            }
            PaymentState::Pending
            | PaymentState::Paid
            | PaymentState::Refunding
            | PaymentState::Refunded
            | PaymentState::Closed
            | PaymentState::Failed => {}
            _ => return fail("a state this model never makes"),
        }
        if !t.refunds.is_empty() && r.state != PaymentState::Refunded {
            return fail("refunded there, not here");
        }
        if matches!(r.state, PaymentState::Refunding | PaymentState::Refunded) {
            let want = match (is_keeper, keeper.is_some(), order.state) {
                (true, _, s::CANCELLED_BY_CUSTOMER) => "order_cancelled",
                (true, _, s::REFUSED_BY_STORE) => "order_refused",
                (false, true, _) => "duplicate",
                (false, false, s::CANCELLED_BY_CUSTOMER) => "order_cancelled",
                (false, false, s::EXPIRED_UNPAID) => "order_expired",
                _ => return fail("refunded while the order keeps it"),
            };
            if r.refund_reason.as_deref() != Some(want) {
                return fail(&format!("reason {:?}, want {want}", r.refund_reason));
            }
        }
        if given_back && matches!(r.state, PaymentState::Paid) {
            return fail("the order was given back but this money was not");
        }
        // Money the provider holds: the kept payment, refunds owed, and money we were not
        // told about yet.
        if (r.state == PaymentState::Paid && stands)
            || r.state == PaymentState::Refunding
            || r.state == PaymentState::Pending
        {
            expected_kept += t.kept();
        }
        if job_ran {
            let open = matches!(
                r.state,
                PaymentState::Created | PaymentState::Pending | PaymentState::Failed
            );
            if r.expires_at <= seen.now && open && !unreachable_now {
                return fail("still open after the expiry job");
            }
            if r.state == PaymentState::Refunding && !outage_now {
                return fail("a refund still owed after the job ran with the provider up");
            }
        }
    }
    // The provider's statement says the same as its ledger and our rows.
    let statement = world
        .fake
        .statement(0, i64::MAX)
        .await
        .map_err(|e| e.to_string())?;
    let held: Fen = statement
        .iter()
        .map(|l| match l.kind {
            StatementKind::Payment => l.amount,
            StatementKind::Refund => Fen::ZERO - l.amount,
        })
        .sum();
    if held != expected_kept {
        return Err(format!(
            "the provider holds {held}, our rows account for {expected_kept}"
        ));
    }
    let payable = matches!(order.state, s::UNPAID | s::PAYMENT_FAILED);
    if job_ran && !made.is_empty() && payable && !unreachable_now {
        return Err("the order is still payable after every attempt expired".into());
    }
    // Never cancelled on a guess: an order cancelled for expiry has no attempt open.
    if order.state == s::EXPIRED_UNPAID {
        if let Some((id, r)) = made.iter().find(|(_, r)| {
            matches!(
                r.state,
                PaymentState::Created | PaymentState::Pending | PaymentState::Failed
            )
        }) {
            return Err(format!("expired while {id} is still {}", r.state));
        }
    }
    Ok(())
}
