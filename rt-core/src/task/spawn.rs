//! The free functions that spawn onto the current runtime.

use super::{Id, JoinHandle, Origin};
use crate::runtime::context;
use std::future::Future;
use std::panic::Location;

/// Spawns a task onto the current runtime and returns its [`JoinHandle`].
///
/// The task starts running in the background right away, whether or not
/// the handle is awaited.
///
/// # Panics
///
/// Outside a runtime's context.
///
/// ```
/// let rt = rt_core::runtime::Runtime::new().unwrap();
/// rt.block_on(async {
///     let handle = rt_core::task::spawn(async { "hello" });
///     assert_eq!(handle.await.unwrap(), "hello");
/// });
/// ```
#[track_caller]
pub fn spawn<F>(future: F) -> JoinHandle<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    // The location is taken here: `#[track_caller]` does not reach into
    // the closure.
    let origin = Origin::new(Location::caller(), None);
    match context::with_current(|h| h.spawn_with_origin(future, Id::next(), origin)) {
        Ok(join) => join,
        Err(e) => panic!("{e}"),
    }
}

/// Runs a blocking closure on the current runtime's blocking pool.
///
/// # `spawn_blocking` or `block_in_place`?
///
/// Both keep blocking code (file I/O, a synchronous library, a long
/// computation) from stalling the tasks that share a worker.
///
/// - `spawn_blocking` moves the closure to a pool thread and returns a
///   [`JoinHandle`] to await. The closure must be `'static + Send`, so it
///   cannot borrow from the task. It works on both flavors, and many calls
///   can run at once (up to `max_blocking_threads`). Pick it by default.
/// - [`block_in_place`] runs the closure right here, on the worker thread,
///   after handing the worker's queued tasks to a new thread. The closure
///   may borrow the task's locals and need not be `Send`, but the calling
///   task (and anything it `join!`s) makes no progress until it returns,
///   and it panics on the current-thread flavor. Pick it when borrowing
///   matters more than that.
///
/// Neither can be cancelled once the closure started: aborting the task
/// only drops the result. With a paused clock (tests), time does not
/// advance on its own while a `spawn_blocking` closure is in flight.
///
/// # Panics
///
/// Outside a runtime's context.
///
/// ```
/// let rt = rt_core::runtime::Runtime::new().unwrap();
/// let sum = rt.block_on(async {
///     rt_core::task::spawn_blocking(|| (1..=10).sum::<u32>()).await.unwrap()
/// });
/// assert_eq!(sum, 55);
/// ```
#[track_caller]
pub fn spawn_blocking<F, R>(func: F) -> JoinHandle<R>
where
    F: FnOnce() -> R + Send + 'static,
    R: Send + 'static,
{
    match context::with_current(|h| h.spawn_blocking(func)) {
        Ok(join) => join,
        Err(e) => panic!("{e}"),
    }
}

/// Runs blocking code on the current worker thread without stalling the
/// other tasks: the worker's queue is handed to a new thread first.
///
/// Outside a runtime, `f` just runs. On the multi-thread runtime, the
/// calling task stays on this thread until it next yields. See
/// [`spawn_blocking`] for when to choose which.
///
/// Needs the `rt-multi-thread` feature.
///
/// # Panics
///
/// On the current-thread runtime, which has no other thread to hand the
/// work to.
///
/// ```
/// let rt = rt_core::runtime::Builder::new_multi_thread()
///     .worker_threads(2)
///     .build()
///     .unwrap();
/// let ok = rt.block_on(async {
///     rt_core::spawn(async { rt_core::task::block_in_place(|| 6 * 7) })
///         .await
///         .unwrap()
/// });
/// assert_eq!(ok, 42);
/// ```
#[cfg(feature = "rt-multi-thread")]
#[track_caller]
pub fn block_in_place<F: FnOnce() -> R, R>(f: F) -> R {
    crate::runtime::scheduler::multi_thread::block_in_place(f)
}

/// Yields to the scheduler once: the task is queued behind the others and
/// polled again later.
///
/// ```
/// let rt = rt_core::runtime::Runtime::new().unwrap();
/// rt.block_on(async { rt_core::task::yield_now().await });
/// ```
pub async fn yield_now() {
    let mut yielded = false;
    std::future::poll_fn(move |cx| {
        if yielded {
            return std::task::Poll::Ready(());
        }
        // No trace hook: a yield that went pending woke its task, so a task
        // that a dump traces (idle, not notified) never waits here. A trace
        // poll that gets here anew yields for real: the wake is handed to
        // the scheduler when the trace poll ends, as any wake during one.
        yielded = true;
        cx.waker().wake_by_ref();
        std::task::Poll::Pending
    })
    .await
}
