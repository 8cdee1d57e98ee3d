use super::*;
use crate::domain::catalogue::PICKUP;

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
