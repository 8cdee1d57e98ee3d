//! Reconciliation with the payment provider (`actors::payments::reconcile`): the daily job, and
//! the run `pizza-order reconcile` makes.

use crate::state::AppState;
use actors::payments::reconcile::{self, runs::RunRepo, Report};
use chrono::{NaiveDate, Timelike};
use std::time::Duration;

/// The job reconciles the day before once this hour (China time) has come: providers publish a
/// day's statement in the small hours (Alipay's bill is ready from about 09:00, WeChat Pay's
/// from 10:00; the sandbox's at once).
pub const AFTER_HOUR: u32 = 2;
/// How often the job looks at the clock. The first look is one period after start, so a
/// short-lived process (a test, a crash loop) does not reconcile on every start.
pub const CHECK_EVERY: Duration = Duration::from_secs(5 * 60);

/// The day the job should reconcile at `now_ms`, if its hour has come: yesterday, China time.
pub fn due_day(now_ms: i64) -> Option<NaiveDate> {
    let china = actors::domain::stores::hours::china_time(now_ms);
    (china.hour() >= AFTER_HOUR).then(|| reconcile::yesterday(now_ms))
}

/// Once a day after 02:00 China time, the day before is reconciled, by one node: the day is
/// claimed in `reconcile_days` first, so two nodes or a restart never run it twice.
pub async fn daily(state: AppState) {
    let mut ticks =
        tokio::time::interval_at(tokio::time::Instant::now() + CHECK_EVERY, CHECK_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if let Err(e) = daily_once(&state).await {
            // The claim stays unfinished: it is taken over after an hour and run again.
            tracing::warn!(error = %e, "daily reconciliation failed");
        }
    }
}

/// One look at the clock: runs the due day if this node claims it. Answers the report of a run.
pub async fn daily_once(state: &AppState) -> anyhow::Result<Option<Report>> {
    let now = state.clock.now_ms();
    let Some(day) = due_day(now) else {
        return Ok(None);
    };
    let key = day.format("%Y-%m-%d").to_string();
    let runs = RunRepo::new(state.db.clone());
    if !runs.claim_day(&key, now).await? {
        return Ok(None);
    }
    let report = run(state, day, "job").await?;
    runs.finish_day(&key, state.clock.now_ms()).await?;
    Ok(Some(report))
}

/// Reconciles `day` and logs the outcome (a warning when something is left for a person).
pub async fn run(state: &AppState, day: NaiveDate, started_by: &str) -> anyhow::Result<Report> {
    let report = reconcile::run(&state.payments, &state.db, &state.clock, day, started_by).await?;
    if report.unresolved() > 0 {
        tracing::warn!(
            day = %report.day,
            matched = report.matched,
            repaired = report.repaired(),
            unresolved = report.unresolved(),
            "reconciliation found differences it cannot repair:\n{}",
            report.summary()
        );
    } else {
        tracing::info!(
            day = %report.day,
            matched = report.matched,
            repaired = report.repaired(),
            "reconciliation done"
        );
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_job_waits_for_two_oclock_china_time() {
        // 2026-11-25 00:00 China time.
        let midnight: i64 = 1_795_536_000_000;
        let day = NaiveDate::from_ymd_opt(2026, 11, 24);
        for (minutes, want) in [
            (0, None),
            (60, None),
            (119, None),
            (120, day),
            (600, day),
            (23 * 60 + 59, day),
        ] {
            assert_eq!(due_day(midnight + minutes * 60_000), want, "{minutes} min");
        }
    }
}
