//! `LocalRuntime`: a current-thread runtime that stays on the thread that
//! built it, and so can run `!Send` futures spawned with `spawn_local`.
//!
//! It is a current-thread [`Runtime`] paired with a [`LocalSet`]: every
//! `block_on` drives the set as well, and entering the runtime enters the
//! set, so that `task::spawn_local` works anywhere the runtime is current
//! on its own thread. `Send` tasks (`spawn`, `Handle::spawn`) still go to
//! the runtime's scheduler and may be spawned from any thread.

use super::handle::{EnterGuard, Handle};
use super::metrics::RuntimeMetrics;
use super::Runtime;
use crate::task::{JoinHandle, LocalSet};
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::time::Duration;

/// Options of [`Builder::build_local`](super::Builder::build_local); none
/// yet beyond the defaults.
#[derive(Default, Debug)]
#[non_exhaustive]
pub struct LocalOptions {
    /// Keeps the options `!Send`, like the runtime they build.
    _not_send: PhantomData<*mut ()>,
}

/// A current-thread runtime that is `!Send` and runs `!Send` tasks.
///
/// ```
/// use std::rc::Rc;
///
/// let rt = rt_core::runtime::LocalRuntime::new().unwrap();
/// let shared = Rc::new(5);
/// let copy = shared.clone();
/// let task = rt.spawn_local(async move { *copy + 1 });
/// assert_eq!(rt.block_on(task).unwrap(), 6);
/// rt.block_on(async move {
///     let doubled = rt_core::task::spawn_local(async move { *shared * 2 });
///     assert_eq!(doubled.await.unwrap(), 10);
/// });
/// ```
pub struct LocalRuntime {
    /// Dropped first, with the runtime current (see `Drop`).
    local: ManuallyDrop<LocalSet>,
    runtime: ManuallyDrop<Runtime>,
}

impl LocalRuntime {
    /// Pairs a freshly built current-thread runtime with the set of its
    /// `!Send` tasks.
    pub(crate) fn from_runtime(runtime: Runtime) -> LocalRuntime {
        LocalRuntime {
            local: ManuallyDrop::new(LocalSet::new()),
            runtime: ManuallyDrop::new(runtime),
        }
    }

    /// A local runtime with default settings and no drivers (rt's facade
    /// `LocalRuntime::new` adds I/O and time).
    pub fn new() -> std::io::Result<LocalRuntime> {
        super::Builder::new_current_thread().build_local(LocalOptions::default())
    }

    /// A handle to the runtime. It spawns `Send` tasks from any thread;
    /// `!Send` ones only through [`spawn_local`](Self::spawn_local) or
    /// `task::spawn_local` on this thread.
    pub fn handle(&self) -> &Handle {
        self.runtime.handle()
    }

    /// Spawns a `!Send` task; it runs during the next
    /// [`block_on`](Self::block_on).
    #[track_caller]
    pub fn spawn_local<F>(&self, future: F) -> JoinHandle<F::Output>
    where
        F: Future + 'static,
        F::Output: 'static,
    {
        self.local.spawn_local(future)
    }

    /// Runs a blocking closure on the runtime's blocking pool.
    #[track_caller]
    pub fn spawn_blocking<F, R>(&self, func: F) -> JoinHandle<R>
    where
        F: FnOnce() -> R + Send + 'static,
        R: Send + 'static,
    {
        self.runtime.spawn_blocking(func)
    }

    /// Runs `future` to completion on this thread, driving the runtime's
    /// tasks, `!Send` ones included, meanwhile.
    ///
    /// # Panics
    ///
    /// If this thread is already driving a runtime.
    #[track_caller]
    pub fn block_on<F: Future>(&self, future: F) -> F::Output {
        self.runtime.block_on(self.local.run_until(future))
    }

    /// Makes this runtime (and its set of `!Send` tasks) current on this
    /// thread until the guard drops.
    pub fn enter(&self) -> EnterGuard<'_> {
        self.runtime.enter().with_local(self.local.enter())
    }

    /// Shuts the runtime down, waiting at most `duration` for blocking
    /// closures that are still running.
    pub fn shutdown_timeout(mut self, duration: Duration) {
        self.drop_local_tasks();
        // SAFETY: `self` is forgotten right after, so `Drop` does not touch
        // the runtime again.
        let runtime = unsafe { ManuallyDrop::take(&mut self.runtime) };
        std::mem::forget(self);
        runtime.shutdown_timeout(duration);
    }

    /// Shuts the runtime down without waiting for blocking closures.
    pub fn shutdown_background(self) {
        self.shutdown_timeout(Duration::ZERO);
    }

    /// This runtime's counters; see [`RuntimeMetrics`].
    pub fn metrics(&self) -> RuntimeMetrics {
        self.runtime.metrics()
    }

    /// Cancels the `!Send` tasks, with the runtime current so that their
    /// futures may touch it (cancel timers, spawn) while being dropped.
    fn drop_local_tasks(&mut self) {
        let _current = super::context::try_set_current(&self.runtime.handle().inner);
        // SAFETY: called once, from `Drop` or `shutdown_timeout`, which
        // never touch `local` afterwards.
        unsafe { ManuallyDrop::drop(&mut self.local) };
    }
}

impl Drop for LocalRuntime {
    fn drop(&mut self) {
        self.drop_local_tasks();
        // SAFETY: dropped once, here; `shutdown_timeout` forgets `self`
        // after taking the runtime out.
        unsafe { ManuallyDrop::drop(&mut self.runtime) };
    }
}

// The same reasoning as for `Runtime`: all state shared with other threads
// is behind locks and atomics, and the set's own state is only touched on
// this thread, by calls that leave it consistent.
impl std::panic::UnwindSafe for LocalRuntime {}
impl std::panic::RefUnwindSafe for LocalRuntime {}

impl fmt::Debug for LocalRuntime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalRuntime")
            .field("handle", self.handle())
            .finish_non_exhaustive()
    }
}
