//! What polling, completing, cancelling and joining do to a typed cell.
//!
//! Every function here runs with a reference that the caller handed over,
//! and decides from the state word's answer whether it may touch the stage,
//! must reschedule, or must free the cell.

use super::core::{Cell, Core, Header, Stage, Trailer};
use super::dump::clock_millis;
use super::error::JoinError;
use super::id::CurrentTaskGuard;
use super::state::{Snapshot, TransitionToIdle, TransitionToRunning};
use super::waker::waker_ref;
use super::{Notified, Schedule, Task};
use crate::runtime::SlowPoll;
use std::future::Future;
use std::mem::ManuallyDrop;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;
use std::task::{Context, Poll, Waker};
use std::time::Instant;

/// A typed view of a task cell.
pub(super) struct Harness<F: Future, S: 'static> {
    cell: NonNull<Cell<F, S>>,
}

impl<F: Future, S: Schedule> Harness<F, S> {
    /// # Safety
    ///
    /// `ptr` must be the header of a live `Cell<F, S>`.
    pub(super) unsafe fn from_raw(ptr: NonNull<Header>) -> Harness<F, S> {
        Harness { cell: ptr.cast() }
    }

    fn header_ptr(&self) -> NonNull<Header> {
        self.cell.cast()
    }

    fn header(&self) -> &Header {
        // SAFETY: the caller of `from_raw` holds a reference to the cell.
        unsafe { &self.cell.as_ref().header }
    }

    fn core(&self) -> &Core<F, S> {
        // SAFETY: as in `header`.
        unsafe { &self.cell.as_ref().core }
    }

    fn trailer(&self) -> &Trailer {
        // SAFETY: as in `header`.
        unsafe { &self.cell.as_ref().trailer }
    }

    /// Polls the task, consuming the caller's `Notified` reference.
    pub(super) fn poll(self) {
        match self.header().state.transition_to_running() {
            TransitionToRunning::Success => {
                self.header().count_poll();
                // One call site for the future's poll, timed or not: a second
                // copy would keep the compiler from inlining the panic guard
                // around it, which costs every poll.
                let started = if self.core().scheduler.measures_polls() {
                    Some(poll_started())
                } else {
                    None
                };
                let waker = waker_ref(self.header_ptr());
                let mut cx = Context::from_waker(&waker);
                let finished = poll_future(self.core(), self.header().id, &mut cx);
                if let Some(started) = started {
                    self.report_poll(started);
                }
                if finished {
                    return self.complete();
                }
                match self.header().state.transition_to_idle() {
                    TransitionToIdle::Ok => {}
                    TransitionToIdle::OkNotified => {
                        // SAFETY: the poll's reference became this Notified's.
                        let task = unsafe { Task::from_raw(self.header_ptr()) };
                        self.core().scheduler.yield_now(Notified(task));
                    }
                    TransitionToIdle::OkDealloc => self.dealloc(),
                    TransitionToIdle::Cancelled => {
                        cancel_task(self.core(), self.header().id);
                        self.complete();
                    }
                }
            }
            TransitionToRunning::Cancelled => {
                cancel_task(self.core(), self.header().id);
                self.complete();
            }
            TransitionToRunning::Failed => {}
            TransitionToRunning::Dealloc => self.dealloc(),
        }
    }

    /// Records the end of a timed poll and hands it to the scheduler (for
    /// its histogram and slow-poll check). We still hold `RUNNING`. Out of
    /// line: the untimed poll path (the default) carries none of it.
    #[cold]
    #[inline(never)]
    fn report_poll(&self, started: Instant) {
        if super::trace::is_tracing() {
            // A dump's trace poll: not a poll of the task's own.
            return;
        }
        let ended = Instant::now();
        self.header().set_last_poll(clock_millis(ended));
        let trailer = self.trailer();
        let poll = SlowPoll {
            id: self.header().id,
            name: trailer.origin.name(),
            location: trailer.origin.location(),
            duration: ended.saturating_duration_since(started),
        };
        self.core().scheduler.after_poll(&poll);
    }

