//! The task's state word: lifecycle bits and the reference count in one
//! `AtomicUsize`, so that every transition is a single atomic operation.
//!
//! Low bits:
//!
//! * `RUNNING`: someone holds the right to touch the future (polling it or
//!   cancelling it). Exactly one party can set it.
//! * `COMPLETE`: the future is gone and the stage holds the output (or it has
//!   already been consumed). Never unset.
//! * `NOTIFIED`: a `Notified` handle exists in some run queue, or the task was
//!   woken while running and must be rescheduled when the poll ends.
//! * `JOIN_INTEREST`: a `JoinHandle` exists and may read the output.
//! * `JOIN_WAKER`: the join waker slot holds a waker and belongs to the
//!   runtime side (see the protocol below).
//! * `CANCELLED`: the task must be cancelled at the next chance.
//!
//! The rest of the word counts references (`Task`, `Notified`, `JoinHandle`,
//! `AbortHandle`, every `Waker`). A count that would overflow aborts the
//! process: it can only be reached by leaking wakers in a loop.
//!
//! The join waker protocol: while `JOIN_INTEREST` is set and `JOIN_WAKER` is
//! clear, the `JoinHandle` owns the slot and may write it; setting
//! `JOIN_WAKER` hands the slot to the runtime, which reads it to wake the
//! handle at completion. To replace the waker, the handle first clears
//! `JOIN_WAKER`, which fails once `COMPLETE` is set (then the output is
//! ready). After completing, the runtime clears `JOIN_WAKER` again; if the
//! handle was dropped meanwhile, whoever clears the last of the two bits
//! drops the waker.

use crate::loom::sync::atomic::{AtomicUsize, Ordering::*};
use std::fmt;

const RUNNING: usize = 0b00_0001;
const COMPLETE: usize = 0b00_0010;
const LIFECYCLE: usize = RUNNING | COMPLETE;
const NOTIFIED: usize = 0b00_0100;
const JOIN_INTEREST: usize = 0b00_1000;
const JOIN_WAKER: usize = 0b01_0000;
const CANCELLED: usize = 0b10_0000;
const FLAG_BITS: u32 = 6;
const REF_ONE: usize = 1 << FLAG_BITS;
const REF_MASK: usize = !(REF_ONE - 1);

/// A new task is referenced by its `Task` (in the owned list), its
/// `Notified` (in a run queue) and its `JoinHandle`; it starts notified.
const INITIAL_STATE: usize = (REF_ONE * 3) | JOIN_INTEREST | NOTIFIED;

/// The atomic state word.
pub(super) struct State {
    val: AtomicUsize,
}

/// A copy of the state word, decoded by its accessors.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) struct Snapshot(usize);

/// What the caller of `transition_to_running` must do.
#[derive(Debug, PartialEq, Eq)]
#[must_use]
pub(super) enum TransitionToRunning {
    /// Poll the future.
    Success,
    /// Cancel the future instead of polling it.
    Cancelled,
    /// Someone else runs or ran the task; the caller's reference was dropped.
    Failed,
    /// As `Failed`, and that was the last reference: deallocate.
    Dealloc,
}

/// What the caller of `transition_to_idle` must do.
#[derive(Debug, PartialEq, Eq)]
#[must_use]
pub(super) enum TransitionToIdle {
    /// Idle now; the poll's reference was dropped.
    Ok,
    /// Idle now, but woken during the poll: reschedule. The poll's reference
    /// became the new `Notified`'s.
    OkNotified,
    /// Idle now and that was the last reference: deallocate.
    OkDealloc,
    /// Cancelled during the poll: still running; cancel the future now.
    Cancelled,
}

/// What a waker must do after setting the notified bit.
#[derive(Debug, PartialEq, Eq)]
#[must_use]
pub(super) enum TransitionToNotified {
    /// Nothing: already queued, running, or finished.
    DoNothing,
    /// Submit a `Notified` to the scheduler (it holds one reference).
    Submit,
    /// The caller's reference was the last one: deallocate.
    Dealloc,
}

impl State {
    pub(super) fn new() -> State {
        State {
            val: AtomicUsize::new(INITIAL_STATE),
        }
    }

    #[inline]
    pub(super) fn load(&self) -> Snapshot {
        Snapshot(self.val.load(Acquire))
    }

