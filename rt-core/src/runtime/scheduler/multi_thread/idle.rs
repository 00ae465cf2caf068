//! Which workers are parked and how many are searching for work.
//!
//! Two counters share one atomic word (searching in the low half, unparked
//! in the high half) so that "is anybody already looking?" is one load on
//! the wake path. The list of sleepers is behind a mutex, touched only when
//! a worker parks or is woken, never per task.
//!
//! Rules that keep wake-ups neither lost nor wasted:
//! * at most half the workers search at once (searching is pure overhead
//!   once there are enough of them);
//! * a wake that finds a searcher does nothing: that searcher will find the
//!   work;
//! * the last searcher to find work wakes another worker, so a burst of
//!   work spreads over the pool one worker at a time;
//! * the last searcher to go to sleep looks for work once more, since a
//!   push that saw it searching woke nobody; so does the only worker of a
//!   runtime, which never searches (there is nobody to steal from) and
//!   which a push that saw it awake woke just as little.

use crate::loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use crate::loom::sync::Mutex;

const UNPARKED_SHIFT: usize = 16;
const SEARCHING_MASK: usize = (1 << UNPARKED_SHIFT) - 1;

/// What woke a parked worker, as [`Idle::wake_up`] settles it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum WakeUp {
    /// A notifier took the worker off the sleeper list and counted it as
    /// unparked and searching.
    Notified,
    /// The worker has work of its own (the driver woke tasks onto it): it
    /// left the sleeper list itself and counts as unparked, not searching.
    OwnWork,
    /// Neither: it is still on the sleeper list and parks again.
    Spurious,
}

pub(super) struct Idle {
    state: AtomicUsize,
    sleepers: Mutex<Vec<usize>>,
    num_workers: usize,
}

impl Idle {
    pub(super) fn new(num_workers: usize) -> Idle {
        assert!(num_workers < SEARCHING_MASK, "too many worker threads");
        Idle {
            // Every worker starts unparked and not searching.
            state: AtomicUsize::new(num_workers << UNPARKED_SHIFT),
            sleepers: Mutex::new(Vec::with_capacity(num_workers)),
            num_workers,
        }
    }

    fn searching(state: usize) -> usize {
        state & SEARCHING_MASK
    }

    fn unparked(state: usize) -> usize {
        state >> UNPARKED_SHIFT
    }

    /// Picks a parked worker to wake for new work, if waking one is useful.
    /// The chosen worker is counted as searching and unparked already.
    pub(super) fn worker_to_notify(&self) -> Option<usize> {
        if !self.should_notify() {
            return None;
        }
        let mut sleepers = self.sleepers.lock().unwrap_or_else(|e| e.into_inner());
        // Check again under the lock: another notifier may have won.
        if !self.should_notify() {
            return None;
        }
        let worker = sleepers.pop()?;
        self.state.fetch_add(1 | (1 << UNPARKED_SHIFT), SeqCst);
        Some(worker)
    }

    fn should_notify(&self) -> bool {
        // A read-modify-write, not a load: it reads the latest value in the
        // word's modification order and synchronizes with the parking
        // worker's decrement, so that either we see that worker parked or it
        // sees the work we pushed before calling this.
        let state = self.state.fetch_add(0, SeqCst);
        Idle::searching(state) == 0 && Idle::unparked(state) < self.num_workers
    }

    /// A worker with nothing to run wants to search others' queues. Refused
    /// when half the workers already search.
    pub(super) fn transition_to_searching(&self) -> bool {
        let state = self.state.load(SeqCst);
        if 2 * Idle::searching(state) >= self.num_workers {
            return false;
        }
        self.state.fetch_add(1, SeqCst);
        true
    }

    /// A searcher found work. Returns whether it was the last searcher (then
    /// it must wake another worker to keep looking).
    pub(super) fn transition_from_searching(&self) -> bool {
        let prev = self.state.fetch_sub(1, SeqCst);
        debug_assert!(Idle::searching(prev) > 0);
        Idle::searching(prev) == 1
    }

    /// A worker goes to sleep. Returns whether it must look for work once
    /// more first: it was the last searcher, or it is the only worker.
    pub(super) fn transition_to_parked(&self, worker: usize, is_searching: bool) -> bool {
        let mut sleepers = self.sleepers.lock().unwrap_or_else(|e| e.into_inner());
        let dec = (1 << UNPARKED_SHIFT) | usize::from(is_searching);
        let prev = self.state.fetch_sub(dec, SeqCst);
        sleepers.push(worker);
        (is_searching && Idle::searching(prev) == 1) || self.num_workers == 1
    }

