//! The order lifecycle (spec ordering §4): one state machine over the two codes an order row
//! carries, the display `state` (what the order list shows) and the `progress` code (what the
//! status page's tracker shows). The OrderActor asks [`apply`] before it writes anything; this
//! module does no I/O and knows nothing of HTTP.
//!
//! # States
//!
//! Only the pairs below are valid; any other pair is refused with [`MoveError::UnknownState`]
//! rather than guessed at. Labels are [`state_label`] (list) and [`step_label`] (tracker).
//!
//! | state | list label | progress | meaning |
//! |---|---|---|---|
//! | 5 | 待支付 Unpaid | 99 unknown | online order created, not paid; not in the store's queue |
//! | 4 | 支付失败 Payment failed | 99 unknown | an attempt failed; the customer may pay again until the 30-minute record expires |
//! | 6 | 已支付 Paid | 0 awaiting acceptance | in the store's queue (paid online) |
//! | 7 | 货到付款 Cash on delivery | 0 awaiting acceptance | in the store's queue (created so: no payment step) |
//! | 1 | 已接单 Accepted | 1 accepted, 10 making (4 read as 10), 20 oven, 30 quality check, 40 dispatch or ready | accepted and in production |
//! | 8 | 已完成 Completed | 50 delivered or completed | closed |
//! | 2 | 已取消 Cancelled | 2 refused | closed: refused by the store |
//! | 3 | 已取消 Cancelled | 3 cancelled | closed: cancelled by the customer before acceptance |
//! | 9 | 已取消 Cancelled | 3 cancelled | closed: the 30-minute payment window expired unpaid |
//! | 10, 11 | 已取消 Cancelled | any | closed: cancelled variants of the spec that this machine never writes |
//! | 0 | 待确认 Unconfirmed | — | never written: before acceptance the state says *how* the order is paid (6 or 7), which is what decides a refund, so a bare "unconfirmed" would lose it |
//!
//! The state numbers 2 and 3 are chosen to match their progress codes (refused 2/2, cancelled
//! 3/3). Closed states (2, 3, 8, 9, 10, 11) never move again, whatever the command.
//!
//! # Moves
//!
//! Each command belongs to exactly one actor ([`Command::actor`]); anyone else gets
//! [`MoveError::NotAllowed`] whatever the order's state.
//!
//! | command | actor | from | to | refund |
//! |---|---|---|---|---|
//! | `PaymentSucceeded` | system | 5/99, 4/99 | 6/0: reaches the store's queue | no |
//! | `PaymentFailed` | system | 5/99 | 4/99 | no |
//! | `PaymentExpired` | system | 5/99, 4/99 | 9/3 | no (nothing was taken) |
//! | `CustomerCancel` | customer | 5/99, 4/99, 6/0, 7/0 | 3/3 | only from 6 (paid online) |
//! | `Accept` | store | 6/0, 7/0 | 1/1 | no |
//! | `Refuse { reason }` | store | 6/0, 7/0 | 2/2 | only from 6 (paid online) |
//! | `Advance { from }` | store | 1/1 → 1/10 → 1/20 → 1/30 → 1/40 → 8/50 | next stage | no |
//! | `Undo { from }` | store | 1/10 (or 1/4), 1/20, 1/30, 1/40 | one stage back, within [`UNDO_WINDOW_MS`] | no |
//! | `Complete` | store | 1/40 | 8/50 | no |
//!
//! Choices worth knowing:
//! - The customer may cancel only before the store accepts; after that [`MoveError::TooLateToCancel`].
//! - `Advance` and `Undo` carry `from`, the progress code the staff member was looking at. A
//!   double tap, or two tablets on one order, then moves it once: the second command names a
//!   stage the order has left and gets [`MoveError::MovedOn`]. `Advance` at 40 completes the
//!   order, so the tablet's one "next" button walks the whole line; `Complete` is the explicit
//!   "delivered" and is refused before 40 ([`MoveError::NotReady`]).
//! - `Undo` only steps back within production (never across acceptance, never out of a
//!   completed order): acceptance closed the customer's cancel window and was announced, and a
//!   completion closed the order, and "closed never moves" is a rule everything downstream
//!   (refunds, comments, lists) may rely on. The tablet should confirm its last tap instead.
//! - A payment result for an order that has already left the payment step (paid, accepted) is
//!   [`MoveError::MovedOn`]; one for a closed order is [`MoveError::Closed`]. If money was taken
//!   for a closed order (a late notify after the window expired), the PaymentSession refunds it:
//!   the order does not reopen.
//! - Every successful move changes (state, progress), so each one is worth a history row and an
//!   `order:progress` event; a refused command changes nothing.
//!
//! # ETA
//!
//! [`eta`](super::eta::eta) projects when the order arrives (delivery) or is ready (pickup, dine-in). The store's
//! promised times are split into nominal stage durations ([`Promise::nominal_ms`]):
//!
//! | progress | stage | nominal share |
//! |---|---|---|
//! | 0 | awaiting acceptance | 1/10 of estimateTime |
//! | 1 | accepted, not yet started | 1/10 of estimateTime |
//! | 10 (4) | making | 3/10 of estimateTime |
//! | 20 | oven | 4/10 of estimateTime |
//! | 30 | quality check | 1/10 of estimateTime |
//! | 40 | dispatch (delivery only) | deliveryTime − estimateTime, at least [`MIN_RIDE_MIN`] minutes |
//!
//! So with the defaults (deliveryTime 30, estimateTime 15) an order paid now is projected ready in
//! 15 minutes and delivered in 30: the store's own promise. At each stage the projection restarts
//! from the measured facts: the time already spent in the current stage (from the history) is
//! taken off its nominal duration (an overrun stage is assumed to end now), and the later stages
//! keep their nominal durations. Everything gained or lost earlier is therefore carried, and
//! nothing else is guessed. A booked order is never projected before its booked time.

