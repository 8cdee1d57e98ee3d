//! The time source. Production reads the system clock; tests hold a manual clock they move.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub enum Clock {
    System,
    Manual(Arc<AtomicI64>),
}

impl Clock {
    /// A clock that stands at `epoch_ms` until moved.
    pub fn manual(epoch_ms: i64) -> Clock {
        Clock::Manual(Arc::new(AtomicI64::new(epoch_ms)))
    }

    pub fn now_ms(&self) -> i64 {
        match self {
            Clock::System => chrono::Utc::now().timestamp_millis(),
            Clock::Manual(ms) => ms.load(Ordering::SeqCst),
        }
    }

    /// China time now.
    pub fn china_now(&self) -> chrono::DateTime<chrono::FixedOffset> {
        crate::domain::stores::hours::china_time(self.now_ms())
    }

    /// Moves a manual clock; a system clock cannot be moved and ignores it.
    pub fn advance_ms(&self, delta: i64) {
        if let Clock::Manual(ms) = self {
            ms.fetch_add(delta, Ordering::SeqCst);
        }
    }

    pub fn set_ms(&self, epoch_ms: i64) {
        if let Clock::Manual(ms) = self {
            ms.store(epoch_ms, Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_moves_only_when_told() {
        let clock = Clock::manual(1_000);
        assert_eq!(clock.now_ms(), 1_000);
        clock.advance_ms(30 * 60 * 1000);
        assert_eq!(clock.now_ms(), 1_801_000);
        clock.set_ms(5);
        assert_eq!(clock.now_ms(), 5);
    }

    #[test]
    fn system_clock_is_now() {
        let now = chrono::Utc::now().timestamp_millis();
        assert!((Clock::System.now_ms() - now).abs() < 5_000);
    }
}
