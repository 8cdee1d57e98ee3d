//! The sandbox's notify sender. A settled trade's signed notify is POSTed on the schedule until
//! the answer is exactly [`super::ACK`] with a 2xx status, like Alipay. The schedule's position
//! lives in the ledger: each attempt is claimed there (a compare-and-set on the attempts made)
//! before it is sent, so among nodes sharing the database one sends each attempt, and a node
//! that starts resumes every notify still being sent at its next scheduled time.

use super::ledger::{Ledger, NotifyState};
use super::ACK;
use actors::clock::Clock;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Answers kept in the ledger are cut to this many characters.
const ANSWER_CHARS: usize = 200;
/// A notify whose next attempt is this late is taken over by another node: the one sending it
/// has stopped.
pub const TAKE_OVER_AFTER_MS: i64 = 60_000;
/// How often a node looks for such notifies.
pub const SWEEP_EVERY: Duration = Duration::from_secs(30);

/// A notify's first attempt as its settlement wrote it to the ledger.
pub struct FirstAttempt {
    pub notify_url: String,
    pub body: String,
    /// When it is due (epoch ms).
    pub at: i64,
}

#[derive(Clone)]
pub struct Sender {
    pub(super) ledger: Ledger,
    pub(super) http: reqwest::Client,
    pub(super) delays: Arc<[Duration]>,
    pub(super) timeout: Duration,
    pub(super) clock: Clock,
    /// The notifies this process is sending, so it never runs two senders for one.
    pub(super) running: Arc<Mutex<HashSet<String>>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Sender {
    /// Sends the notify of `payment_id` in the background (on the current Tokio runtime),
    /// unless this process is sending it already.
    pub fn spawn(&self, payment_id: &str) {
        self.spawn_from(payment_id, None);
    }

    /// [`spawn`](Self::spawn) for a notify just settled: its first attempt is sent from what
    /// the settlement wrote (`first`) rather than read back from the ledger.
    pub fn spawn_from(&self, payment_id: &str, first: Option<FirstAttempt>) {
        if !lock(&self.running).insert(payment_id.to_owned()) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            lock(&self.running).remove(payment_id);
            tracing::error!(
                payment_id,
                "no runtime: the sandbox notify is left for a node that resumes it"
            );
            return;
        };
        let sender = self.clone();
        let id = payment_id.to_owned();
        runtime.spawn(async move {
            if let Err(e) = sender.run(&id, first).await {
                // Left as it is in the ledger: the sweep or the next start resumes it.
                tracing::warn!(payment_id = %id, error = %e, "sandbox notify interrupted");
            }
            lock(&sender.running).remove(&id);
        });
    }

    /// Resumes the notifies still being sent whose next attempt was due before `before`.
    pub async fn resume_due_before(&self, before: i64) -> Result<usize, actors::db::DbError> {
        let due = self.ledger.sending_due_before(before).await?;
        for id in &due {
            self.spawn(id);
        }
        Ok(due.len())
    }

    /// Resumes every notify on start, then takes over, now and then, those whose sender has
    /// stopped (another node that went away). Runs as long as the task lives.
    pub async fn resume_and_sweep(self) {
        match self.resume_due_before(i64::MAX).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(notifies = n, "sandbox notifies resumed"),
            Err(e) => tracing::warn!(error = %e, "sandbox notifies not resumed"),
        }
        let mut ticks =
            tokio::time::interval_at(tokio::time::Instant::now() + SWEEP_EVERY, SWEEP_EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let before = self.clock.now_ms() - TAKE_OVER_AFTER_MS;
            match self.resume_due_before(before).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(notifies = n, "late sandbox notifies taken over"),
                Err(e) => tracing::warn!(error = %e, "sandbox notify sweep failed"),
            }
        }
    }

    async fn run(
        &self,
        payment_id: &str,
        first: Option<FirstAttempt>,
    ) -> Result<(), actors::db::DbError> {
        let total = u32::try_from(self.delays.len()).unwrap_or(u32::MAX);
        let mut first = first;
        loop {
            // What the ledger says is to send now; the claim below is what makes it ours, so
            // a settlement's own account of it is as good as a read.
            let (notify_url, body, done, next_at) = match first.take() {
                Some(f) => (f.notify_url, f.body, 0, Some(f.at)),
                None => {
                    let Some(trade) = self.ledger.get(payment_id).await? else {
                        return Ok(());
                    };
                    if trade.notify_state != Some(NotifyState::Sending) {
                        return Ok(());
                    }
                    let Some(body) = trade.notify_body.clone() else {
                        return Ok(());
                    };
                    (
                        trade.notify_url,
                        body,
                        trade.notify_attempts,
                        trade.notify_next_at,
                    )
                }
            };
            if done >= total {
                // Every attempt was claimed and the last answer never recorded.
                return self.ledger.give_up(payment_id, done).await;
            }
            let wait = next_at.map_or(0, |at| at - self.clock.now_ms()).max(0);
            tokio::time::sleep(Duration::from_millis(u64::try_from(wait).unwrap_or(0))).await;
            let now = self.clock.now_ms();
            // When the attempt after this one is due; after the last, when its answer is.
            let next_at = now
                + self
                    .delays
                    .get(usize::try_from(done + 1).unwrap_or(usize::MAX))
                    .map_or(ms(self.timeout) + 5_000, |d| ms(*d));
            if !self.ledger.claim_attempt(payment_id, done, next_at).await? {
                // Another node sends it (or it was answered meanwhile).
                return Ok(());
            }
            let attempt = done + 1;
            // Claimed here, so counted once across nodes; every attempt after the first is a retry.
            metrics::counter!("payment_notify_retries_total").increment(u64::from(attempt > 1));
            let (acked, answer) = self.post(&notify_url, body).await;
            let last = attempt == total;
            let outcome = if acked {
                Some(NotifyState::Delivered)
            } else if last {
                Some(NotifyState::GaveUp)
            } else {
                None
            };
            self.ledger
                .record_answer(payment_id, attempt, &answer, outcome)
                .await?;
            let url = &notify_url;
            if acked {
                tracing::info!(payment_id, attempt, "sandbox notify acknowledged");
                return Ok(());
            }
            tracing::warn!(payment_id, attempt, of = total, %url, answer, "sandbox notify not acknowledged");
            if last {
                tracing::error!(payment_id, attempts = total, %url, "sandbox notify given up");
                return Ok(());
            }
        }
    }

    async fn post(&self, url: &str, body: String) -> (bool, String) {
        let sent = self
            .http
            .post(url)
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded; charset=utf-8",
            )
            .body(body)
            .send()
            .await;
        match sent {
            Ok(response) => {
                let status = response.status();
                match response.text().await {
                    Ok(text) => (
                        status.is_success() && text == ACK,
                        format!("{} {}", status.as_u16(), cut(&text)),
                    ),
                    Err(e) => (false, format!("{} unreadable body: {e}", status.as_u16())),
                }
            }
            Err(e) => (false, format!("not sent: {e}")),
        }
    }
}

fn cut(text: &str) -> String {
    text.chars().take(ANSWER_CHARS).collect()
}

#[cfg(test)]
#[path = "delivery_tests.rs"]
mod tests;