use crate::domain::catalogue::{DELIVERY, DINE_IN};
use crate::domain::lang::Lang;
use crate::domain::ordering::order_status::state_label;

/// Display state codes (the order list's labels are [`state_label`]).
pub mod state {
    /// Never written by this machine (see the module table).
    pub const UNCONFIRMED: u8 = 0;
    pub const ACCEPTED: u8 = 1;
    pub const REFUSED_BY_STORE: u8 = 2;
    pub const CANCELLED_BY_CUSTOMER: u8 = 3;
    pub const PAYMENT_FAILED: u8 = 4;
    pub const UNPAID: u8 = 5;
    pub const PAID: u8 = 6;
    pub const CASH_ON_DELIVERY: u8 = 7;
    pub const COMPLETED: u8 = 8;
    pub const EXPIRED_UNPAID: u8 = 9;
}

/// Progress codes (the tracker's labels are [`step_label`](super::step_label)).
pub mod progress {
    pub const AWAITING_ACCEPTANCE: u8 = 0;
    pub const ACCEPTED: u8 = 1;
    pub const REFUSED: u8 = 2;
    pub const CANCELLED: u8 = 3;
    /// The spec's other "in production" code; read as [`MAKING`], never written.
    pub const IN_PRODUCTION: u8 = 4;
    pub const MAKING: u8 = 10;
    pub const OVEN: u8 = 20;
    pub const QUALITY_CHECK: u8 = 30;
    /// Dispatch (delivery), ready for pickup (type 1), ready to serve (type 2).
    pub const DISPATCH: u8 = 40;
    pub const DONE: u8 = 50;
    pub const UNKNOWN: u8 = 99;
}

use progress as p;
use state as s;

/// How long after a stage was entered the store may still step back out of it.
pub const UNDO_WINDOW_MS: i64 = 2 * 60_000;

/// The shortest ride the ETA assumes for a delivery, whatever the store's times say.
pub const MIN_RIDE_MIN: u32 = 10;

/// The steps the status page shows, in order: accept, make, oven, quality check, dispatch (or
/// ready), delivered (or completed).
pub const STEPS: [u8; 6] = [
    p::ACCEPTED,
    p::MAKING,
    p::OVEN,
    p::QUALITY_CHECK,
    p::DISPATCH,
    p::DONE,
];

/// Who asks for a move: the server itself (payment results, expiry), the customer who owns the
/// order, or staff of the order's store (the caller has checked the store already).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Actor {
    System,
    Customer,
    Store,
}

impl Actor {
    /// The name written to `order_events.actor`.
    pub fn as_str(self) -> &'static str {
        match self {
            Actor::System => "system",
            Actor::Customer => "customer",
            Actor::Store => "store",
        }
    }
}

/// What an actor asks of an order. See the module table for who may send which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// The provider confirmed a payment (notify or query).
    PaymentSucceeded,
    /// A payment attempt failed or was cancelled at the cashier.
    PaymentFailed,
    /// The 30-minute pay-in-progress record expired unpaid: the order is cancelled.
    PaymentExpired,
    /// The customer cancels, before the store accepts.
    CustomerCancel,
    Accept,
    /// Refuse with a reason the customer will see (must not be blank).
    Refuse {
        reason: String,
    },
    /// To the next stage; `from` is the progress code the staff member saw.
    Advance {
        from: u8,
    },
    /// Back one production stage within [`UNDO_WINDOW_MS`]; `from` as for `Advance`.
    Undo {
        from: u8,
    },
    /// Delivered (or collected, or served): only from dispatch / ready (40).
    Complete,
}