    /// Cancels the task on behalf of its owner, consuming a `Task` reference.
    pub(super) fn shutdown(self) {
        if !self.header().state.transition_to_shutdown() {
            // Running elsewhere (it will see CANCELLED) or already done.
            self.drop_reference();
            return;
        }
        cancel_task(self.core(), self.header().id);
        self.complete();
    }

    /// The stage holds the output; publish it, wake the joiner, leave the
    /// owned list and drop the running reference.
    fn complete(self) {
        let snapshot = self.header().state.transition_to_complete();
        // A panicking waker or output destructor must not unwind into the
        // scheduler; the task is finished either way.
        let _ = catch_unwind(AssertUnwindSafe(|| {
            if !snapshot.is_join_interested() {
                // Nobody will read the output: drop it here, as the task.
                let _id = CurrentTaskGuard::enter(self.header().id);
                // SAFETY: COMPLETE without join interest leaves the stage to us.
                unsafe { self.core().set_stage(Stage::Consumed) };
            } else if snapshot.is_join_waker_set() {
                // SAFETY: JOIN_WAKER is set, so the slot is ours to read.
                unsafe { self.trailer().wake_join() };
                let after = self.header().state.unset_waker_after_complete();
                if !after.is_join_interested() {
                    // The handle went away meanwhile; the slot is ours.
                    // SAFETY: both bits are clear: nobody else owns the slot.
                    unsafe { self.trailer().set_waker(None) };
                }
            }
        }));

        // SAFETY: we borrow the running reference to name the task; it is
        // not dropped here (ManuallyDrop).
        let me = ManuallyDrop::new(unsafe { Task::<S>::from_raw(self.header_ptr()) });
        let released = self.core().scheduler.release(&me);
        let count = match released {
            Some(task) => {
                std::mem::forget(task);
                2
            }
            None => 1,
        };
        if self.header().state.transition_to_terminal(count) {
            self.dealloc();
        }
    }

    /// Reads the output into `out` if the task completed; otherwise makes
    /// sure `waker` is woken at completion.
    pub(super) fn try_read_output(
        self,
        out: &mut Poll<Result<F::Output, JoinError>>,
        waker: &Waker,
    ) {
        if self.can_read_output(waker) {
            // SAFETY: COMPLETE with join interest: the handle owns the stage.
            *out = Poll::Ready(unsafe { self.core().take_output() });
        }
    }

    fn can_read_output(&self, waker: &Waker) -> bool {
        let state = &self.header().state;
        let snapshot = state.load();
        debug_assert!(snapshot.is_join_interested());
        if snapshot.is_complete() {
            return true;
        }
        let result = if !snapshot.is_join_waker_set() {
            self.store_join_waker(waker)
        } else {
            // SAFETY: JOIN_WAKER set: the slot is shared read-only.
            if unsafe { self.trailer().will_wake(waker) } {
                return false;
            }
            state
                .unset_join_waker()
                .and_then(|_| self.store_join_waker(waker))
        };
        match result {
            Ok(_) => false,
            Err(snapshot) => {
                assert!(snapshot.is_complete());
                true
            }
        }
    }

    fn store_join_waker(&self, waker: &Waker) -> Result<Snapshot, Snapshot> {
        // SAFETY: JOIN_WAKER is clear and we hold join interest: the handle
        // owns the slot.
        unsafe { self.trailer().set_waker(Some(waker.clone())) };
        let result = self.header().state.set_join_waker();
        if result.is_err() {
            // Completed before the hand-over: the slot stays ours; empty it.
            // SAFETY: JOIN_WAKER was not set, so we still own the slot.
            unsafe { self.trailer().set_waker(None) };
        }
        result
    }

