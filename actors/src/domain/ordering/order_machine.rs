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
//! [`eta`] projects when the order arrives (delivery) or is ready (pickup, dine-in). The store's
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

use crate::domain::catalogue::{Store, DELIVERY, DINE_IN};
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

/// What the store promised for one order: the inputs of [`eta`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Promise {
    pub order_type: u8,
    pub is_book: bool,
    /// The order's time: delivery at, or ready at (pickup, dine-in).
    pub order_time_ms: i64,
    /// The store's deliveryTime, minutes.
    pub delivery_min: u32,
    /// The store's estimateTime, minutes.
    pub estimate_min: u32,
}

const MINUTE_MS: i64 = 60_000;

/// The line the ETA walks, with each kitchen stage's share of estimateTime in tenths.
const KITCHEN_TENTHS: [(u8, i64); 5] = [
    (p::AWAITING_ACCEPTANCE, 1),
    (p::ACCEPTED, 1),
    (p::MAKING, 3),
    (p::OVEN, 4),
    (p::QUALITY_CHECK, 1),
];
const LINE: [u8; 6] = [
    p::AWAITING_ACCEPTANCE,
    p::ACCEPTED,
    p::MAKING,
    p::OVEN,
    p::QUALITY_CHECK,
    p::DISPATCH,
];

/// 4 and 10 are one stage.
fn stage_of(progress: u8) -> u8 {
    if progress == p::IN_PRODUCTION {
        p::MAKING
    } else {
        progress
    }
}

impl Promise {
    pub fn for_store(store: &Store, order_type: u8, is_book: bool, order_time_ms: i64) -> Promise {
        Promise {
            order_type,
            is_book,
            order_time_ms,
            delivery_min: store.delivery_time,
            estimate_min: store.estimate_time,
        }
    }

    /// The stage the ETA aims at: delivered (50) for delivery, ready (40) for anything else.
    fn target(&self) -> u8 {
        if self.order_type == DELIVERY {
            p::DONE
        } else {
            p::DISPATCH
        }
    }

    /// The nominal duration of the stage at `progress` (module table), in ms; None for a code
    /// that is not a stage of this order's way to its target (2, 3, 50, 99, dispatch for a
    /// pickup order, unknown codes).
    pub fn nominal_ms(&self, progress: u8) -> Option<i64> {
        let stage = stage_of(progress);
        if stage >= self.target() {
            return None;
        }
        if stage == p::DISPATCH {
            let ride = self
                .delivery_min
                .saturating_sub(self.estimate_min)
                .max(MIN_RIDE_MIN);
            return Some(i64::from(ride) * MINUTE_MS);
        }
        let (_, tenths) = KITCHEN_TENTHS.iter().find(|(at, _)| *at == stage)?;
        Some(i64::from(self.estimate_min) * MINUTE_MS * tenths / 10)
    }

    fn not_before_booking(&self, at: i64) -> i64 {
        if self.is_book {
            at.max(self.order_time_ms)
        } else {
            at
        }
    }
}