    /// A parked worker woke up; decides in one step, under the sleeper
    /// lock, what the wake-up was.
    ///
    /// It must be one step: a worker that first asked "am I still on the
    /// list?" and then, finding work of its own, removed itself could be
    /// popped by a notifier in between. The notifier counts the worker it
    /// pops as searching, so the worker must then search (and later leave
    /// searching); treating itself as merely unparked would leave the
    /// searching count one too high for good, and with a searcher
    /// apparently always present, no remote push would wake anybody again.
    pub(super) fn wake_up(&self, worker: usize, has_local_work: bool) -> WakeUp {
        let mut sleepers = self.sleepers.lock().unwrap_or_else(|e| e.into_inner());
        let Some(i) = sleepers.iter().position(|w| *w == worker) else {
            return WakeUp::Notified;
        };
        if !has_local_work {
            return WakeUp::Spurious;
        }
        sleepers.swap_remove(i);
        self.state.fetch_add(1 << UNPARKED_SHIFT, SeqCst);
        WakeUp::OwnWork
    }

    /// Whether `worker` is on the sleeper list.
    #[cfg(all(test, not(loom)))]
    pub(super) fn is_parked(&self, worker: usize) -> bool {
        let sleepers = self.sleepers.lock().unwrap_or_else(|e| e.into_inner());
        sleepers.contains(&worker)
    }

    /// Takes `worker` off the sleeper list unconditionally (shutdown).
    /// Returns whether it was on it.
    pub(super) fn unpark_worker_by_id(&self, worker: usize) -> bool {
        let mut sleepers = self.sleepers.lock().unwrap_or_else(|e| e.into_inner());
        match sleepers.iter().position(|w| *w == worker) {
            Some(i) => {
                sleepers.swap_remove(i);
                self.state.fetch_add(1 << UNPARKED_SHIFT, SeqCst);
                true
            }
            None => false,
        }
    }

    /// Number of workers on the sleeper list.
    #[cfg(all(test, loom))]
    pub(super) fn num_sleepers(&self) -> usize {
        self.sleepers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .len()
    }

    /// Number of workers currently searching.
    #[cfg(test)]
    pub(super) fn num_searching(&self) -> usize {
        Idle::searching(self.state.load(SeqCst))
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn at_most_half_search() {
        let idle = Idle::new(4);
        assert!(idle.transition_to_searching());
        assert!(idle.transition_to_searching());
        assert!(!idle.transition_to_searching());
        assert_eq!(idle.num_searching(), 2);
        assert!(!idle.transition_from_searching());
        assert!(idle.transition_from_searching());
    }

    #[test]
    fn notify_only_when_nobody_searches_and_someone_sleeps() {
        let idle = Idle::new(2);
        assert_eq!(idle.worker_to_notify(), None, "nobody sleeps");
        assert!(!idle.transition_to_parked(1, false));
        assert!(idle.is_parked(1));
        assert_eq!(idle.worker_to_notify(), Some(1));
        assert!(!idle.is_parked(1));
        // Worker 1 now counts as searching: no second notification.
        assert!(!idle.transition_to_parked(0, false));
        assert_eq!(idle.worker_to_notify(), None);
        assert!(idle.transition_from_searching());
        assert_eq!(idle.worker_to_notify(), Some(0));
    }

    /// Shutdown takes a sleeper off the list without counting it as
    /// searching, and the sleeper's `wake_up` cannot tell that from a
    /// notification: the worker must look at `closed` before it searches
    /// (`Context::park`), or leaving the search would underflow the count.
    #[test]
    fn a_sleeper_shutdown_unparks_is_not_counted_searching() {
        let idle = Idle::new(2);
        assert!(!idle.transition_to_parked(0, false));
        assert!(idle.unpark_worker_by_id(0));
        assert_eq!(idle.wake_up(0, false), WakeUp::Notified);
        assert_eq!(idle.num_searching(), 0);
    }

    #[test]
    fn last_searcher_parking_is_reported() {
        let idle = Idle::new(2);
        assert!(idle.transition_to_searching());
        assert!(idle.transition_to_parked(0, true));
        assert!(idle.unpark_worker_by_id(0));
        assert!(!idle.unpark_worker_by_id(0));
    }

    #[test]
    fn a_lone_worker_parking_always_looks_again() {
        let idle = Idle::new(1);
        assert!(idle.transition_to_parked(0, false));
        assert_eq!(idle.num_searching(), 0);
    }
}
