//! Where a StoreActor lends its board to readers: an `Arc` swapped in whole, so a reader takes
//! a consistent board with one atomic load and no turn in the actor's mailbox.

use crate::domain::stores::store_board::Board;
use arc_swap::ArcSwap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A board held in memory is checked against the database's version when it has not been for
/// this long (clock ms), whatever the bus said: a lost invalidation costs at most this much.
pub const MAX_AGE_MS: i64 = 5_000;

pub struct BoardCell {
    board: ArcSwap<Board>,
    /// Loaded from the database at least once (before that the board is empty, not "open").
    loaded: AtomicBool,
    /// When (clock ms) the board was last confirmed against the database's version.
    checked_at: AtomicI64,
    /// When (seconds since `epoch`) a reader last took the board: readers keep the actor alive
    /// without passing through its mailbox.
    last_read: AtomicU64,
    epoch: Instant,
}

impl BoardCell {
    pub fn new(epoch: Instant) -> BoardCell {
        BoardCell {
            board: ArcSwap::from_pointee(Board::default()),
            loaded: AtomicBool::new(false),
            checked_at: AtomicI64::new(i64::MIN),
            last_read: AtomicU64::new(epoch.elapsed().as_secs()),
            epoch,
        }
    }

    /// The board as held now; marks the store as read.
    pub fn get(&self) -> Arc<Board> {
        let now = self.epoch.elapsed().as_secs();
        // A store only once a second, so readers on many cores do not fight over the line.
        if self.last_read.load(Ordering::Relaxed) != now {
            self.last_read.store(now, Ordering::Relaxed);
        }
        self.board.load_full()
    }

    pub fn version(&self) -> i64 {
        self.board.load().version
    }

    pub fn is_loaded(&self) -> bool {
        self.loaded.load(Ordering::Acquire)
    }

    /// Whether readers may take the board without asking the database (see [`fresh`]).
    pub fn is_fresh(&self, now_ms: i64, max_age_ms: i64) -> bool {
        fresh(
            self.loaded.load(Ordering::Acquire),
            self.checked_at.load(Ordering::Acquire),
            now_ms,
            max_age_ms,
        )
    }

    /// Installs a board read from the database at `now_ms`, unless the one held is newer (a
    /// slow read overtaken by a write's read-back).
    pub fn install(&self, board: Board, now_ms: i64) {
        if self.loaded.load(Ordering::Acquire) && !replaces(self.version(), board.version) {
            self.confirmed(now_ms);
            return;
        }
        self.board.store(Arc::new(board));
        self.loaded.store(true, Ordering::Release);
        self.confirmed(now_ms);
    }

    /// The database's version was read at `now_ms` and is the one held.
    pub fn confirmed(&self, now_ms: i64) {
        self.checked_at.fetch_max(now_ms, Ordering::AcqRel);
    }

    /// Seconds since a reader last took the board.
    pub fn idle_secs(&self) -> u64 {
        self.epoch
            .elapsed()
            .as_secs()
            .saturating_sub(self.last_read.load(Ordering::Relaxed))
    }
}

/// A board may be read without the database when it was loaded and confirmed less than
/// `max_age_ms` ago (0: never; a manual clock that stands still keeps it fresh).
pub fn fresh(loaded: bool, checked_at: i64, now_ms: i64, max_age_ms: i64) -> bool {
    loaded && max_age_ms > 0 && now_ms.saturating_sub(checked_at) < max_age_ms
}

/// A board read at `incoming` replaces the one held at `held` unless it is older. Equal
/// replaces too: a read is at least as new as its version (the version is read first).
pub fn replaces(held: i64, incoming: i64) -> bool {
    incoming >= held
}

/// An invalidation naming `announced` needs a reload when the board held is older.
pub fn stale(held: i64, announced: i64) -> bool {
    announced > held
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freshness() {
        // (loaded, checked_at, now, max_age, fresh)
        let cases = [
            (false, 0, 0, 5_000, false),
            (true, 0, 0, 5_000, true),
            (true, 0, 4_999, 5_000, true),
            (true, 0, 5_000, 5_000, false),
            (true, 10, 10, 0, false),
            (true, i64::MIN, 10, 5_000, false),
            (true, 100, 50, 5_000, true),
        ];
        for (loaded, checked, now, max_age, want) in cases {
            assert_eq!(
                fresh(loaded, checked, now, max_age),
                want,
                "{loaded} {checked} {now} {max_age}"
            );
        }
    }

    #[test]
    fn versions_only_move_forward() {
        assert!(replaces(3, 4));
        assert!(replaces(3, 3));
        assert!(!replaces(4, 3));
        assert!(stale(3, 4));
        assert!(!stale(4, 4));
        assert!(!stale(5, 4), "a late invalidation of an older change");
    }

    #[test]
    fn an_older_read_does_not_replace_a_newer_board() {
        let cell = BoardCell::new(Instant::now());
        assert!(!cell.is_fresh(0, MAX_AGE_MS));
        let board = |version| Board {
            version,
            ..Board::default()
        };
        cell.install(board(5), 1_000);
        assert!(cell.is_fresh(1_000, MAX_AGE_MS));
        cell.install(board(4), 2_000);
        assert_eq!(cell.version(), 5);
        assert!(cell.is_fresh(6_999, MAX_AGE_MS));
        assert!(!cell.is_fresh(7_000, MAX_AGE_MS));
        cell.install(board(6), 7_000);
        assert_eq!(cell.get().version, 6);
    }
}
