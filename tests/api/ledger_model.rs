#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The model test of reversals (issue 34): every way an order can end after money, points and
//! coupons moved, over the order's state machine and the three ledgers together, with the
//! member's level and upgrade gift as the derived state.
//!
//! A member (1,000 points, a ¥10 coupon, level 1 with no spend) orders enough to reach Silver
//! on completion, paying with the coupon and points. From there the model walks every path of
//! moves: pay (once, or twice at once: a duplicate payment), cancel, the store's accept or
//! refusal, expiry, completion, the upgrade gift claimed and delivered, the points maturing,
//! the chain's refund of the completed order, and moves that must be refused (a cancel after
//! acceptance, a refund of an order not completed, a second refund, claiming a revoked gift).
//! Each path runs on its own member and order, through the real HTTP API and jobs, and after
//! every step the check asks of the server's own rows:
//! - money: what the customer paid equals what they got back (refunded or owed) plus what the
//!   chain kept, and the chain keeps the order's amount exactly while the order stands;
//! - points: the member's account is what the model says, to the point, in each column (none
//!   created, none lost), and the ledger reconcile finds 0 mismatches;
//! - coupons: the coupon is LOCKED, USED or RETURNED as the order's ending requires;
//! - level and gift: Silver and its gift exactly while the completed order stands;
//! - the reversal reconcile (each ended order against its ledgers) finds nothing lost.
//!
//! States are the distinct observations (order, payments, hold, coupon, points, level, gift);
//! interleavings are the paths. Paths are spread over three servers (each its own database),
//! since expiry and maturing move a server's clock for every order on it.