impl Command {
    /// The one actor who may send this command.
    pub fn actor(&self) -> Actor {
        use Command::*;
        match self {
            PaymentSucceeded | PaymentFailed | PaymentExpired => Actor::System,
            CustomerCancel => Actor::Customer,
            Accept | Refuse { .. } | Advance { .. } | Undo { .. } | Complete => Actor::Store,
        }
    }

    /// A stable name for logs.
    pub fn name(&self) -> &'static str {
        use Command::*;
        match self {
            PaymentSucceeded => "paymentSucceeded",
            PaymentFailed => "paymentFailed",
            PaymentExpired => "paymentExpired",
            CustomerCancel => "customerCancel",
            Accept => "accept",
            Refuse { .. } => "refuse",
            Advance { .. } => "advance",
            Undo { .. } => "undo",
            Complete => "complete",
        }
    }
}

/// Where an order is, as read from its row and its latest history row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrderState {
    pub state: u8,
    pub progress: u8,
    /// When the order made its last move (the latest `order_events.at`); only `Undo` reads it.
    pub last_move_at_ms: i64,
}

impl OrderState {
    /// Cancelled, refused or completed: it will never move again.
    pub fn is_closed(&self) -> bool {
        is_closed(self.state)
    }

    /// Whether the store's live queue lists it: awaiting acceptance or in production.
    pub fn in_store_queue(&self) -> bool {
        matches!(
            position(self),
            Ok(Position::Waiting { .. } | Position::Accepted(_))
        )
    }
}

/// Cancelled (2, 3, 9, 10, 11) or completed (8).
pub fn is_closed(state: u8) -> bool {
    matches!(state, 2 | 3 | 8 | 9 | 10 | 11)
}

/// What a successful move writes: the new codes, and what the caller must do besides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    pub state: u8,
    pub progress: u8,
    /// Money was taken online and the order will not be made (refused or cancelled while paid):
    /// refund it through the provider.
    pub refund: bool,
    /// The order has just entered its store's queue (paid online): announce it to the store.
    /// A cash-on-delivery order is created in the queue, which is not a move.
    pub reaches_store: bool,
    /// For the history row's `note`: the refusal reason, trimmed.
    pub note: Option<String>,
}

impl Transition {
    /// The order list's label of the new state.
    pub fn label(&self, lang: Lang) -> &'static str {
        state_label(self.state, lang)
    }
}

/// Why a command was refused. Nothing changed in every case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveError {
    /// This actor may never send this command (a customer accepting, staff cancelling for the
    /// customer, anyone but the system settling a payment).
    NotAllowed,
    /// The command was meant for an earlier point of the order's life: it was already done (a
    /// second accept, a repeated payment result) or someone moved the order first (`from` is
    /// stale). Refresh and look again; callers wanting idempotence may treat it as done.
    MovedOn,
    /// The order is cancelled, refused or completed.
    Closed,
    /// The customer cancels an order the store has accepted.
    TooLateToCancel,
    /// A store command on an order that is not paid yet (unpaid or payment failed): it is not in
    /// the store's queue.
    NotInQueue,
    /// A production command on an order still awaiting acceptance.
    NotAccepted,
    /// `Complete` before the order reached dispatch / ready (40).
    NotReady,
    /// `Undo` with no production stage to go back from (awaiting acceptance or just accepted).
    NothingToUndo,
    /// `Undo` more than [`UNDO_WINDOW_MS`] after the stage was entered.
    UndoExpired,
    /// A payment command for a cash-on-delivery order, which takes no online payment.
    NotOnlinePayment,
    /// `Refuse` with a blank reason.
    ReasonRequired,
    /// The order's (state, progress) pair is not one of the module table's: nothing is guessed.
    UnknownState,
}

