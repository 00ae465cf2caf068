//! What each end of a hop to the blocking pool remembers of its own
//! yielding waits (`pool.rs`), so that it stops paying for waits that do
//! not end early.
//!
//! A wait pays when the other end answers within it: a small file read
//! comes back in tens of microseconds. A closure that runs longer than
//! the wait (a file written and synced, about a millisecond here) makes
//! every wait a full 100 µs of yields that end in sleep anyway: on an
//! otherwise idle CPU that costs no time, but it is work, and under
//! callgrind `fs_write_files` counted up to 1.08 times tokio's
//! instructions with it. So a wait that ends without its answer makes the
//! thread skip the next waits, one more than twice as many as after the
//! last such wait, up to [`MAX_SKIPPED`]; one that ends with its answer
//! clears the count.

/// Most waits skipped in a row: a closure that always outlasts the wait
/// then costs one wait in this many hops.
const MAX_SKIPPED: u32 = 64;

/// A backoff over futile waits, kept by the thread that waits.
#[derive(Debug, Default)]
pub(crate) struct WaitBackoff {
    /// Waits still to skip.
    left: u32,
    /// How many the last futile wait made this thread skip.
    last: u32,
}

impl WaitBackoff {
    /// A thread that has not waited yet.
    pub(crate) const fn new() -> WaitBackoff {
        WaitBackoff { left: 0, last: 0 }
    }

    /// Whether the next wait should be skipped; counts it if so.
    pub(super) fn skip(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        true
    }

    /// A wait ended, with the other end's answer or without.
    pub(super) fn ended(&mut self, answered: bool) {
        if answered {
            self.last = 0;
        } else {
            self.last = (self.last * 2 + 1).min(MAX_SKIPPED);
            self.left = self.last;
        }
    }
}

/// A runtime thread's memory of its waits for the pool's results.
#[derive(Debug, Default)]
pub(crate) struct HopWaits {
    /// The pool's count of submitted tasks when this thread last parked.
    pub(super) submits_seen: usize,
    pub(super) backoff: WaitBackoff,
}

impl HopWaits {
    /// A thread that has not parked yet.
    pub(crate) const fn new() -> HopWaits {
        HopWaits {
            submits_seen: 0,
            backoff: WaitBackoff::new(),
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::{WaitBackoff, MAX_SKIPPED};

    /// How many waits in a row `backoff` skips now.
    fn skipped_in_a_row(backoff: &mut WaitBackoff) -> u32 {
        let mut skipped = 0;
        while backoff.skip() {
            skipped += 1;
        }
        skipped
    }

    #[test]
    fn answered_waits_skip_nothing() {
        let mut backoff = WaitBackoff::new();
        for _ in 0..3 {
            assert!(!backoff.skip());
            backoff.ended(true);
        }
    }

    #[test]
    fn futile_waits_skip_more_each_time_up_to_the_most() {
        let mut backoff = WaitBackoff::new();
        let mut runs = Vec::new();
        for _ in 0..9 {
            assert!(!backoff.skip(), "the wait after the skipped ones is taken");
            backoff.ended(false);
            runs.push(skipped_in_a_row(&mut backoff));
        }
        assert_eq!(runs, [1, 3, 7, 15, 31, 63, MAX_SKIPPED, MAX_SKIPPED, MAX_SKIPPED]);
    }

    #[test]
    fn an_answered_wait_clears_the_backoff() {
        let mut backoff = WaitBackoff::new();
        backoff.ended(false);
        assert_eq!(skipped_in_a_row(&mut backoff), 1);
        backoff.ended(false);
        assert_eq!(skipped_in_a_row(&mut backoff), 3);
        backoff.ended(true);
        assert!(!backoff.skip());
        backoff.ended(false);
        assert_eq!(skipped_in_a_row(&mut backoff), 1, "counted from the start again");
    }
}