use crate::helpers::{spawn_app, ReadyMember, TestApp};
use crate::payments::{pay_at_cashier, tablet_login, until_state};
use actors::db::coupons::CouponRepo;
use actors::db::gifts::GiftRepo;
use actors::db::payments::PaymentRepo;
use actors::db::points::{Account, PointsRepo};
use actors::db::reversals::ReversalRepo;
use actors::domain::payments::state::PaymentState;
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const OPS: &str = "test-ops-token";
const START_POINTS: i64 = 1_000;
const SILVER: i64 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Op {
    Pay,
    /// Two attempts paid at once: the order is paid by one, the other refunded.
    PayTwice,
    Cancel,
    Expire,
    Accept,
    Refuse,
    Complete,
    ClaimGift,
    /// The jobs run (holds, returns, gifts, reversals settled).
    Sweep,
    /// The refund window closes: earned points become available.
    Mature,
    ChainRefund,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Stage {
    Unpaid,
    Paid,
    Accepted,
    Completed,
    /// Cancelled, refused or expired.
    Closed {
        was_paid: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Gift {
    None,
    Available,
    /// Claimed and delivered (its points credited).
    Delivered,
}

/// What the model knows of one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Model {
    stage: Stage,
    refunded: bool,
    gift: Gift,
    matured: bool,
}

impl Model {
    fn start() -> Model {
        Model {
            stage: Stage::Unpaid,
            refunded: false,
            gift: Gift::None,
            matured: false,
        }
    }

    /// The moves that change something from here, with what the model expects after each.
    fn moves(&self) -> Vec<(Op, Model)> {
        let mut out = Vec::new();
        let mut to = |op: Op, f: &dyn Fn(&mut Model)| {
            let mut m = *self;
            f(&mut m);
            out.push((op, m));
        };
        match self.stage {
            Stage::Unpaid => {
                to(Op::Pay, &|m| m.stage = Stage::Paid);
                to(Op::PayTwice, &|m| m.stage = Stage::Paid);
                to(Op::Cancel, &|m| m.stage = Stage::Closed { was_paid: false });
                to(Op::Expire, &|m| m.stage = Stage::Closed { was_paid: false });
            }
            Stage::Paid => {
                to(Op::Cancel, &|m| m.stage = Stage::Closed { was_paid: true });
                to(Op::Refuse, &|m| m.stage = Stage::Closed { was_paid: true });
                to(Op::Accept, &|m| m.stage = Stage::Accepted);
            }
            Stage::Accepted => to(Op::Complete, &|m| {
                m.stage = Stage::Completed;
                m.gift = Gift::Available;
            }),
            Stage::Completed => {
                if !self.refunded {
                    to(Op::ChainRefund, &|m| m.refunded = true);
                    if self.gift == Gift::Available {
                        // Claiming delivers at once (the outbox's first try).
                        to(Op::ClaimGift, &|m| m.gift = Gift::Delivered);
                    }
                }
                if !self.matured {
                    to(Op::Mature, &|m| m.matured = true);
                }
            }
            Stage::Closed { .. } => {}
        }
        out
    }

    /// Moves that must change nothing here, tried once at each state the walk reaches: those
    /// the server must refuse (or, for a second refund, answer without refunding again), and
    /// the jobs with nothing due.
    fn no_ops(&self) -> Vec<Op> {
        let mut out = match self.stage {
            Stage::Unpaid | Stage::Paid => vec![Op::ChainRefund],
            Stage::Accepted => vec![Op::Cancel, Op::ChainRefund],
            Stage::Completed if !self.refunded => vec![Op::Cancel],
            Stage::Completed if self.gift == Gift::Available => {
                vec![Op::ChainRefund, Op::ClaimGift]
            }
            Stage::Completed => vec![Op::ChainRefund],
            Stage::Closed { .. } => vec![Op::Cancel, Op::ChainRefund],
        };
        out.push(Op::Sweep);
        out
    }

    /// Whether the order stands with its money kept (paid, or completed and not refunded).
    fn kept(&self) -> bool {
        matches!(self.stage, Stage::Paid | Stage::Accepted)
            || (self.stage == Stage::Completed && !self.refunded)
    }
}

/// Every maximal path of moves from the start.
fn paths() -> Vec<Vec<(Op, Model)>> {
    let mut done = Vec::new();
    let mut stack = vec![(Model::start(), Vec::new())];
    while let Some((m, path)) = stack.pop() {
        let moves = m.moves();
        if moves.is_empty() {
            done.push(path);
            continue;
        }
        for (op, next) in moves {
            let mut p: Vec<(Op, Model)> = path.clone();
            p.push((op, next));
            stack.push((next, p));
        }
    }
    done
}

/// One path's member and order.
struct Order {
    token: String,
    user_id: i64,
    order_no: String,
    coupon: String,
    /// Points the order spends, and what it costs (fen) after coupon and points.
    points: i64,
    amount: i64,
    /// Points completing it earns at level 1 (1 a yuan).
    earns: i64,
    /// The upgrade gift's points option.
    gift_points: i64,
}

async fn setup(app: &TestApp, n: usize) -> Order {
    let phone = format!("1367700{n:04}");
    let items = json!([{"productCode": "SD001", "quantity": 30}]);
    let ReadyMember {
        token,
        user_id,
        coupon,
        mut body,
    } = app
        .ready_member(&phone, items, START_POINTS, "LEDGER_MODEL")
        .await;
    let cart = app.get_auth("/api/v1/cart", Some(&token)).await;
    let usable = cart.assert_ok()["pointsDeduction"]["usablePoints"]
        .as_i64()
        .unwrap();
    let points = usable.min(300);
    assert!(points > 0, "{}", cart.assert_ok());
    body["pointsDeductions"] = json!(points);
    let (order_no, _) = app.submit_as_the_cart_shows(&token, body).await;
    let detail = order(app, &token, &order_no).await;
    let amount = fen(&detail["orderAmount"]);
    assert!(amount >= 50_000, "the order must reach Silver: {detail}");
    let locked = CouponRepo::new(app.app_state.db.clone())
        .get(&coupon)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        locked.order_no.as_deref(),
        Some(order_no.as_str()),
        "the order uses the model's coupon"
    );
    let levels = app.app_state.loyalty.members().levels().await.unwrap();
    let silver = levels.iter().find(|l| l.level == SILVER).unwrap();
    let gift_points = silver
        .gift_options
        .iter()
        .find(|o| o.kind == "points")
        .and_then(|o| o.points)
        .unwrap();
    Order {
        token,
        user_id,
        order_no,
        coupon,
        points,
        amount,
        earns: amount / 100,
        gift_points,
    }
}

fn fen(v: &Value) -> i64 {
    (v.as_f64().unwrap() * 100.0).round() as i64
}

async fn order(app: &TestApp, token: &str, order_no: &str) -> Value {
    app.get_auth(&format!("/api/v1/orders/{order_no}"), Some(token))
        .await
        .assert_ok()
        .clone()
}

async fn upgrade_gift(app: &TestApp, user_id: i64) -> Option<(String, String)> {
    GiftRepo::new(app.app_state.db.clone())
        .for_user(user_id)
        .await
        .unwrap()
        .into_iter()
        .find(|g| g.level == SILVER)
        .map(|g| (g.gift_id, g.status))
}

/// Makes `op`; a move the model says must be refused is checked to be refused.
async fn apply(app: &TestApp, staff: &str, o: &Order, op: Op, must_refuse: bool) {
    let path = |action: &str| format!("/api/v1/orders/{}/{action}", o.order_no);
    let tablet = |action: &str| format!("/api/v1/tablet/orders/{}/{action}", o.order_no);
    match op {
        Op::Pay => {
            app.pay(&o.token, &o.order_no).await;
        }
        Op::PayTwice => {
            let first = app.attempt(&o.token, &o.order_no).await;
            let second = app
                .post(
                    "/api/v1/payments",
                    &json!({"orderNo": o.order_no, "method": "wechat_h5"}),
                    Some(&o.token),
                )
                .await
                .assert_ok()["paymentId"]
                .as_str()
                .unwrap()
                .to_string();
            assert_ne!(first, second);
            tokio::join!(
                pay_at_cashier(app, &first, "success"),
                pay_at_cashier(app, &second, "success")
            );
            until_state(app, &o.token, &o.order_no, 6).await;
        }
        Op::Cancel => {
            let answer = app.post(&path("cancel"), &json!({}), Some(&o.token)).await;
            if must_refuse {
                assert_ne!(answer.err_code(), "00", "a cancel after acceptance");
            } else {
                answer.assert_ok();
            }
        }
        Op::Expire => {
            app.attempt(&o.token, &o.order_no).await;
            app.clock.advance_ms(31 * 60_000);
            app.app_state.payments.expire_due().await.unwrap();
        }
        Op::Accept => {
            app.post(&tablet("accept"), &json!({}), Some(staff))
                .await
                .assert_ok();
        }
        Op::Refuse => {
            app.post(&tablet("refuse"), &json!({"reason": "太忙了"}), Some(staff))
                .await
                .assert_ok();
        }
        Op::Complete => {
            for from in [1, 10, 20, 30, 40] {
                app.post(&tablet("advance"), &json!({"from": from}), Some(staff))
                    .await
                    .assert_ok();
            }
        }
        Op::ClaimGift => {
            let (gift_id, _) = upgrade_gift(app, o.user_id)
                .await
                .expect("the upgrade gift");
            let gifts = app.get_auth("/api/v1/members/gifts", Some(&o.token)).await;
            let gift = gifts
                .assert_ok()
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["giftId"] == json!(gift_id))
                .cloned();
            let option = gift
                .as_ref()
                .and_then(|g| {
                    g["options"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|x| x["type"] == "points")
                })
                .map(|x| x["optionId"].clone())
                .unwrap_or(json!("L2-P"));
            let answer = app
                .post(
                    &format!("/api/v1/members/gifts/{gift_id}/claim"),
                    &json!({"optionId": option}),
                    Some(&o.token),
                )
                .await;
            if must_refuse {
                assert_ne!(answer.err_code(), "00", "claiming a revoked gift");
            } else {
                answer.assert_ok();
            }
        }
        Op::Sweep => {
            app.app_state.loyalty.sweep().await.unwrap();
            app.app_state.coupons.sweep().await.unwrap();
        }
        Op::Mature => {
            app.clock.advance_ms(3_000);
            app.app_state.loyalty.sweep().await.unwrap();
        }
        Op::ChainRefund => {
            let answer = app
                .post(
                    &format!("/api/v1/chain/orders/{}/refund", o.order_no),
                    &json!({}),
                    Some(OPS),
                )
                .await;
            // Refused unless completed; a second refund answers without refunding again.
            if !must_refuse {
                answer.assert_ok();
            }
        }
    }
}

