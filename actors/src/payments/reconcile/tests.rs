#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

/// 2026-11-24 00:00 China time.
const FROM: i64 = 1_795_449_600_000;
const TO: i64 = FROM + 86_400_000;
const NOON: i64 = FROM + 12 * 3_600_000;

fn ours(id: &str, amount: i64, state: PaymentState, refunded: i64, created_at: i64) -> OurPayment {
    OurPayment {
        payment_id: id.into(),
        order_no: format!("O-{id}"),
        amount: Fen(amount),
        state,
        refunded: Fen(refunded),
        trade_no: Some(format!("T-{id}")),
        created_at,
    }
}

fn paid(id: &str, amount: i64, at: i64) -> StatementLine {
    StatementLine {
        kind: StatementKind::Payment,
        payment_id: id.into(),
        trade_no: format!("T-{id}"),
        refund_id: None,
        amount: Fen(amount),
        at,
    }
}

fn refund(id: &str, refund_id: &str, amount: i64, at: i64) -> StatementLine {
    StatementLine {
        kind: StatementKind::Refund,
        payment_id: id.into(),
        trade_no: format!("T-{id}"),
        refund_id: Some(refund_id.into()),
        amount: Fen(amount),
        at,
    }
}

fn missed(id: &str, amount: i64, state: PaymentState) -> Finding {
    Finding::MissedNotify {
        payment_id: id.into(),
        order_no: format!("O-{id}"),
        trade_no: format!("T-{id}"),
        amount: Fen(amount),
        our_state: state,
    }
}

fn missing(id: &str, amount: i64, state: PaymentState) -> Finding {
    Finding::MissingFromStatement {
        payment_id: id.into(),
        order_no: format!("O-{id}"),
        amount: Fen(amount),
        our_state: state,
    }
}

#[test]
fn the_day_window_is_a_china_calendar_day() {
    let day = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
    assert_eq!(day_window(day), (FROM, TO));
    assert_eq!(yesterday(TO + 2 * 3_600_000), day, "02:00 on the 25th");
    assert_eq!(
        yesterday(TO - 1),
        NaiveDate::from_ymd_opt(2026, 11, 23).unwrap()
    );
    // 23:59 UTC on the 24th is already the 25th in China.
    assert_eq!(yesterday(TO + 8 * 3_600_000 - 60_000), day);
}

#[test]
fn the_comparison_table() {
    let early = FROM - 10 * 60_000; // created the day before, paid just after midnight
    let late = TO - 5 * 60_000; // created at 23:55, paid after midnight
    type Case = (
        &'static str,
        Vec<StatementLine>,
        Vec<OurPayment>,
        usize,
        Vec<Finding>,
    );
    let cases: Vec<Case> = vec![
        ("nothing on either side", vec![], vec![], 0, vec![]),
        (
            "a paid payment on both sides",
            vec![paid("a", 8990, NOON)],
            vec![ours("a", 8990, PaymentState::Paid, 0, NOON - 60_000)],
            1,
            vec![],
        ),
        (
            "a pending payment, paid at the provider: a missed notify",
            vec![paid("a", 8990, NOON)],
            vec![ours("a", 8990, PaymentState::Pending, 0, NOON - 60_000)],
            0,
            vec![missed("a", 8990, PaymentState::Pending)],
        ),
        (
            "closed, failed or created here, paid there: each a missed notify",
            vec![
                paid("a", 100, NOON),
                paid("b", 200, NOON),
                paid("c", 300, NOON),
            ],
            vec![
                ours("a", 100, PaymentState::Closed, 0, NOON),
                ours("b", 200, PaymentState::Failed, 0, NOON),
                ours("c", 300, PaymentState::Created, 0, NOON),
            ],
            0,
            vec![
                missed("a", 100, PaymentState::Closed),
                missed("b", 200, PaymentState::Failed),
                missed("c", 300, PaymentState::Created),
            ],
        ),
        (
            "the amount differs: reported, never repaired",
            vec![paid("a", 100, NOON)],
            vec![ours("a", 8990, PaymentState::Pending, 0, NOON)],
            0,
            vec![Finding::AmountMismatch {
                payment_id: "a".into(),
                ours: Fen(8990),
                provider: Fen(100),
            }],
        ),
        (
            "the trade number differs",
            vec![StatementLine {
                trade_no: "T-other".into(),
                ..paid("a", 100, NOON)
            }],
            vec![ours("a", 100, PaymentState::Paid, 0, NOON)],
            0,
            vec![Finding::TradeNoMismatch {
                payment_id: "a".into(),
                ours: "T-a".into(),
                provider: "T-other".into(),
            }],
        ),
        (
            "a payment id we do not know",
            vec![paid("x", 100, NOON)],
            vec![],
            0,
            vec![Finding::UnknownPayment {
                payment_id: "x".into(),
                line: StatementKind::Payment,
                trade_no: "T-x".into(),
                amount: Fen(100),
            }],
        ),
        (
            "paid here, not in the statement",
            vec![],
            vec![ours("a", 100, PaymentState::Paid, 0, NOON)],
            0,
            vec![missing("a", 100, PaymentState::Paid)],
        ),
        (
            "refunded here with its refund there: two matches",
            vec![paid("a", 100, NOON), refund("a", "a-refund", 100, NOON + 1)],
            vec![ours("a", 100, PaymentState::Refunded, 100, NOON)],
            2,
            vec![],
        ),
        (
            "a refund there we have no record of",
            vec![paid("a", 100, NOON), refund("a", "r9", 40, NOON + 1)],
            vec![ours("a", 100, PaymentState::Paid, 0, NOON)],
            1,
            vec![Finding::UnknownRefund {
                payment_id: "a".into(),
                provider_refunds: Fen(40),
                our_refunded: Fen(0),
                refund_ids: vec!["r9".into()],
            }],
        ),
        (
            "refunds there beyond what we recorded",
            vec![
                paid("a", 100, NOON),
                refund("a", "r1", 40, NOON + 1),
                refund("a", "r2", 60, NOON + 2),
            ],
            vec![ours("a", 100, PaymentState::Refunded, 40, NOON)],
            1,
            vec![Finding::UnknownRefund {
                payment_id: "a".into(),
                provider_refunds: Fen(100),
                our_refunded: Fen(40),
                refund_ids: vec!["r1".into(), "r2".into()],
            }],
        ),
        (
            "a refund of a payment we do not know",
            vec![refund("x", "r1", 40, NOON)],
            vec![],
            0,
            vec![Finding::UnknownPayment {
                payment_id: "x".into(),
                line: StatementKind::Refund,
                trade_no: "T-x".into(),
                amount: Fen(40),
            }],
        ),
        (
            "created the day before, paid today: compared today",
            vec![paid("a", 100, FROM + 60_000)],
            vec![ours("a", 100, PaymentState::Pending, 0, early)],
            0,
            vec![missed("a", 100, PaymentState::Pending)],
        ),
        (
            "created late today, paid after midnight: not missing, compared tomorrow",
            vec![paid("a", 100, TO + 60_000)],
            vec![ours("a", 100, PaymentState::Paid, 0, late)],
            0,
            vec![],
        ),
        (
            "lines outside the day are not compared",
            vec![paid("a", 100, FROM - 1), paid("b", 100, TO)],
            vec![],
            0,
            vec![],
        ),
        (
            "unpaid here and not at the provider: nothing to say",
            vec![],
            vec![
                ours("a", 100, PaymentState::Closed, 0, NOON),
                ours("b", 100, PaymentState::Pending, 0, NOON),
            ],
            0,
            vec![],
        ),
        (
            "a refund owed holds money: not a missed notify",
            vec![paid("a", 100, NOON)],
            vec![ours("a", 100, PaymentState::Refunding, 0, NOON)],
            1,
            vec![],
        ),
        (
            "a paid row without a trade number yet matches",
            vec![paid("a", 100, NOON)],
            vec![OurPayment {
                trade_no: None,
                ..ours("a", 100, PaymentState::Paid, 0, NOON)
            }],
            1,
            vec![],
        ),
    ];
    for (name, lines, rows, matched, findings) in cases {
        let got = compare(FROM, TO, &lines, &rows);
        assert_eq!(got.matched, matched, "{name}: matched");
        assert_eq!(got.findings, findings, "{name}");
    }
}

