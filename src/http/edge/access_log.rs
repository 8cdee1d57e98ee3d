//! Which requests get an access line. Every error (status 400 and up) and every slow request
//! is written; of the rest, `[log] access_sample` of them. The choice counts requests rather
//! than drawing lots, so the share written is exact and the same run logs the same lines.

use crate::config::LogSettings;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

pub struct AccessLog {
    sample: f64,
    slow: Duration,
    /// Successful, fast requests seen so far.
    seen: AtomicU64,
}

impl AccessLog {
    pub fn new(settings: &LogSettings) -> AccessLog {
        AccessLog::with(settings.access_sample, settings.slow_request_ms)
    }

    /// A share outside 0..=1 is brought inside it; one that is not a number logs everything.
    pub fn with(sample: f64, slow_request_ms: u64) -> AccessLog {
        AccessLog {
            sample: if sample.is_nan() {
                1.0
            } else {
                sample.clamp(0.0, 1.0)
            },
            slow: Duration::from_millis(slow_request_ms),
            seen: AtomicU64::new(0),
        }
    }

    /// Whether this request's line is written.
    pub fn should_log(&self, status: u16, elapsed: Duration) -> bool {
        if status >= 400 || elapsed >= self.slow {
            return true;
        }
        if self.sample >= 1.0 {
            return true;
        }
        picks(self.seen.fetch_add(1, Ordering::Relaxed), self.sample)
    }
}

/// Whether the `n`th (from 0) sampled request is written: of the first `n`, exactly
/// floor(n × sample) are.
pub fn picks(n: u64, sample: f64) -> bool {
    let at = |k: u64| (k as f64 * sample).floor();
    at(n + 1) > at(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAST: Duration = Duration::from_millis(3);

    #[test]
    fn errors_and_slow_requests_are_always_written() {
        let none = AccessLog::with(0.0, 500);
        let cases = [
            (200, FAST, false),
            (304, FAST, false),
            (400, FAST, true),
            (404, FAST, true),
            (500, FAST, true),
            (200, Duration::from_millis(499), false),
            (200, Duration::from_millis(500), true),
            (200, Duration::from_secs(3), true),
        ];
        for (status, elapsed, want) in cases {
            assert_eq!(
                none.should_log(status, elapsed),
                want,
                "{status} {elapsed:?}"
            );
        }
    }

    #[test]
    fn the_share_written_is_the_configured_one_whatever_the_share() {
        for hundredths in 0..=100u32 {
            let sample = f64::from(hundredths) / 100.0;
            let log = AccessLog::with(sample, 1000);
            for n in [1u64, 7, 100, 1000, 4321] {
                let log_fresh = AccessLog::with(sample, 1000);
                let written = (0..n).filter(|_| log_fresh.should_log(200, FAST)).count();
                assert_eq!(
                    written as u64,
                    (n as f64 * sample).floor() as u64,
                    "{sample} of {n}"
                );
            }
            // Errors do not use up the sample's turns.
            let before = (0..100).filter(|_| log.should_log(200, FAST)).count();
            let _ = log.should_log(500, FAST);
            let after = (0..100).filter(|_| log.should_log(200, FAST)).count();
            assert_eq!(
                before + after,
                (200.0 * sample).floor() as usize,
                "{sample}"
            );
        }
    }

    #[test]
    fn shares_outside_the_range_are_clamped() {
        let cases = [(-0.5, 0), (1.5, 10), (f64::NAN, 10), (0.3, 3)];
        for (sample, want) in cases {
            let log = AccessLog::with(sample, 1000);
            let written = (0..10).filter(|_| log.should_log(200, FAST)).count();
            assert_eq!(written, want, "{sample}");
        }
    }

    #[test]
    fn a_quarter_writes_every_fourth() {
        let picked: Vec<u64> = (0..12).filter(|n| picks(*n, 0.25)).collect();
        assert_eq!(picked, [3, 7, 11]);
    }
}