/// What the server holds of one path, as the check compares it (and as a state's signature).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Seen {
    state: i64,
    payments: Vec<(String, i64, i64)>,
    hold: Option<String>,
    coupon: String,
    account: (i64, i64, i64, i64),
    level: Option<i64>,
    spend: i64,
    gift: Option<String>,
}

async fn seen(app: &TestApp, o: &Order) -> Seen {
    let db = app.app_state.db.clone();
    let detail = order(app, &o.token, &o.order_no).await;
    let mut payments: Vec<(String, i64, i64)> = PaymentRepo::new(db.clone())
        .for_order(&o.order_no)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.state.as_str().to_string(), p.amount.0, p.refunded.0))
        .collect();
    payments.sort();
    let points = PointsRepo::new(db.clone());
    let Account {
        available,
        pending,
        held,
        owed,
    } = points.account(o.user_id).await.unwrap();
    let member = app
        .app_state
        .loyalty
        .members()
        .member(o.user_id)
        .await
        .unwrap();
    Seen {
        state: detail["state"].as_i64().unwrap(),
        payments,
        hold: points
            .hold_of(&o.order_no)
            .await
            .unwrap()
            .map(|(_, _, status)| status),
        coupon: CouponRepo::new(db)
            .get(&o.coupon)
            .await
            .unwrap()
            .unwrap()
            .status
            .as_str()
            .to_string(),
        account: (available, pending, held, owed),
        level: member.map(|m| m.level),
        spend: app
            .app_state
            .loyalty
            .qualifying_spend(o.user_id)
            .await
            .unwrap()
            .0,
        gift: upgrade_gift(app, o.user_id).await.map(|(_, status)| status),
    }
}