impl MoveError {
    pub fn message(&self, lang: Lang) -> &'static str {
        use MoveError::*;
        let (zh, en) = match self {
            NotAllowed => ("无权操作", "You are not allowed to do this"),
            MovedOn => (
                "订单状态已变化，请刷新",
                "The order has moved on; refresh to see where it is",
            ),
            Closed => ("订单已结束", "This order is already closed"),
            TooLateToCancel => (
                "商家已接单，无法取消",
                "The store has accepted this order; it can no longer be cancelled",
            ),
            NotInQueue => (
                "订单尚未支付，门店无法处理",
                "This order is not paid yet, so it is not in the store's queue",
            ),
            NotAccepted => ("请先接单", "Accept the order first"),
            NotReady => (
                "订单尚未出餐，无法完成",
                "The order is not ready yet; it cannot be completed",
            ),
            NothingToUndo => ("没有可撤销的步骤", "There is no step to undo"),
            UndoExpired => (
                "已超过撤销时限（2分钟）",
                "Too late to undo: a step can be undone within 2 minutes",
            ),
            NotOnlinePayment => (
                "货到付款订单无需在线支付",
                "A cash-on-delivery order takes no online payment",
            ),
            ReasonRequired => ("请填写拒单原因", "Give a reason for refusing"),
            UnknownState => ("订单状态异常", "The order is in an unknown state"),
        };
        match lang {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }

    /// A stable name for logs and clients that branch on the reason.
    pub fn code(&self) -> &'static str {
        use MoveError::*;
        match self {
            NotAllowed => "notAllowed",
            MovedOn => "movedOn",
            Closed => "closed",
            TooLateToCancel => "tooLateToCancel",
            NotInQueue => "notInQueue",
            NotAccepted => "notAccepted",
            NotReady => "notReady",
            NothingToUndo => "nothingToUndo",
            UndoExpired => "undoExpired",
            NotOnlinePayment => "notOnlinePayment",
            ReasonRequired => "reasonRequired",
            UnknownState => "unknownState",
        }
    }
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message(Lang::En))
    }
}

impl std::error::Error for MoveError {}

/// The module table's rows, as one value the moves can match on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Position {
    /// 5/99 or 4/99.
    Payable {
        failed: bool,
    },
    /// 6/0 or 7/0.
    Waiting {
        paid_online: bool,
    },
    /// 1/{1, 4, 10, 20, 30, 40}, with the progress code.
    Accepted(u8),
    Closed,
}

fn position(order: &OrderState) -> Result<Position, MoveError> {
    if is_closed(order.state) {
        return Ok(Position::Closed);
    }
    match (order.state, order.progress) {
        (s::UNPAID, p::UNKNOWN) => Ok(Position::Payable { failed: false }),
        (s::PAYMENT_FAILED, p::UNKNOWN) => Ok(Position::Payable { failed: true }),
        (s::PAID, p::AWAITING_ACCEPTANCE) => Ok(Position::Waiting { paid_online: true }),
        (s::CASH_ON_DELIVERY, p::AWAITING_ACCEPTANCE) => {
            Ok(Position::Waiting { paid_online: false })
        }
        (
            s::ACCEPTED,
            at @ (p::ACCEPTED
            | p::IN_PRODUCTION
            | p::MAKING
            | p::OVEN
            | p::QUALITY_CHECK
            | p::DISPATCH),
        ) => Ok(Position::Accepted(at)),
        _ => Err(MoveError::UnknownState),
    }
}

/// The stage after an accepted order's stage (40 → 50 completes).
fn next_stage(at: u8) -> u8 {
    match at {
        p::ACCEPTED => p::MAKING,
        p::IN_PRODUCTION | p::MAKING => p::OVEN,
        p::OVEN => p::QUALITY_CHECK,
        p::QUALITY_CHECK => p::DISPATCH,
        _ => p::DONE,
    }
}

/// The stage before a production stage; None at acceptance.
fn previous_stage(at: u8) -> Option<u8> {
    match at {
        p::IN_PRODUCTION | p::MAKING => Some(p::ACCEPTED),
        p::OVEN => Some(p::MAKING),
        p::QUALITY_CHECK => Some(p::OVEN),
        p::DISPATCH => Some(p::QUALITY_CHECK),
        _ => None,
    }
}

fn accepted_at(progress: u8) -> (u8, u8) {
    if progress == p::DONE {
        (s::COMPLETED, p::DONE)
    } else {
        (s::ACCEPTED, progress)
    }
}

