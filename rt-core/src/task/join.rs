//! `JoinHandle`: the spawner's side of a task.

use super::raw::RawTask;
use super::{AbortHandle, Id, JoinError};
use crate::task::coop;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::panic::{RefUnwindSafe, UnwindSafe};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// An owned permission to await a task's output.
///
/// Awaiting it yields `Ok(output)` once the task finishes, or a
/// [`JoinError`] if it panicked or was cancelled. Dropping it detaches the
/// task, which keeps running.
///
/// ```
/// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// let out = rt.block_on(async {
///     let handle = rt_core::spawn(async { 6 * 7 });
///     handle.await.unwrap()
/// });
/// assert_eq!(out, 42);
/// ```
pub struct JoinHandle<T> {
    raw: RawTask,
    _output: PhantomData<T>,
}

// SAFETY: the handle only moves the output out, so it may cross threads when
// the output can.
unsafe impl<T: Send> Send for JoinHandle<T> {}
// SAFETY: `&JoinHandle` only reads the state word and aborts.
unsafe impl<T: Send> Sync for JoinHandle<T> {}

impl<T> UnwindSafe for JoinHandle<T> {}
impl<T> RefUnwindSafe for JoinHandle<T> {}

impl<T> JoinHandle<T> {
    pub(super) fn new(raw: RawTask) -> JoinHandle<T> {
        JoinHandle {
            raw,
            _output: PhantomData,
        }
    }

    /// Cancels the task. A task that has not finished will not run again;
    /// awaiting the handle then yields a cancelled [`JoinError`] (unless the
    /// task completed first). Tasks spawned with `spawn_blocking` cannot be
    /// stopped once they started.
    pub fn abort(&self) {
        self.raw.remote_abort();
    }

    /// Whether the task has finished (completed, panicked or been cancelled).
    pub fn is_finished(&self) -> bool {
        self.raw.header().state.load().is_complete()
    }

    /// An [`AbortHandle`] for the task, which can cancel it without the
    /// right to await its output.
    pub fn abort_handle(&self) -> AbortHandle {
        self.raw.ref_inc();
        AbortHandle::new(self.raw)
    }

    /// The task's id.
    pub fn id(&self) -> Id {
        self.raw.id()
    }
}

impl<T> Unpin for JoinHandle<T> {}

impl<T> Future for JoinHandle<T> {
    type Output = Result<T, JoinError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // A dump's trace poll runs with a spent budget: `poll_proceed` is
        // this leaf's trace hook too (see `coop::spent`). Inside
        // `unconstrained` it is not, and a trace poll goes on as a poll
        // would: the join waker stays the task's own (the same waker), or
        // the output of a finished task is taken, which woke this one.
        let coop = ready!(coop::poll_proceed(cx));
        let mut out: Poll<Result<T, JoinError>> = Poll::Pending;
        // SAFETY: `out` has the task's output type and the handle holds join
        // interest.
        unsafe {
            self.raw.try_read_output(
                &mut out as *mut Poll<Result<T, JoinError>> as *mut (),
                cx.waker(),
            );
        }
        if out.is_ready() {
            coop.made_progress();
        }
        out
    }
}

impl<T> Drop for JoinHandle<T> {
    fn drop(&mut self) {
        if self.raw.drop_join_handle_fast().is_ok() {
            return;
        }
        self.raw.drop_join_handle_slow();
    }
}

impl<T> fmt::Debug for JoinHandle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JoinHandle")
            .field("id", &self.id())
            .field("spawned_at", &self.raw.spawn_location())
            .finish()
    }
}