/// The invariants of the three ledgers for what the model says.
async fn check(app: &TestApp, o: &Order, m: &Model, s: &Seen) -> Result<(), String> {
    // Money: paid = given back (refunded or owed) + kept; kept is the order's amount exactly
    // while it stands.
    let paid: i64 = s
        .payments
        .iter()
        .filter(|(st, _, _)| matches!(st.as_str(), "paid" | "refunding" | "refunded"))
        .map(|(_, amount, _)| amount)
        .sum();
    let kept: i64 = s
        .payments
        .iter()
        .filter(|(st, _, _)| st == PaymentState::Paid.as_str())
        .map(|(_, amount, _)| amount)
        .sum();
    let back: i64 = s
        .payments
        .iter()
        .filter(|(st, _, _)| matches!(st.as_str(), "refunding" | "refunded"))
        .map(|(_, amount, _)| amount)
        .sum();
    if paid != back + kept {
        return Err(format!("money: paid {paid} ≠ back {back} + kept {kept}"));
    }
    let want_kept = if m.kept() { o.amount } else { 0 };
    if kept != want_kept {
        return Err(format!("money: kept {kept}, want {want_kept}"));
    }
    // Points, to the point, in every column.
    let stands = m.kept() || m.stage == Stage::Unpaid;
    let completed = m.stage == Stage::Completed && !m.refunded;
    let mut available = START_POINTS - if stands { o.points } else { 0 };
    if completed && m.matured {
        available += o.earns;
    }
    if completed && m.gift == Gift::Delivered {
        available += o.gift_points;
    }
    let want = (
        available,
        if completed && !m.matured { o.earns } else { 0 },
        if m.stage == Stage::Unpaid {
            o.points
        } else {
            0
        },
        0,
    );
    if s.account != want {
        return Err(format!(
            "points (available, pending, held, owed): {:?}, want {want:?}",
            s.account
        ));
    }
    // The coupon.
    let coupon = match m.stage {
        Stage::Unpaid => "LOCKED",
        Stage::Closed { .. } => "RETURNED",
        _ if m.refunded => "RETURNED",
        _ => "USED",
    };
    if s.coupon != coupon {
        return Err(format!("coupon {}, want {coupon}", s.coupon));
    }
    // Level, spend and the upgrade gift: exactly while the completed order stands.
    let (level, spend) = if completed {
        (SILVER, o.amount)
    } else {
        (1, 0)
    };
    if s.level != Some(level) || s.spend != spend {
        return Err(format!(
            "level {:?} with spend {}, want {level} with {spend}",
            s.level, s.spend
        ));
    }
    let gift = match (m.gift, m.refunded) {
        (Gift::None, _) => None,
        (_, true) => Some("revoked"),
        (Gift::Available, false) => Some("available"),
        (Gift::Delivered, false) => Some("claimed"),
    };
    if s.gift.as_deref() != gift {
        return Err(format!("gift {:?}, want {gift:?}", s.gift));
    }
    // Reconciles: each ledger with itself, and this ended order with its ledgers.
    let report = PointsRepo::new(app.app_state.db.clone())
        .reconcile()
        .await
        .unwrap();
    if !report.mismatches.is_empty() {
        return Err(format!("points reconcile: {:?}", report.mismatches));
    }
    let lost: Vec<_> = ReversalRepo::new(app.app_state.db.clone())
        .reconcile(app.clock.now_ms())
        .await
        .unwrap()
        .lost
        .into_iter()
        .filter(|l| l.order_no == o.order_no)
        .collect();
    if !lost.is_empty() {
        return Err(format!("lost reversals: {lost:?}"));
    }
    Ok(())
}