    /// Applies `f` in a CAS loop; `f` returns the new value and a result,
    /// or `None` to leave the word alone.
    fn fetch_update_action<T>(&self, mut f: impl FnMut(Snapshot) -> (T, Option<Snapshot>)) -> T {
        let mut current = self.load();
        loop {
            let (output, next) = f(current);
            let Some(next) = next else {
                return output;
            };
            match self
                .val
                .compare_exchange_weak(current.0, next.0, AcqRel, Acquire)
            {
                Ok(_) => return output,
                Err(actual) => current = Snapshot(actual),
            }
        }
    }

    fn fetch_update(
        &self,
        mut f: impl FnMut(Snapshot) -> Option<Snapshot>,
    ) -> Result<Snapshot, Snapshot> {
        let mut current = self.load();
        loop {
            let Some(next) = f(current) else {
                return Err(current);
            };
            match self
                .val
                .compare_exchange_weak(current.0, next.0, AcqRel, Acquire)
            {
                Ok(_) => return Ok(next),
                Err(actual) => current = Snapshot(actual),
            }
        }
    }

    /// Called by whoever holds a `Notified` and wants to poll.
    #[inline]
    pub(super) fn transition_to_running(&self) -> TransitionToRunning {
        self.fetch_update_action(|mut next| {
            // Idle and notified, the poll path's one case, in one test.
            if !next.is_idle_and_notified() {
                if next.is_running() && super::trace::claimed_for_trace(self) {
                    // A dump's trace poll: it claimed the task with
                    // `transition_to_trace`, so it holds RUNNING and the
                    // poll's reference already. The word stays as it is
                    // (`Some`, not `None`: every exit of this closure
                    // stores, which keeps the poll path's loop smaller).
                    return (TransitionToRunning::Success, Some(next));
                }
                // Running elsewhere or finished: this Notified is stale
                // (the task was shut down while queued). Drop its reference.
                assert!(next.is_notified(), "running a task that was not notified");
                next.ref_dec();
                let action = if next.ref_count() == 0 {
                    TransitionToRunning::Dealloc
                } else {
                    TransitionToRunning::Failed
                };
                return (action, Some(next));
            }
            next.set_running();
            next.unset_notified();
            let action = if next.is_cancelled() {
                TransitionToRunning::Cancelled
            } else {
                TransitionToRunning::Success
            };
            (action, Some(next))
        })
    }

    /// A dump claims an idle task for one trace poll, as a poll would:
    /// sets `RUNNING` and takes a reference (the trace poll's, handed back
    /// by `transition_to_idle` afterwards), so that wakes meanwhile only set
    /// `NOTIFIED` and the trace poll owns the future. Fails, leaving the
    /// word alone, unless the task is idle and not queued. The trace poll
    /// then goes through `transition_to_running`, which lets the claimant
    /// through (see `trace::claimed_for_trace`).
    pub(super) fn transition_to_trace(&self) -> Result<Snapshot, Snapshot> {
        self.fetch_update(|mut next| {
            if !next.is_idle() || next.is_notified() {
                return None;
            }
            next.set_running();
            next.ref_inc();
            Some(next)
        })
    }

    /// Called after a poll that returned `Pending`.
    #[inline]
    pub(super) fn transition_to_idle(&self) -> TransitionToIdle {
        self.fetch_update_action(|current| {
            assert!(current.is_running());
            if current.is_cancelled() {
                return (TransitionToIdle::Cancelled, None);
            }
            let mut next = current;
            next.unset_running();
            let action = if next.is_notified() {
                // Keep the poll's reference for the new Notified.
                TransitionToIdle::OkNotified
            } else {
                next.ref_dec();
                if next.ref_count() == 0 {
                    TransitionToIdle::OkDealloc
                } else {
                    TransitionToIdle::Ok
                }
            };
            (action, Some(next))
        })
    }

    /// Marks the task complete. The caller holds `RUNNING`.
    pub(super) fn transition_to_complete(&self) -> Snapshot {
        let prev = Snapshot(self.val.fetch_xor(RUNNING | COMPLETE, AcqRel));
        assert!(prev.is_running() && !prev.is_complete());
        Snapshot(prev.0 ^ (RUNNING | COMPLETE))
    }

    /// Drops `count` references at the end of the task's life; returns
    /// whether the memory must be freed.
    pub(super) fn transition_to_terminal(&self, count: usize) -> bool {
        let prev = Snapshot(self.val.fetch_sub(count * REF_ONE, AcqRel));
        assert!(
            prev.ref_count() >= count,
            "task reference count underflow: {} < {}",
            prev.ref_count(),
            count
        );
        prev.ref_count() == count
    }