/// When the order is expected delivered (delivery) or ready (pickup, dine-in), epoch ms.
///
/// `history` is the order's `(progress, at_ms)` rows in the order written; a stage is taken to
/// have started at the first row that entered it (so an undone-and-redone step keeps its real
/// start; the error is at most the undo window). With no row for the current stage it started
/// now. Projection: `now + max(nominal(current) − elapsed, 0) + Σ nominal(later stages)`, and for
/// a booked order never before its booked time. A pickup or dine-in order at 40 answers the time
/// it became ready. None when there is nothing to wait for: not paid (99), refused, cancelled,
/// completed, or an unknown code.
pub fn eta(promise: &Promise, progress: u8, history: &[(u8, i64)], now_ms: i64) -> Option<i64> {
    let stage = stage_of(progress);
    let started = history
        .iter()
        .find(|(at, _)| stage_of(*at) == stage)
        .map_or(now_ms, |(_, at_ms)| *at_ms)
        .min(now_ms);
    if stage == promise.target() && stage != p::DONE {
        return Some(promise.not_before_booking(started));
    }
    let index = LINE.iter().position(|at| *at == stage)?;
    let current = promise.nominal_ms(stage)?;
    let left_here = current
        .saturating_sub(now_ms.saturating_sub(started))
        .max(0);
    let later: i64 = LINE[index + 1..]
        .iter()
        .filter_map(|at| promise.nominal_ms(*at))
        .sum();
    let projected = now_ms.saturating_add(left_here).saturating_add(later);
    Some(promise.not_before_booking(projected))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::catalogue::{virtual_store, PICKUP};

    const T: i64 = 1_700_000_000_000;
    const MIN: i64 = 60_000;

    fn at(state: u8, progress: u8) -> OrderState {
        OrderState {
            state,
            progress,
            last_move_at_ms: T,
        }
    }

    fn refuse(reason: &str) -> Command {
        Command::Refuse {
            reason: reason.into(),
        }
    }

    /// Every allowed move: (state, progress, command) → (state, progress, refund, reaches_store).
    #[test]
    fn allowed_moves() {
        use Command::*;
        // (state, progress, refund, reaches_store)
        type Landing = (u8, u8, bool, bool);
        let cases: Vec<(u8, u8, Command, Landing)> = vec![
            (5, 99, PaymentSucceeded, (6, 0, false, true)),
            (4, 99, PaymentSucceeded, (6, 0, false, true)),
            (5, 99, PaymentFailed, (4, 99, false, false)),
            (5, 99, PaymentExpired, (9, 3, false, false)),
            (4, 99, PaymentExpired, (9, 3, false, false)),
            (5, 99, CustomerCancel, (3, 3, false, false)),
            (4, 99, CustomerCancel, (3, 3, false, false)),
            (6, 0, CustomerCancel, (3, 3, true, false)),
            (7, 0, CustomerCancel, (3, 3, false, false)),
            (6, 0, Accept, (1, 1, false, false)),
            (7, 0, Accept, (1, 1, false, false)),
            (6, 0, refuse("面团用完了"), (2, 2, true, false)),
            (7, 0, refuse("out of dough"), (2, 2, false, false)),
            (1, 1, Advance { from: 1 }, (1, 10, false, false)),
            (1, 10, Advance { from: 10 }, (1, 20, false, false)),
            (1, 4, Advance { from: 4 }, (1, 20, false, false)),
            (1, 20, Advance { from: 20 }, (1, 30, false, false)),
            (1, 30, Advance { from: 30 }, (1, 40, false, false)),
            (1, 40, Advance { from: 40 }, (8, 50, false, false)),
            (1, 40, Complete, (8, 50, false, false)),
            (1, 10, Undo { from: 10 }, (1, 1, false, false)),
            (1, 4, Undo { from: 4 }, (1, 1, false, false)),
            (1, 20, Undo { from: 20 }, (1, 10, false, false)),
            (1, 30, Undo { from: 30 }, (1, 20, false, false)),
            (1, 40, Undo { from: 40 }, (1, 30, false, false)),
        ];
        for (state, progress, cmd, (to_state, to_progress, refund, reaches_store)) in cases {
            let got = apply(&at(state, progress), cmd.actor(), &cmd, T + MIN);
            let want_note = match &cmd {
                Refuse { reason } => Some(reason.clone()),
                _ => None,
            };
            assert_eq!(
                got,
                Ok(Transition {
                    state: to_state,
                    progress: to_progress,
                    refund,
                    reaches_store,
                    note: want_note,
                }),
                "{state}/{progress} {cmd:?}"
            );
        }
    }

    /// Every refused move: (state, progress, actor, command, now) → error.
    #[test]
    fn refused_moves() {
        use Actor::*;
        use Command::*;
        use MoveError::*;
        let late = T + UNDO_WINDOW_MS + 1;
        let cases: Vec<(u8, u8, Actor, Command, i64, MoveError)> = vec![
            // wrong actor
            (6, 0, Customer, Accept, T, NotAllowed),
            (6, 0, System, Accept, T, NotAllowed),
            (6, 0, Store, CustomerCancel, T, NotAllowed),
            (5, 99, Customer, PaymentSucceeded, T, NotAllowed),
            (5, 99, Store, PaymentSucceeded, T, NotAllowed),
            (1, 10, Customer, Advance { from: 10 }, T, NotAllowed),
            (1, 40, System, Complete, T, NotAllowed),
            // the actor check comes before the state check
            (8, 50, Customer, Advance { from: 50 }, T, NotAllowed),
            // double accept, refuse after accept, payment results after the payment step
            (1, 1, Store, Accept, T, MovedOn),
            (1, 20, Store, Accept, T, MovedOn),
            (1, 1, Store, refuse("busy"), T, MovedOn),
            (6, 0, System, PaymentSucceeded, T, MovedOn),
            (1, 10, System, PaymentSucceeded, T, MovedOn),
            (4, 99, System, PaymentFailed, T, MovedOn),
            (6, 0, System, PaymentExpired, T, MovedOn),
            // stale `from`: a double tap or a second tablet
            (1, 20, Store, Advance { from: 10 }, T, MovedOn),
            (1, 20, Store, Undo { from: 30 }, T, MovedOn),
            (6, 0, Store, Advance { from: 1 }, T, MovedOn),
            // customer cancel after acceptance
            (1, 1, Customer, CustomerCancel, T, TooLateToCancel),
            (1, 30, Customer, CustomerCancel, T, TooLateToCancel),
            // closed orders never move: advance past completion, a second complete, late payment
            (8, 50, Store, Advance { from: 50 }, T, Closed),
            (8, 50, Store, Complete, T, Closed),
            (8, 50, Store, Undo { from: 50 }, T, Closed),
            (8, 50, Customer, CustomerCancel, T, Closed),
            (2, 2, Store, Accept, T, Closed),
            (3, 3, Customer, CustomerCancel, T, Closed),
            (9, 3, System, PaymentSucceeded, T, Closed),
            (10, 3, Store, Accept, T, Closed),
            (11, 99, System, PaymentExpired, T, Closed),
            // store commands on an unpaid order
            (5, 99, Store, Accept, T, NotInQueue),
            (4, 99, Store, refuse("busy"), T, NotInQueue),
            (5, 99, Store, Advance { from: 99 }, T, NotInQueue),
            (5, 99, Store, Complete, T, NotInQueue),
            // production before acceptance
            (6, 0, Store, Advance { from: 0 }, T, NotAccepted),
            (7, 0, Store, Complete, T, NotAccepted),
            // complete before dispatch
            (1, 1, Store, Complete, T, NotReady),
            (1, 30, Store, Complete, T, NotReady),
            // undo: nothing behind, or too late
            (1, 1, Store, Undo { from: 1 }, T, NothingToUndo),
            (6, 0, Store, Undo { from: 0 }, T, NothingToUndo),
            (1, 20, Store, Undo { from: 20 }, late, UndoExpired),
            // cash on delivery takes no payment results
            (7, 0, System, PaymentSucceeded, T, NotOnlinePayment),
            (7, 0, System, PaymentExpired, T, NotOnlinePayment),
            // refusal needs a reason
            (6, 0, Store, refuse("   "), T, ReasonRequired),
            // pairs outside the table
            (0, 0, Store, Accept, T, UnknownState),
            (6, 20, Store, Advance { from: 20 }, T, UnknownState),
            (1, 0, Store, Accept, T, UnknownState),
            (1, 50, Store, Complete, T, UnknownState),
            (5, 0, System, PaymentSucceeded, T, UnknownState),
            (42, 0, Customer, CustomerCancel, T, UnknownState),
        ];
        for (state, progress, actor, cmd, now, want) in cases {
            assert_eq!(
                apply(&at(state, progress), actor, &cmd, now),
                Err(want),
                "{state}/{progress} {actor:?} {cmd:?}"
            );
        }
    }

    fn all_commands() -> Vec<Command> {
        use Command::*;
        let mut all = vec![
            PaymentSucceeded,
            PaymentFailed,
            PaymentExpired,
            CustomerCancel,
            Accept,
            refuse("busy"),
            Complete,
        ];
        for from in [0, 1, 4, 10, 20, 30, 40, 50, 99] {
            all.push(Advance { from });
            all.push(Undo { from });
        }
        all
    }

    const VALID: [(u8, u8); 11] = [
        (5, 99),
        (4, 99),
        (6, 0),
        (7, 0),
        (1, 1),
        (1, 4),
        (1, 10),
        (1, 20),
        (1, 30),
        (1, 40),
        (8, 50),
    ];

    /// Whatever is asked of any valid order by anyone: a wrong actor is always refused, a closed
    /// order never moves, every move lands on a valid pair and changes it, and only a paid
    /// online order leaving without being made is refunded.
    #[test]
    fn every_command_from_every_state_lands_somewhere_valid() {
        let landing: Vec<(u8, u8)> = VALID
            .iter()
            .copied()
            .chain([(2, 2), (3, 3), (9, 3)])
            .collect();
        for (state, progress) in VALID.iter().copied().chain([(2, 2), (3, 3), (9, 3)]) {
            let order = at(state, progress);
            for cmd in all_commands() {
                for actor in [Actor::System, Actor::Customer, Actor::Store] {
                    let got = apply(&order, actor, &cmd, T);
                    if actor != cmd.actor() {
                        assert_eq!(
                            got,
                            Err(MoveError::NotAllowed),
                            "{state}/{progress} {cmd:?}"
                        );
                        continue;
                    }
                    let Ok(t) = got else { continue };
                    assert!(!order.is_closed(), "{state}/{progress} {cmd:?} moved");
                    assert!(landing.contains(&(t.state, t.progress)), "{t:?}");
                    assert_ne!((t.state, t.progress), (state, progress), "{cmd:?}");
                    assert_eq!(
                        t.refund,
                        state == 6 && matches!(t.state, 2 | 3),
                        "{state}/{progress} {cmd:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn undo_window_edges() {
        let order = OrderState {
            state: 1,
            progress: 30,
            last_move_at_ms: T,
        };
        let undo = Command::Undo { from: 30 };
        let back = |now| apply(&order, Actor::Store, &undo, now).map(|t| t.progress);
        assert_eq!(back(T + UNDO_WINDOW_MS), Ok(20));
        assert_eq!(back(T + UNDO_WINDOW_MS + 1), Err(MoveError::UndoExpired));
        // a clock behind the last move (another node) is inside the window
        assert_eq!(back(T - 5_000), Ok(20));
    }

    /// A delivery order from submit to the door, then one tap too many.
    #[test]
    fn a_delivery_walks_the_whole_line() {
        let mut order = at(5, 99);
        let mut walk = vec![
            (Actor::System, Command::PaymentSucceeded),
            (Actor::Store, Command::Accept),
        ];
        for from in [1, 10, 20, 30, 40] {
            walk.push((Actor::Store, Command::Advance { from }));
        }
        let mut seen = Vec::new();
        for (actor, cmd) in walk {
            match apply(&order, actor, &cmd, T) {
                Ok(t) => {
                    order = at(t.state, t.progress);
                    seen.push((t.progress, step_label(t.progress, DELIVERY, Lang::En)));
                }
                Err(e) => panic!("{cmd:?}: {e}"),
            }
        }
        assert_eq!(
            seen,
            vec![
                (0, "Awaiting acceptance"),
                (1, "Accepted"),
                (10, "Making"),
                (20, "In the oven"),
                (30, "Quality check"),
                (40, "Out for delivery"),
                (50, "Delivered"),
            ]
        );
        assert_eq!(order, at(8, 50));
        assert!(order.is_closed() && !order.in_store_queue());
        let again = apply(&order, Actor::Store, &Command::Advance { from: 50 }, T);
        assert_eq!(again, Err(MoveError::Closed));
    }

    #[test]
    fn store_queue_and_closed() {
        let cases = [
            ((5, 99), false, false),
            ((4, 99), false, false),
            ((6, 0), true, false),
            ((7, 0), true, false),
            ((1, 1), true, false),
            ((1, 40), true, false),
            ((8, 50), false, true),
            ((2, 2), false, true),
            ((3, 3), false, true),
            ((9, 3), false, true),
            ((11, 3), false, true),
            ((0, 0), false, false),
        ];
        for ((state, progress), queued, closed) in cases {
            let order = at(state, progress);
            assert_eq!(order.in_store_queue(), queued, "{state}/{progress}");
            assert_eq!(order.is_closed(), closed, "{state}/{progress}");
        }
    }

    #[test]
    fn transition_labels_follow_the_list_table() {
        let t = apply(&at(6, 0), Actor::Store, &refuse("  打烊了 "), T);
        assert_eq!(t.as_ref().map(|t| t.label(Lang::Zh)), Ok("已取消"));
        assert_eq!(t.map(|t| t.note), Ok(Some("打烊了".to_string())));
        let t = apply(&at(1, 40), Actor::Store, &Command::Complete, T);
        assert_eq!(t.map(|t| t.label(Lang::En)), Ok("Completed"));
    }

    #[test]
    fn step_labels_by_order_type() {
        let cases: &[(u8, u8, &str, &str)] = &[
            (0, DELIVERY, "待接单", "Awaiting acceptance"),
            (1, PICKUP, "已接单", "Accepted"),
            (2, DELIVERY, "已拒单", "Refused"),
            (3, DINE_IN, "已取消", "Cancelled"),
            (4, DELIVERY, "制作中", "Making"),
            (10, DINE_IN, "制作中", "Making"),
            (20, PICKUP, "烘烤中", "In the oven"),
            (30, DELIVERY, "质检中", "Quality check"),
            (40, DELIVERY, "配送中", "Out for delivery"),
            (40, PICKUP, "待取餐", "Ready for pickup"),
            (40, DINE_IN, "待上餐", "Ready to serve"),
            (40, 7, "待取餐", "Ready for pickup"),
            (50, DELIVERY, "已送达", "Delivered"),
            (50, PICKUP, "已完成", "Completed"),
            (50, DINE_IN, "已完成", "Completed"),
            (99, DELIVERY, "未知", "Unknown"),
            (77, PICKUP, "未知", "Unknown"),
        ];
        for (progress, order_type, zh, en) in cases {
            assert_eq!(
                step_label(*progress, *order_type, Lang::Zh),
                *zh,
                "{progress}/{order_type}"
            );
            assert_eq!(
                step_label(*progress, *order_type, Lang::En),
                *en,
                "{progress}/{order_type}"
            );
        }
        assert_eq!(STEPS, [1, 10, 20, 30, 40, 50]);
    }

    #[test]
    fn every_error_has_its_own_words() {
        use MoveError::*;
        let all = [
            NotAllowed,
            MovedOn,
            Closed,
            TooLateToCancel,
            NotInQueue,
            NotAccepted,
            NotReady,
            NothingToUndo,
            UndoExpired,
            NotOnlinePayment,
            ReasonRequired,
            UnknownState,
        ];
        let mut seen = std::collections::HashSet::new();
        for e in all {
            for lang in [Lang::Zh, Lang::En] {
                assert!(!e.message(lang).is_empty());
                assert!(seen.insert(e.message(lang)), "{e:?} {lang:?} repeats");
            }
            assert!(seen.insert(e.code()), "{e:?} code repeats");
        }
        assert_eq!(MovedOn.message(Lang::Zh), "订单状态已变化，请刷新");
        assert_eq!(NotAllowed.message(Lang::Zh), "无权操作");
        assert_eq!(Closed.to_string(), "This order is already closed");
    }

    fn promise(order_type: u8, is_book: bool, order_time_ms: i64) -> Promise {
        Promise {
            order_type,
            is_book,
            order_time_ms,
            delivery_min: 30,
            estimate_min: 15,
        }
    }

    #[test]
    fn nominal_stages_split_the_promise() {
        let delivery = promise(DELIVERY, false, T);
        let stages: Vec<Option<i64>> = [0, 1, 4, 10, 20, 30, 40, 50, 2, 3, 99]
            .iter()
            .map(|at| delivery.nominal_ms(*at))
            .collect();
        let s = 1_000;
        assert_eq!(
            stages,
            vec![
                Some(90 * s),
                Some(90 * s),
                Some(270 * s),
                Some(270 * s),
                Some(360 * s),
                Some(90 * s),
                Some(900 * s),
                None,
                None,
                None,
                None
            ]
        );
        assert_eq!(promise(PICKUP, false, T).nominal_ms(40), None);
        let quick = Promise {
            delivery_min: 20,
            ..delivery
        };
        assert_eq!(quick.nominal_ms(40), Some(10 * MIN));
        let store = virtual_store(None);
        assert_eq!(
            Promise::for_store(&store, DELIVERY, true, T),
            Promise {
                order_type: DELIVERY,
                is_book: true,
                order_time_ms: T,
                delivery_min: store.delivery_time,
                estimate_min: store.estimate_time,
            }
        );
    }

    /// One ETA case: name, promise, progress, history and now in seconds after T, the answer in
    /// seconds after T.
    type EtaRow<'a> = (&'a str, Promise, u8, &'a [(u8, i64)], i64, Option<i64>);

    /// Defaults deliveryTime 30, estimateTime 15, so the nominal stages are 90 s (waiting), 90 s
    /// (accepted), 270 s (making), 360 s (oven), 90 s (quality check), 900 s (ride). Paid at T.
    #[test]
    fn eta_table() {
        let asap = promise(DELIVERY, false, T + 30 * MIN);
        let pickup = promise(PICKUP, false, T + 15 * MIN);
        let dine = promise(DINE_IN, false, T + 15 * MIN);
        let booked = promise(DELIVERY, true, T + 180 * MIN);
        let booked_soon = promise(DELIVERY, true, T + 20 * MIN);
        let booked_later = promise(DELIVERY, true, T + 40 * MIN);
        let booked_pickup = promise(PICKUP, true, T + 60 * MIN);
        let slow_store = Promise {
            delivery_min: 45,
            estimate_min: 20,
            ..asap
        };
        let paid: &[(u8, i64)] = &[(99, -60), (0, 0)];
        let making: &[(u8, i64)] = &[(0, 0), (1, 120), (10, 180)];
        let oven: &[(u8, i64)] = &[(0, 0), (1, 120), (10, 180), (20, 300)];
        let undone: &[(u8, i64)] = &[(10, 180), (20, 300), (10, 360)];
        #[rustfmt::skip]
        let cases: Vec<EtaRow> = vec![
            ("paid now: the store's promise",   asap,          0,  paid,          0,    Some(1800)),
            ("waiting, on track",               asap,          0,  paid,          60,   Some(1800)),
            ("slow to accept: slides",          asap,          0,  paid,          300,  Some(300 + 1710)),
            ("making, started late",            asap,          10, making,        180,  Some(1800)),
            ("4 is making",                     asap,          4,  &[(4, 180)],   180,  Some(1800)),
            ("fast kitchen: earlier",           asap,          20, oven,          480,  Some(480 + 180 + 990)),
            ("quality check",                   asap,          30, &[(30, 720)],  720,  Some(720 + 990)),
            ("on the road",                     asap,          40, &[(40, 900)],  1200, Some(1800)),
            ("ride overran: now",               asap,          40, &[(40, 900)],  2400, Some(2400)),
            ("no row: the stage starts now",    asap,          40, &[],           1200, Some(2100)),
            ("row after now: no negative time", asap,          40, &[(40, 1260)], 1200, Some(2100)),
            ("undone: the first start counts",  asap,          10, undone,        360,  Some(1800)),
            ("booked: not before its time",     booked,        0,  paid,          0,    Some(10_800)),
            ("booked, running late",            booked_soon,   20, oven,          900,  Some(900 + 990)),
            ("booked, kitchen early",           booked_later,  20, oven,          360,  Some(2400)),
            ("pickup accepted",                 pickup,        1,  &[(1, 60)],    60,   Some(60 + 810)),
            ("pickup ready: since",             pickup,        40, &[(40, 720)],  840,  Some(720)),
            ("dine-in ready, no row: now",      dine,          40, &[],           840,  Some(840)),
            ("booked pickup ready early",       booked_pickup, 40, &[(40, 720)],  840,  Some(3600)),
            ("the store's own times",           slow_store,    0,  paid,          0,    Some(2700)),
            ("delivered",                       asap,          50, &[(50, 1740)], 1740, None),
            ("pickup completed",                pickup,        50, &[],           0,    None),
            ("refused",                         asap,          2,  &[],           0,    None),
            ("cancelled",                       asap,          3,  &[],           0,    None),
            ("unpaid",                          asap,          99, &[(99, 0)],    0,    None),
            ("unknown code",                    asap,          77, &[],           0,    None),
        ];
        let ms = |secs: i64| T + secs * 1000;
        for (name, promise, progress, history, now, want) in cases {
            let history: Vec<(u8, i64)> = history.iter().map(|(p, at)| (*p, ms(*at))).collect();
            assert_eq!(
                eta(&promise, progress, &history, ms(now)),
                want.map(ms),
                "{name}"
            );
        }
    }
}
