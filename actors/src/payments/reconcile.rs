//! Reconciliation (issue 20 point 5): the provider's statement of a day (like Alipay's bill
//! download) against our payments. [`compare`] is the pure rule, over the statement lines and
//! our rows; [`run`] fetches both, repairs what can be repaired and records the report.
//!
//! - A payment paid at the provider that we hold as created, pending, closed or failed is a
//!   missed notify: it is settled through [`PaymentService::settle_paid`] (which refunds it
//!   when the order can no longer take it). Running again finds it paid: nothing twice.
//! - Everything else is reported, never guessed at: an amount or a trade number that differs,
//!   a payment id we do not know, a refund at the provider beyond what we recorded, and a
//!   payment we hold as paid that the provider's statement does not list.
//!
//! The day is a China calendar day (UTC+8). The statement is read from the day's start to its
//! end plus [`LATE_PAY_MS`], so that a payment created late in the day and paid after midnight
//! is still found for the "paid here, missing there" check; only the day's own lines are
//! otherwise compared (the next day's run sees the rest).

pub mod runs;

use super::{PayFailure, PaymentService, Settled, PAYMENT_LIFETIME_MS};
use crate::clock::Clock;
use crate::db::Db;
use crate::domain::money::Fen;
use crate::domain::payments::state::PaymentState;
use crate::providers::payment::{StatementKind, StatementLine};
use chrono::{NaiveDate, NaiveTime, TimeZone};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};

/// How long after its creation a payment may be paid at the provider (the attempt's lifetime,
/// and a margin for the provider's clock).
pub const LATE_PAY_MS: i64 = PAYMENT_LIFETIME_MS + 5 * 60_000;

/// What we hold of a payment, as the comparison needs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OurPayment {
    pub payment_id: String,
    pub order_no: String,
    pub amount: Fen,
    pub state: PaymentState,
    pub refunded: Fen,
    pub trade_no: Option<String>,
    pub created_at: i64,
}

/// Whether we hold the payment as having taken money: every state but the unpaid ones, so a
/// refund owed is not mistaken for a missed notify. A state added later must say which it is.
pub fn counts_as_paid(state: PaymentState) -> bool {
    match state {
        PaymentState::Created
        | PaymentState::Pending
        | PaymentState::Closed
        | PaymentState::Failed => false,
        PaymentState::Paid | PaymentState::Refunding | PaymentState::Refunded => true,
    }
}

/// One thing the comparison found that is not a match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Finding {
    /// Paid at the provider, unpaid here: repairable.
    #[serde(rename_all = "camelCase")]
    MissedNotify {
        payment_id: String,
        order_no: String,
        trade_no: String,
        amount: Fen,
        our_state: PaymentState,
    },
    #[serde(rename_all = "camelCase")]
    AmountMismatch {
        payment_id: String,
        ours: Fen,
        provider: Fen,
    },
    #[serde(rename_all = "camelCase")]
    TradeNoMismatch {
        payment_id: String,
        ours: String,
        provider: String,
    },
    /// A statement line for a payment id we have no row of.
    #[serde(rename_all = "camelCase")]
    UnknownPayment {
        payment_id: String,
        line: StatementKind,
        trade_no: String,
        amount: Fen,
    },
    /// The provider refunded more of a payment than we recorded.
    #[serde(rename_all = "camelCase")]
    UnknownRefund {
        payment_id: String,
        provider_refunds: Fen,
        our_refunded: Fen,
        refund_ids: Vec<String>,
    },
    /// We hold it as paid; the provider's statement has no such payment.
    #[serde(rename_all = "camelCase")]
    MissingFromStatement {
        payment_id: String,
        order_no: String,
        amount: Fen,
        our_state: PaymentState,
    },
}

impl Finding {
    pub fn payment_id(&self) -> &str {
        match self {
            Finding::MissedNotify { payment_id, .. }
            | Finding::AmountMismatch { payment_id, .. }
            | Finding::TradeNoMismatch { payment_id, .. }
            | Finding::UnknownPayment { payment_id, .. }
            | Finding::UnknownRefund { payment_id, .. }
            | Finding::MissingFromStatement { payment_id, .. } => payment_id,
        }
    }