/// Checks `cmd` from `actor` against the order as it stands and answers the move to write, or
/// why not. Checked in this order: the actor owns the command; the order's codes are a known
/// pair; it is not closed; then the command's own rules (module table). `now_ms` only matters
/// for `Undo`'s window.
pub fn apply(
    current: &OrderState,
    actor: Actor,
    cmd: &Command,
    now_ms: i64,
) -> Result<Transition, MoveError> {
    use Command::*;
    use Position::*;
    if cmd.actor() != actor {
        return Err(MoveError::NotAllowed);
    }
    let at = position(current)?;
    if at == Closed {
        return Err(MoveError::Closed);
    }
    let moved = |(state, progress): (u8, u8), refund: bool| Transition {
        state,
        progress,
        refund,
        reaches_store: false,
        note: None,
    };
    match (cmd, at) {
        (PaymentSucceeded, Payable { .. }) => Ok(Transition {
            reaches_store: true,
            ..moved((s::PAID, p::AWAITING_ACCEPTANCE), false)
        }),
        (PaymentFailed, Payable { failed: false }) => {
            Ok(moved((s::PAYMENT_FAILED, p::UNKNOWN), false))
        }
        (PaymentExpired, Payable { .. }) => Ok(moved((s::EXPIRED_UNPAID, p::CANCELLED), false)),
        (PaymentSucceeded | PaymentFailed | PaymentExpired, Waiting { paid_online: false }) => {
            Err(MoveError::NotOnlinePayment)
        }
        (PaymentSucceeded | PaymentFailed | PaymentExpired, _) => Err(MoveError::MovedOn),

        (CustomerCancel, Payable { .. }) => {
            Ok(moved((s::CANCELLED_BY_CUSTOMER, p::CANCELLED), false))
        }
        (CustomerCancel, Waiting { paid_online }) => {
            Ok(moved((s::CANCELLED_BY_CUSTOMER, p::CANCELLED), paid_online))
        }
        (CustomerCancel, _) => Err(MoveError::TooLateToCancel),

        (Accept | Refuse { .. } | Advance { .. } | Undo { .. } | Complete, Payable { .. }) => {
            Err(MoveError::NotInQueue)
        }

        (Accept, Waiting { .. }) => Ok(moved((s::ACCEPTED, p::ACCEPTED), false)),
        (Accept, _) => Err(MoveError::MovedOn),

        (Refuse { reason }, Waiting { paid_online }) => {
            let reason = reason.trim();
            if reason.is_empty() {
                return Err(MoveError::ReasonRequired);
            }
            Ok(Transition {
                note: Some(reason.to_string()),
                ..moved((s::REFUSED_BY_STORE, p::REFUSED), paid_online)
            })
        }
        (Refuse { .. }, _) => Err(MoveError::MovedOn),

        (Advance { from } | Undo { from }, _) if *from != current.progress => {
            Err(MoveError::MovedOn)
        }
        (Advance { .. }, Accepted(stage)) => Ok(moved(accepted_at(next_stage(stage)), false)),
        (Advance { .. }, _) => Err(MoveError::NotAccepted),

        (Undo { .. }, Accepted(stage)) => {
            let back = previous_stage(stage).ok_or(MoveError::NothingToUndo)?;
            if now_ms.saturating_sub(current.last_move_at_ms) > UNDO_WINDOW_MS {
                return Err(MoveError::UndoExpired);
            }
            Ok(moved((s::ACCEPTED, back), false))
        }
        (Undo { .. }, _) => Err(MoveError::NothingToUndo),

        (Complete, Accepted(p::DISPATCH)) => Ok(moved((s::COMPLETED, p::DONE), false)),
        (Complete, Accepted(_)) => Err(MoveError::NotReady),
        (Complete, _) => Err(MoveError::NotAccepted),
    }
}

/// The status page's label for a progress code: the steps accept, make, oven, quality check,
/// dispatch, delivered, where dispatch and delivered read differently for pickup (order type 1,
/// and any type that is neither delivery nor dine-in) and dine-in (2). Also labels the codes
/// off the line (awaiting acceptance, refused, cancelled, unknown).
pub fn step_label(progress: u8, order_type: u8, lang: Lang) -> &'static str {
    let (zh, en) = match (progress, order_type) {
        (p::AWAITING_ACCEPTANCE, _) => ("待接单", "Awaiting acceptance"),
        (p::ACCEPTED, _) => ("已接单", "Accepted"),
        (p::REFUSED, _) => ("已拒单", "Refused"),
        (p::CANCELLED, _) => ("已取消", "Cancelled"),
        (p::IN_PRODUCTION | p::MAKING, _) => ("制作中", "Making"),
        (p::OVEN, _) => ("烘烤中", "In the oven"),
        (p::QUALITY_CHECK, _) => ("质检中", "Quality check"),
        (p::DISPATCH, DELIVERY) => ("配送中", "Out for delivery"),
        (p::DISPATCH, DINE_IN) => ("待上餐", "Ready to serve"),
        (p::DISPATCH, _) => ("待取餐", "Ready for pickup"),
        (p::DONE, DELIVERY) => ("已送达", "Delivered"),
        (p::DONE, _) => ("已完成", "Completed"),
        _ => ("未知", "Unknown"),
    };
    match lang {
        Lang::Zh => zh,
        Lang::En => en,
    }
}

#[cfg(test)]
#[path = "order_machine_tests.rs"]
mod tests;
