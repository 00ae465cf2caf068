//! Rescuing tasks stranded in a busy worker's LIFO slot.
//!
//! A task woken by a running task goes to its worker's LIFO slot, and that
//! worker runs it as soon as the current poll returns, without waking
//! anybody: waking a sleeper for it would make every message of a
//! ping-pong bounce the pair of tasks between threads. But a poll that
//! does not return for a long time (blocking code in async code) would hold
//! the slot's task hostage too (tokio #4941). So the worker blocked on the
//! driver keeps watch while other workers run: it blocks for at most
//! [`WATCH_INTERVAL`] at a time, and a slot that shows the same task (the
//! same count of puts) on two looks at least an interval apart is taken
//! and run by the watcher.
//!
//! The handshake that keeps the watch from being missed: a worker about to
//! block on the driver without a deadline first raises `unwatched`, then
//! looks whether any worker runs. A running worker was counted unparked
//! before it started; when it puts a task into its empty LIFO slot without
//! waking anybody, it looks at `unwatched` and, when it is raised, wakes
//! the driver so that its holder starts watching. Both sides are SeqCst, so
//! at least one of them sees the other. The check sits at the put, not at
//! the start of every run: a worker that only runs remote work (a
//! `spawn_blocking` completion, say) leaves the idle holder asleep.

use super::idle::Idle;
use super::park::{DriverWatch, SharedDriver};
use crate::loom::sync::atomic::{AtomicBool, Ordering::SeqCst};
use crate::loom::time::Instant;
use std::time::Duration;

/// Longest a worker blocks on the driver while other workers run, and so
/// about the shortest time a task must sit in a busy worker's LIFO slot
/// before another worker takes it.
pub(super) const WATCH_INTERVAL: Duration = Duration::from_millis(1);

/// The shared half: whether the driver's holder blocks with no deadline.
pub(super) struct LifoWatch {
    unwatched: AtomicBool,
}

impl LifoWatch {
    pub(super) fn new() -> LifoWatch {
        LifoWatch {
            unwatched: AtomicBool::new(false),
        }
    }

    /// Running side: a running worker (counted unparked) put a task into
    /// its empty LIFO slot and woke nobody. If the driver's holder blocks
    /// with no deadline, wake it so that it blocks again watching.
    pub(super) fn task_placed(&self, driver: &SharedDriver) {
        if self.unwatched.load(SeqCst) {
            driver.unpark_driver();
        }
    }
}

/// The driver holder's side of the handshake, for one park.
pub(super) struct Watching<'a> {
    pub(super) watch: &'a LifoWatch,
    pub(super) idle: &'a Idle,
}

impl DriverWatch for Watching<'_> {
    fn before_driver_park(&self, timeout: Option<Duration>) -> Option<Duration> {
        if timeout == Some(Duration::ZERO) {
            return timeout;
        }
        self.watch.unwatched.store(true, SeqCst);
        if self.idle.num_unparked() == 0 {
            return timeout;
        }
        self.watch.unwatched.store(false, SeqCst);
        Some(timeout.map_or(WATCH_INTERVAL, |t| t.min(WATCH_INTERVAL)))
    }

    fn after_driver_park(&self) {
        self.watch.unwatched.store(false, SeqCst);
    }

    /// Only while a CPU is free of running workers: with every CPU taken
    /// (more workers than CPUs), each yield hands the CPU to a worker that
    /// has work and costs it a context switch.
    fn yield_before_condvar(&self) -> bool {
        self.idle.leaves_a_cpu_free()
    }
}

/// A watcher's memory of the other workers' LIFO slots: per worker, the put
/// count its slot showed while holding a task, and when that was first
/// seen.
pub(super) struct SlotSightings {
    seen: Box<[Option<(u32, Instant)>]>,
}

impl SlotSightings {
    pub(super) fn new(num_workers: usize) -> SlotSightings {
        SlotSightings {
            seen: vec![None; num_workers].into_boxed_slice(),
        }
    }

    /// Records what worker `i`'s slot shows now (`stamp`: its put count if
    /// it holds a task) and says whether that task has sat there for at
    /// least [`WATCH_INTERVAL`]. `now` is called only for a slot that holds
    /// a task: a worker back from parking looks at every other slot, and
    /// they are mostly empty, so most looks need no clock reading.
    pub(super) fn is_stranded(
        &mut self,
        i: usize,
        stamp: Option<u32>,
        now: impl FnOnce() -> Instant,
    ) -> bool {
        match (stamp, self.seen[i]) {
            (None, _) => {
                self.seen[i] = None;
                false
            }
            (Some(puts), Some((seen, since))) if puts == seen => {
                now().saturating_duration_since(since) >= WATCH_INTERVAL
            }
            (Some(puts), _) => {
                self.seen[i] = Some((puts, now()));
                false
            }
        }
    }

    /// Worker `i`'s slot was emptied by us.
    pub(super) fn forget(&mut self, i: usize) {
        self.seen[i] = None;
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn a_task_is_stranded_only_after_an_interval_with_the_same_stamp() {
        let mut sightings = SlotSightings::new(2);
        let t0 = Instant::now();
        assert!(!sightings.is_stranded(1, Some(7), || t0));
        assert!(!sightings.is_stranded(1, Some(7), || t0 + WATCH_INTERVAL / 2));
        assert!(sightings.is_stranded(1, Some(7), || t0 + WATCH_INTERVAL));
        // A new put restarts the clock.
        assert!(!sightings.is_stranded(1, Some(8), || t0 + 2 * WATCH_INTERVAL));
        assert!(!sightings.is_stranded(1, Some(8), || t0 + 2 * WATCH_INTERVAL + WATCH_INTERVAL / 2));
        // An empty slot forgets.
        assert!(!sightings.is_stranded(1, None, || {
            panic!("an empty slot needs no clock reading")
        }));
        assert!(!sightings.is_stranded(1, Some(8), || t0 + 5 * WATCH_INTERVAL));
    }
}