    /// A waker consumed by value: its reference either becomes the
    /// `Notified`'s or is dropped.
    pub(super) fn transition_to_notified_by_val(&self) -> TransitionToNotified {
        self.fetch_update_action(|mut next| {
            let action = if next.is_running() {
                next.set_notified();
                next.ref_dec();
                assert!(next.ref_count() > 0, "the poller holds a reference");
                TransitionToNotified::DoNothing
            } else if next.is_complete() || next.is_notified() {
                next.ref_dec();
                if next.ref_count() == 0 {
                    TransitionToNotified::Dealloc
                } else {
                    TransitionToNotified::DoNothing
                }
            } else {
                next.set_notified();
                TransitionToNotified::Submit
            };
            (action, Some(next))
        })
    }

    /// A waker used by reference: a `Submit` takes a new reference.
    pub(super) fn transition_to_notified_by_ref(&self) -> TransitionToNotified {
        self.fetch_update_action(|mut next| {
            if next.is_complete() || next.is_notified() {
                (TransitionToNotified::DoNothing, None)
            } else if next.is_running() {
                next.set_notified();
                (TransitionToNotified::DoNothing, Some(next))
            } else {
                next.set_notified();
                next.ref_inc();
                (TransitionToNotified::Submit, Some(next))
            }
        })
    }

    /// Remote abort: sets `CANCELLED` and, when the task is idle, schedules it
    /// (with a new reference) so that a worker cancels it. Returns whether the
    /// caller must submit a `Notified`.
    pub(super) fn transition_to_notified_and_cancel(&self) -> bool {
        self.fetch_update_action(|mut next| {
            if next.is_cancelled() || next.is_complete() {
                (false, None)
            } else if next.is_running() {
                // The poller sees CANCELLED when the poll ends.
                next.set_notified();
                next.set_cancelled();
                (false, Some(next))
            } else if next.is_notified() {
                // Already queued: the run will see CANCELLED.
                next.set_cancelled();
                (false, Some(next))
            } else {
                next.set_cancelled();
                next.set_notified();
                next.ref_inc();
                (true, Some(next))
            }
        })
    }

    /// Shutdown: sets `CANCELLED` and, if nobody runs the task, takes
    /// `RUNNING` so that the caller cancels it in place. Returns whether the
    /// caller now holds `RUNNING`.
    pub(super) fn transition_to_shutdown(&self) -> bool {
        let mut took = false;
        let _ = self.fetch_update(|mut next| {
            took = false;
            if next.is_idle() {
                next.set_running();
                took = true;
            }
            next.set_cancelled();
            Some(next)
        });
        took
    }

    /// `JoinHandle` drop fast path: only while the task is untouched since
    /// spawn.
    pub(super) fn drop_join_handle_fast(&self) -> Result<(), ()> {
        self.val
            .compare_exchange(
                INITIAL_STATE,
                (INITIAL_STATE - REF_ONE) & !JOIN_INTEREST,
                Release,
                Relaxed,
            )
            .map(|_| ())
            .map_err(|_| ())
    }

    /// Clears `JOIN_INTEREST` (and `JOIN_WAKER` if the task is not complete,
    /// taking the slot back). Returns `(drop_output, drop_waker)`: whether the
    /// handle must drop the output and whether it now owns the waker slot.
    pub(super) fn transition_to_join_handle_dropped(&self) -> (bool, bool) {
        self.fetch_update_action(|current| {
            assert!(current.is_join_interested());
            let mut next = current;
            next.0 &= !JOIN_INTEREST;
            if !current.is_complete() {
                next.0 &= !JOIN_WAKER;
            }
            let drop_output = current.is_complete();
            let drop_waker = !next.is_join_waker_set();
            ((drop_output, drop_waker), Some(next))
        })
    }

    /// Hands a freshly written join waker to the runtime side. Fails once the
    /// task completed (the output can be read instead).
    pub(super) fn set_join_waker(&self) -> Result<Snapshot, Snapshot> {
        self.fetch_update(|current| {
            assert!(current.is_join_interested());
            assert!(!current.is_join_waker_set());
            if current.is_complete() {
                return None;
            }
            Some(Snapshot(current.0 | JOIN_WAKER))
        })
    }