    /// `JoinHandle` drop after the fast path failed.
    pub(super) fn drop_join_handle_slow(self) {
        let (drop_output, drop_waker) = self.header().state.transition_to_join_handle_dropped();
        if drop_output {
            let _ = catch_unwind(AssertUnwindSafe(|| {
                let _id = CurrentTaskGuard::enter(self.header().id);
                // SAFETY: the task completed and the handle still held join
                // interest, so the stage is the handle's.
                unsafe { self.core().set_stage(Stage::Consumed) };
            }));
        }
        if drop_waker {
            // SAFETY: JOIN_WAKER is clear after the transition: the slot is
            // the handle's.
            unsafe { self.trailer().set_waker(None) };
        }
        self.drop_reference();
    }

    fn drop_reference(self) {
        if self.header().state.ref_dec() {
            self.dealloc();
        }
    }

    /// Frees the cell.
    pub(super) fn dealloc(self) {
        // SAFETY: the last reference is gone; the cell came from
        // `Cell::allocate`.
        unsafe { Cell::free(self.cell) };
    }
}

/// The clock reading that starts a timed poll. Out of line and cold, like
/// `report_poll`: only runtimes that time their polls come here.
#[cold]
#[inline(never)]
fn poll_started() -> Instant {
    Instant::now()
}

/// Polls the future, catching a panic. Returns whether the task finished
/// (output or panic stored in the stage). Inlined: it is the body of the
/// hottest path in the runtime.
#[inline(always)]
fn poll_future<F: Future, S: Schedule>(
    core: &Core<F, S>,
    id: super::Id,
    cx: &mut Context<'_>,
) -> bool {
    let _id = CurrentTaskGuard::enter(id);
    let polled = catch_unwind(AssertUnwindSafe(|| {
        // A poll that panics drops its future while unwinding, as tokio's
        // does: the future's destructor runs with `thread::panicking()`
        // true. Forgotten on the normal path, so a poll costs nothing more.
        let guard = DropFutureOnUnwind(core);
        // SAFETY: we hold RUNNING and the stage is Running.
        let poll = unsafe { core.poll(cx) };
        std::mem::forget(guard);
        poll
    }));
    let output = match polled {
        Ok(Poll::Pending) => return false,
        Ok(Poll::Ready(output)) => Ok(output),
        Err(payload) => {
            core.scheduler.unhandled_panic(id, &*payload);
            Err(JoinError::panic(id, payload))
        }
    };
    // Drop the future first (it may panic; the output still stands), then
    // store the output.
    // SAFETY: we hold RUNNING.
    let _ = catch_unwind(AssertUnwindSafe(|| unsafe {
        core.set_stage(Stage::Consumed)
    }));
    // SAFETY: we hold RUNNING.
    unsafe { core.set_stage(Stage::Finished(output)) };
    true
}

/// Drops the task's future if the poll it guards unwinds.
struct DropFutureOnUnwind<'a, F: Future, S>(&'a Core<F, S>);

impl<F: Future, S> Drop for DropFutureOnUnwind<'_, F, S> {
    fn drop(&mut self) {
        // SAFETY: only built by `poll_future`, whose caller holds RUNNING.
        unsafe { self.0.set_stage(Stage::Consumed) };
    }
}

/// Drops the future and stores the cancellation (or the panic its drop
/// raised) as the output. The caller holds RUNNING.
fn cancel_task<F: Future, S>(core: &Core<F, S>, id: super::Id) {
    let dropped = catch_unwind(AssertUnwindSafe(|| {
        let _id = CurrentTaskGuard::enter(id);
        // SAFETY: the caller holds RUNNING.
        unsafe { core.set_stage(Stage::Consumed) }
    }));
    let error = match dropped {
        Ok(()) => JoinError::cancelled(id),
        Err(payload) => JoinError::panic(id, payload),
    };
    // SAFETY: the caller holds RUNNING.
    unsafe { core.set_stage(Stage::Finished(Err(error))) };
}