/// Every statement line of the day is either matched or named by a finding, whatever the mix.
#[test]
fn every_line_of_the_day_is_accounted_for() {
    let states = [
        PaymentState::Created,
        PaymentState::Pending,
        PaymentState::Paid,
        PaymentState::Failed,
        PaymentState::Closed,
        PaymentState::Refunded,
    ];
    let mut checked = 0;
    for (i, state) in states.iter().enumerate() {
        for amount_differs in [false, true] {
            for at_provider in [false, true] {
                for known in [false, true] {
                    let id = format!("p{i}");
                    let lines = if at_provider {
                        vec![paid(&id, if amount_differs { 1 } else { 100 }, NOON)]
                    } else {
                        vec![]
                    };
                    let rows = if known {
                        vec![ours(&id, 100, *state, 0, NOON)]
                    } else {
                        vec![]
                    };
                    let got = compare(FROM, TO, &lines, &rows);
                    let named = got.findings.iter().filter(|f| f.payment_id() == id).count();
                    assert_eq!(
                        got.matched + named,
                        usize::from(at_provider)
                            + usize::from(!at_provider && known && counts_as_paid(*state)),
                        "{state} differs={amount_differs} provider={at_provider} known={known}: {got:?}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 48);
}

#[test]
fn the_summary_reads_well() {
    let report = Report {
        day: "2026-11-24".into(),
        from: FROM,
        to: TO,
        statement_lines: 3,
        matched: 1,
        lines: vec![
            ReportLine {
                finding: missed("a", 8990, PaymentState::Pending),
                outcome: Outcome::Repaired,
            },
            ReportLine {
                finding: Finding::AmountMismatch {
                    payment_id: "b".into(),
                    ours: Fen(8990),
                    provider: Fen(100),
                },
                outcome: Outcome::Unresolved {
                    note: String::new(),
                },
            },
        ],
    };
    assert_eq!((report.repaired(), report.unresolved()), (1, 1));
    let text = report.summary();
    assert!(
        text.starts_with("reconcile 2026-11-24 (China time): 3 statement lines; matched 1, repaired 1, unresolved 1\n"),
        "{text}"
    );
    assert!(
        text.contains("repaired   a  missed notify: paid ¥89.90 at the provider, pending here"),
        "{text}"
    );
    assert!(
        text.contains("unresolved b  amount differs: ¥89.90 here, ¥1.00 at the provider"),
        "{text}"
    );
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["lines"][0]["finding"]["kind"], "missed_notify");
    assert_eq!(json["lines"][0]["outcome"], "repaired");
    let back: Report = serde_json::from_value(json).unwrap();
    assert_eq!(back, report);
}