/// The server's hooks run just after a move answers: the check is given a moment to hold.
async fn settled(app: &TestApp, o: &Order, m: &Model) -> Result<Seen, String> {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let s = seen(app, o).await;
        match check(app, o, m, &s).await {
            Ok(()) => return Ok(s),
            Err(e) if Instant::now() >= deadline => return Err(format!("{e}\n  seen: {s:?}")),
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// The figures of a walk.
#[derive(Default)]
struct Walked {
    states: BTreeSet<Seen>,
    models: HashSet<Model>,
    steps: usize,
}

async fn run_paths(
    app: &TestApp,
    paths: Vec<Vec<(Op, Model)>>,
    first: usize,
    walked: Arc<Mutex<Walked>>,
) {
    let staff = tablet_login(app, "SH001").await;
    for (i, path) in paths.into_iter().enumerate() {
        let o = setup(app, first + i).await;
        let mut m = Model::start();
        let mut done: Vec<Op> = Vec::new();
        for (op, next) in
            std::iter::once((None, m)).chain(path.into_iter().map(|(op, n)| (Some(op), n)))
        {
            if let Some(op) = op {
                done.push(op);
                apply(app, &staff, &o, op, false).await;
                m = next;
                walked.lock().unwrap().steps += 1;
            }
            let s = settled(app, &o, &m)
                .await
                .unwrap_or_else(|e| panic!("after {done:?} ({}): {e}", o.order_no));
            let first_visit = {
                let mut w = walked.lock().unwrap();
                w.states.insert(s);
                w.models.insert(m)
            };
            if first_visit {
                for no_op in m.no_ops() {
                    apply(app, &staff, &o, no_op, true).await;
                    walked.lock().unwrap().steps += 1;
                    settled(app, &o, &m).await.unwrap_or_else(|e| {
                        panic!(
                            "after {done:?} then {no_op:?}, which must change nothing ({}): {e}",
                            o.order_no
                        )
                    });
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_ending_gives_back_exactly_what_was_taken() {
    let all = paths();
    let interleavings = all.len();
    assert!(interleavings >= 15, "only {interleavings} paths");
    let started = Instant::now();
    let walked = Arc::new(Mutex::new(Walked::default()));
    let servers = 2;
    let mut shares: Vec<Vec<_>> = vec![Vec::new(); servers];
    for (i, p) in all.into_iter().enumerate() {
        shares[i % servers].push(p);
    }
    let mut tasks = tokio::task::JoinSet::new();
    for (k, share) in shares.into_iter().enumerate() {
        let walked = walked.clone();
        tasks.spawn(async move {
            let app = spawn_app().await;
            run_paths(&app, share, k * 1_000, walked).await;
        });
    }
    while let Some(done) = tasks.join_next().await {
        done.unwrap();
    }
    let w = walked.lock().unwrap();
    println!(
        "ledger model ({}): {interleavings} interleavings, {} model states, {} distinct \
         observations, {} steps, {:.1}s",
        crate::helpers::backend(),
        w.models.len(),
        w.states.len(),
        w.steps,
        started.elapsed().as_secs_f64()
    );
    let reachable: HashSet<Model> = std::iter::once(Model::start())
        .chain(paths().into_iter().flatten().map(|(_, m)| m))
        .collect();
    assert_eq!(w.models, reachable, "every model state reached");
}