    /// Takes the join waker slot back before replacing the waker. Fails once
    /// the task completed.
    pub(super) fn unset_join_waker(&self) -> Result<Snapshot, Snapshot> {
        self.fetch_update(|current| {
            assert!(current.is_join_interested());
            // Completion clears JOIN_WAKER after setting COMPLETE, so test
            // COMPLETE first.
            if current.is_complete() {
                return None;
            }
            assert!(current.is_join_waker_set());
            Some(Snapshot(current.0 & !JOIN_WAKER))
        })
    }

    /// After waking the join waker at completion, gives the slot up. The
    /// returned snapshot tells whether the handle still exists.
    pub(super) fn unset_waker_after_complete(&self) -> Snapshot {
        let prev = Snapshot(self.val.fetch_and(!JOIN_WAKER, AcqRel));
        assert!(prev.is_complete() && prev.is_join_waker_set());
        Snapshot(prev.0 & !JOIN_WAKER)
    }

    #[inline]
    pub(super) fn ref_inc(&self) {
        let prev = self.val.fetch_add(REF_ONE, Relaxed);
        if prev > isize::MAX as usize {
            // Only reachable by leaking references in a loop; continuing
            // would wrap the count and free a live task.
            std::process::abort();
        }
    }

    /// Drops one reference; returns whether it was the last.
    #[inline]
    pub(super) fn ref_dec(&self) -> bool {
        let prev = Snapshot(self.val.fetch_sub(REF_ONE, AcqRel));
        assert!(prev.ref_count() >= 1, "task reference count underflow");
        prev.ref_count() == 1
    }

    /// Drops two references (a blocking task's combined handle); returns
    /// whether they were the last.
    pub(super) fn ref_dec_twice(&self) -> bool {
        let prev = Snapshot(self.val.fetch_sub(2 * REF_ONE, AcqRel));
        assert!(prev.ref_count() >= 2, "task reference count underflow");
        prev.ref_count() == 2
    }
}

impl Snapshot {
    #[inline]
    pub(super) fn is_idle(self) -> bool {
        self.0 & LIFECYCLE == 0
    }
    /// `is_idle() && is_notified()`, in one test.
    #[inline]
    fn is_idle_and_notified(self) -> bool {
        self.0 & (LIFECYCLE | NOTIFIED) == NOTIFIED
    }
    #[inline]
    pub(super) fn is_running(self) -> bool {
        self.0 & RUNNING == RUNNING
    }
    #[inline]
    pub(super) fn is_complete(self) -> bool {
        self.0 & COMPLETE == COMPLETE
    }
    #[inline]
    pub(super) fn is_notified(self) -> bool {
        self.0 & NOTIFIED == NOTIFIED
    }
    #[inline]
    pub(super) fn is_cancelled(self) -> bool {
        self.0 & CANCELLED == CANCELLED
    }
    #[inline]
    pub(super) fn is_join_interested(self) -> bool {
        self.0 & JOIN_INTEREST == JOIN_INTEREST
    }
    #[inline]
    pub(super) fn is_join_waker_set(self) -> bool {
        self.0 & JOIN_WAKER == JOIN_WAKER
    }
    #[inline]
    pub(super) fn ref_count(self) -> usize {
        (self.0 & REF_MASK) >> FLAG_BITS
    }
    #[inline]
    fn set_running(&mut self) {
        self.0 |= RUNNING;
    }
    #[inline]
    fn unset_running(&mut self) {
        self.0 &= !RUNNING;
    }
    #[inline]
    fn set_notified(&mut self) {
        self.0 |= NOTIFIED;
    }
    #[inline]
    fn unset_notified(&mut self) {
        self.0 &= !NOTIFIED;
    }
    #[inline]
    fn set_cancelled(&mut self) {
        self.0 |= CANCELLED;
    }
    #[inline]
    fn ref_inc(&mut self) {
        assert!(self.0 <= isize::MAX as usize);
        self.0 += REF_ONE;
    }
    #[inline]
    fn ref_dec(&mut self) {
        assert!(self.ref_count() > 0);
        self.0 -= REF_ONE;
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.load().fmt(f)
    }
}

impl fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Snapshot")
            .field("running", &self.is_running())
            .field("complete", &self.is_complete())
            .field("notified", &self.is_notified())
            .field("cancelled", &self.is_cancelled())
            .field("join_interest", &self.is_join_interested())
            .field("join_waker", &self.is_join_waker_set())
            .field("refs", &self.ref_count())
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests;
