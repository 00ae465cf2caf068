//! Rescuing tasks stranded in a busy worker's LIFO slot.
//!
//! A task woken by a running task goes to its worker's LIFO slot, and that
//! worker runs it as soon as the current poll returns, without waking
//! anybody: waking a sleeper for it would make every message of a
//! ping-pong bounce the pair of tasks between threads. But a poll that
//! does not return for a long time (blocking code in async code) would hold
//! the slot's task hostage too (tokio #4941). So the worker blocked on the
//! driver keeps watch while another worker's slot holds a task: it blocks
//! for at most [`WATCH_INTERVAL`] at a time, and a slot that shows the same
//! task (the same count of puts) on two looks at least an interval apart is
//! taken and run by the watcher. While every slot is empty the holder
//! blocks with no deadline: a stuck worker with nothing in its slot costs
//! no wake-ups.
//!
//! The handshake that keeps a placed task from going unwatched: a holder
//! about to block with no deadline first marks the watch UNWATCHED, then
//! looks at the other workers' slots. A running worker that puts a task
//! into its empty slot without waking anybody then reads the mark and,
//! when it is UNWATCHED, moves it to ANNOUNCED and wakes the driver. The
//! put and the holder's look are both read-modify-writes of the slot
//! (`LifoSlot::holds_item_now`), so one of them comes first in the slot's
//! modification order: either the look sees the task, or the put
//! synchronizes with the look and then reads the mark written before it.
//! The check sits at the put, not at the start of every run: a worker
//! that only runs remote work leaves the idle holder asleep.
//!
//! A holder woken by an announcement watches for one interval whatever the
//! slots show when it looks again: in a ping-pong the slot is empty most of
//! the time, and going back to an unbounded block at once would make every
//! put wake the driver. So a running ping-pong costs the holder at most
//! one wake-up per interval.

use super::park::{DriverWatch, SharedDriver};
use crate::loom::sync::atomic::{AtomicU8, Ordering::SeqCst};
use crate::loom::time::Instant;
use std::time::Duration;

/// Longest a worker blocks on the driver while another worker's LIFO slot
/// holds a task, and so about the shortest time a task must sit in a busy
/// worker's slot before another worker takes it. Not a tuned figure: the
/// bound on how long a stranded task waits, against how often a watcher
/// wakes while others run.
pub(super) const WATCH_INTERVAL: Duration = Duration::from_millis(1);

/// The driver's holder does not block unbounded (it watches, or runs).
const QUIET: u8 = 0;
/// The holder blocks with no deadline: a put into an empty slot wakes it.
const UNWATCHED: u8 = 1;
/// A put woke the holder: the next park watches for an interval.
const ANNOUNCED: u8 = 2;

/// The shared half: the mark of the handshake in the module documentation.
pub(super) struct LifoWatch {
    mark: AtomicU8,
}

impl LifoWatch {
    pub(super) fn new() -> LifoWatch {
        LifoWatch {
            mark: AtomicU8::new(QUIET),
        }
    }

    /// Running side: a running worker put a task into its empty LIFO slot
    /// and woke nobody. If the driver's holder blocks with no deadline,
    /// wake it so that it blocks again watching. One put per unbounded
    /// block wakes it; the load keeps the common case (nobody unwatched)
    /// to a read.
    pub(super) fn task_placed(&self, driver: &SharedDriver) {
        if self.mark.load(SeqCst) == UNWATCHED
            && self
                .mark
                .compare_exchange(UNWATCHED, ANNOUNCED, SeqCst, SeqCst)
                .is_ok()
        {
            driver.unpark_driver();
        }
    }
}

/// The driver holder's side of the handshake, for one park.
pub(super) struct Watching<'a, F: Fn() -> bool> {
    pub(super) watch: &'a LifoWatch,
    /// Whether another worker's LIFO slot holds a task, looked at with
    /// `LifoSlot::holds_item_now`.
    pub(super) others_hold_a_task: F,
}

impl<F: Fn() -> bool> DriverWatch for Watching<'_, F> {
    fn before_driver_park(&self, timeout: Option<Duration>) -> Option<Duration> {
        if timeout == Some(Duration::ZERO) {
            return timeout;
        }
        let watching = Some(timeout.map_or(WATCH_INTERVAL, |t| t.min(WATCH_INTERVAL)));
        let mark = &self.watch.mark;
        if mark.swap(QUIET, SeqCst) == ANNOUNCED {
            return watching;
        }
        mark.store(UNWATCHED, SeqCst);
        // The look that pairs with the puts (see the module documentation).
        if (self.others_hold_a_task)() {
            mark.store(QUIET, SeqCst);
            return watching;
        }
        timeout
    }

    fn after_driver_park(&self) {
        // An announcement stays for the next park to see.
        let _ = self
            .watch
            .mark
            .compare_exchange(UNWATCHED, QUIET, SeqCst, SeqCst);
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
    use crate::runtime::driver::{Driver, Unpark};
    use std::cell::Cell;
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    use std::sync::Arc;

    /// A driver that only counts its unparks.
    struct CountingDriver(Arc<CountUnparks>);

    struct CountUnparks(AtomicUsize);

    impl Unpark for CountUnparks {
        fn unpark(&self) {
            self.0.fetch_add(1, Relaxed);
        }
    }

    impl Driver for CountingDriver {
        fn park(&mut self, _timeout: Option<Duration>) {}

        fn unparker(&self) -> Arc<dyn Unpark> {
            self.0.clone()
        }

        fn shutdown(&mut self) {}
    }

    #[test]
    fn the_holder_watches_only_while_a_slot_holds_a_task_or_after_an_announcement() {
        let unparks = Arc::new(CountUnparks(AtomicUsize::new(0)));
        let driver = SharedDriver::new(Box::new(CountingDriver(unparks.clone())));
        let watch = LifoWatch::new();
        let holds = Cell::new(false);
        let holder = Watching {
            watch: &watch,
            others_hold_a_task: || holds.get(),
        };
        // Every slot empty (a stuck worker with nothing in its slot): no
        // deadline, and a put with nobody unwatched wakes nobody.
        assert_eq!(holder.before_driver_park(None), None);
        holder.after_driver_park();
        watch.task_placed(&driver);
        assert_eq!(unparks.0.load(Relaxed), 0, "nobody blocked unwatched");
        // A slot holds a task: watch for an interval.
        holds.set(true);
        assert_eq!(holder.before_driver_park(None), Some(WATCH_INTERVAL));
        assert_eq!(
            holder.before_driver_park(Some(WATCH_INTERVAL / 4)),
            Some(WATCH_INTERVAL / 4),
            "a shorter deadline of the caller's stands"
        );
        holder.after_driver_park();
        // Empty again: unbounded, and the first put wakes the holder once.
        holds.set(false);
        assert_eq!(holder.before_driver_park(None), None);
        watch.task_placed(&driver);
        watch.task_placed(&driver);
        assert_eq!(unparks.0.load(Relaxed), 1, "one wake-up per unbounded block");
        holder.after_driver_park();
        // Woken by the announcement: one interval of watching even though
        // the slot was emptied meanwhile, then unbounded again.
        assert_eq!(holder.before_driver_park(None), Some(WATCH_INTERVAL));
        holder.after_driver_park();
        assert_eq!(holder.before_driver_park(None), None);
        assert_eq!(holder.before_driver_park(Some(Duration::ZERO)), Some(Duration::ZERO));
    }

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