    /// One line for people.
    pub fn describe(&self) -> String {
        match self {
            Finding::MissedNotify {
                amount, our_state, ..
            } => format!("missed notify: paid ¥{amount} at the provider, {our_state} here"),
            Finding::AmountMismatch { ours, provider, .. } => {
                format!("amount differs: ¥{ours} here, ¥{provider} at the provider")
            }
            Finding::TradeNoMismatch { ours, provider, .. } => {
                format!("trade number differs: {ours} here, {provider} at the provider")
            }
            Finding::UnknownPayment {
                line,
                trade_no,
                amount,
                ..
            } => {
                let what = match line {
                    StatementKind::Payment => "payment",
                    StatementKind::Refund => "refund",
                };
                format!("unknown payment id: a {what} of ¥{amount} at the provider (trade {trade_no}), no row here")
            }
            Finding::UnknownRefund {
                provider_refunds,
                our_refunded,
                refund_ids,
                ..
            } => format!(
                "refund we have no record of: ¥{provider_refunds} refunded at the provider ({}), ¥{our_refunded} here",
                refund_ids.join(", ")
            ),
            Finding::MissingFromStatement {
                amount, our_state, ..
            } => format!("missing from the statement: ¥{amount}, {our_state} here"),
        }
    }
}

/// What [`compare`] found: how many statement lines matched, and the rest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    pub matched: usize,
    pub findings: Vec<Finding>,
}

/// Compares the statement (read over `[from, to + LATE_PAY_MS)`) with our rows (those created
/// in `[from, to)` and those the day's lines name). Pure: the same inputs, the same findings,
/// in a stable order.
pub fn compare(from: i64, to: i64, lines: &[StatementLine], ours: &[OurPayment]) -> Comparison {
    let ours_by_id: HashMap<&str, &OurPayment> =
        ours.iter().map(|p| (p.payment_id.as_str(), p)).collect();
    let in_day = |at: i64| from <= at && at < to;
    let mut out = Comparison::default();

    let mut paid_at_provider: HashSet<&str> = HashSet::new();
    for line in lines.iter().filter(|l| l.kind == StatementKind::Payment) {
        paid_at_provider.insert(line.payment_id.as_str());
        if !in_day(line.at) {
            continue;
        }
        let Some(our) = ours_by_id.get(line.payment_id.as_str()) else {
            out.findings.push(Finding::UnknownPayment {
                payment_id: line.payment_id.clone(),
                line: StatementKind::Payment,
                trade_no: line.trade_no.clone(),
                amount: line.amount,
            });
            continue;
        };
        if our.amount != line.amount {
            out.findings.push(Finding::AmountMismatch {
                payment_id: line.payment_id.clone(),
                ours: our.amount,
                provider: line.amount,
            });
        } else if !counts_as_paid(our.state) {
            out.findings.push(Finding::MissedNotify {
                payment_id: line.payment_id.clone(),
                order_no: our.order_no.clone(),
                trade_no: line.trade_no.clone(),
                amount: line.amount,
                our_state: our.state,
            });
        } else if let Some(ours) = our.trade_no.as_ref().filter(|t| **t != line.trade_no) {
            out.findings.push(Finding::TradeNoMismatch {
                payment_id: line.payment_id.clone(),
                ours: ours.clone(),
                provider: line.trade_no.clone(),
            });
        } else {
            out.matched += 1;
        }
    }

    // Refunds, per payment: the day's refunds at the provider must be covered by what we
    // recorded as refunded.
    let mut refunds: BTreeMap<&str, Vec<&StatementLine>> = BTreeMap::new();
    for line in lines
        .iter()
        .filter(|l| l.kind == StatementKind::Refund && in_day(l.at))
    {
        refunds
            .entry(line.payment_id.as_str())
            .or_default()
            .push(line);
    }
    for (payment_id, day_refunds) in refunds {
        let total: Fen = day_refunds.iter().map(|l| l.amount).sum();
        match ours_by_id.get(payment_id) {
            None => out
                .findings
                .extend(day_refunds.iter().map(|l| Finding::UnknownPayment {
                    payment_id: l.payment_id.clone(),
                    line: StatementKind::Refund,
                    trade_no: l.trade_no.clone(),
                    amount: l.amount,
                })),
            Some(our) if total > our.refunded => out.findings.push(Finding::UnknownRefund {
                payment_id: payment_id.to_owned(),
                provider_refunds: total,
                our_refunded: our.refunded,
                refund_ids: day_refunds
                    .iter()
                    .filter_map(|l| l.refund_id.clone())
                    .collect(),
            }),
            Some(_) => out.matched += day_refunds.len(),
        }
    }

    let mut ours_sorted: Vec<&OurPayment> = ours
        .iter()
        .filter(|p| in_day(p.created_at) && counts_as_paid(p.state))
        .collect();
    ours_sorted.sort_by(|a, b| (a.created_at, &a.payment_id).cmp(&(b.created_at, &b.payment_id)));
    for our in ours_sorted {
        if !paid_at_provider.contains(our.payment_id.as_str()) {
            out.findings.push(Finding::MissingFromStatement {
                payment_id: our.payment_id.clone(),
                order_no: our.order_no.clone(),
                amount: our.amount,
                our_state: our.state,
            });
        }
    }
    out
}

/// What became of a finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    Repaired,
    /// Left for a person, with why (for a repair that failed, the error).
    Unresolved {
        note: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportLine {
    pub finding: Finding,
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// A run's report, as stored in `reconcile_runs` and printed by `pizza-order reconcile`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The China calendar day, YYYY-MM-DD.
    pub day: String,
    pub from: i64,
    pub to: i64,
    pub statement_lines: usize,
    pub matched: usize,
    pub lines: Vec<ReportLine>,
}

impl Report {
    pub fn repaired(&self) -> usize {
        self.lines
            .iter()
            .filter(|l| l.outcome == Outcome::Repaired)
            .count()
    }

    pub fn unresolved(&self) -> usize {
        self.lines.len() - self.repaired()
    }

    /// The summary for people: the counts, then one line per repair and per open finding.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "reconcile {} (China time): {} statement lines; matched {}, repaired {}, unresolved {}\n",
            self.day,
            self.statement_lines,
            self.matched,
            self.repaired(),
            self.unresolved()
        );
        for line in &self.lines {
            let (label, note) = match &line.outcome {
                Outcome::Repaired => ("repaired  ", String::new()),
                Outcome::Unresolved { note } if note.is_empty() => ("unresolved", String::new()),
                Outcome::Unresolved { note } => ("unresolved", format!(" ({note})")),
            };
            out.push_str(&format!(
                "  {label} {}  {}{note}\n",
                line.finding.payment_id(),
                line.finding.describe()
            ));
        }
        out
    }
}

/// The day's bounds, epoch ms: China midnight to China midnight.
pub fn day_window(day: NaiveDate) -> (i64, i64) {
    let china = crate::domain::stores::hours::china_offset();
    let start = |d: NaiveDate| {
        china
            .from_local_datetime(&d.and_time(NaiveTime::MIN))
            .single()
            .map_or(0, |t| t.timestamp_millis())
    };
    let next = day.succ_opt().unwrap_or(day);
    (start(day), start(next))
}

/// The China calendar day before the one `now_ms` falls on (the default day to reconcile).
pub fn yesterday(now_ms: i64) -> NaiveDate {
    let today = crate::domain::stores::hours::china_time(now_ms).date_naive();
    today.pred_opt().unwrap_or(today)
}

/// Applies the repairs of a comparison: every missed notify is settled through the payment
/// service; the rest is reported as it is. Answers the report's lines, and how many missed
/// notifies were found settled meanwhile (a notify or a query came first): those now match.
pub async fn apply(service: &PaymentService, comparison: &Comparison) -> (Vec<ReportLine>, usize) {
    let mut out = Vec::with_capacity(comparison.findings.len());
    let mut meanwhile = 0;
    for finding in &comparison.findings {
        let outcome = match finding {
            Finding::MissedNotify {
                payment_id,
                trade_no,
                amount,
                ..
            } => match service.settle_paid(payment_id, trade_no, *amount).await {
                Ok(Settled::Applied) => {
                    tracing::warn!(
                        payment_id,
                        "reconcile: settled a payment whose notify we missed"
                    );
                    Outcome::Repaired
                }
                Ok(Settled::AlreadyApplied) => {
                    meanwhile += 1;
                    continue;
                }
                Err(e) => Outcome::Unresolved {
                    note: format!("repair failed: {e}"),
                },
            },
            _ => Outcome::Unresolved {
                note: String::new(),
            },
        };
        out.push(ReportLine {
            finding: finding.clone(),
            outcome,
        });
    }
    (out, meanwhile)
}

/// Reconciles `day`: the provider's statement, our rows, the comparison, the repairs, and the
/// report recorded in `reconcile_runs` (`started_by`: "cli" or "job").
pub async fn run(
    service: &PaymentService,
    db: &Db,
    clock: &Clock,
    day: NaiveDate,
    started_by: &str,
) -> Result<Report, PayFailure> {
    let started_at = clock.now_ms();
    let (from, to) = day_window(day);
    let lines = service.provider().statement(from, to + LATE_PAY_MS).await?;
    let named: Vec<String> = lines
        .iter()
        .filter(|l| from <= l.at && l.at < to)
        .map(|l| l.payment_id.clone())
        .collect();
    let ours = runs::our_payments(db, service, from, to, &named).await?;
    let comparison = compare(from, to, &lines, &ours);
    let (report_lines, meanwhile) = apply(service, &comparison).await;
    let report = Report {
        day: day.format("%Y-%m-%d").to_string(),
        from,
        to,
        statement_lines: lines.iter().filter(|l| from <= l.at && l.at < to).count(),
        matched: comparison.matched + meanwhile,
        lines: report_lines,
    };
    runs::RunRepo::new(db.clone())
        .record(&report, started_by, started_at, clock.now_ms())
        .await?;
    Ok(report)
}

#[cfg(test)]
mod tests;
