//! `Runtime`: owns the scheduler and the blocking pool, and shuts both down
//! when dropped.

use super::blocking::BlockingPool;
use super::context::{self, EnterRuntime};
use super::handle::{EnterGuard, Handle};
use super::metrics::RuntimeMetrics;
use super::scheduler::{self, current_thread};
use crate::task::JoinHandle;
use std::fmt;
use std::future::Future;
use std::time::Duration;

/// A running runtime: a scheduler, its drivers and a blocking pool.
///
/// Dropping it cancels every task (each future is dropped exactly once),
/// shuts the drivers down and waits for running blocking closures; see
/// [`shutdown_timeout`](Self::shutdown_timeout) to bound that wait.
pub struct Runtime {
    handle: Handle,
    blocking_pool: BlockingPool,
    shut_down: bool,
}

/// Which scheduler a runtime uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RuntimeFlavor {
    /// Every task runs on the thread that calls `block_on`.
    CurrentThread,
    /// Tasks run on a pool of worker threads that steal from each other.
    MultiThread,
}

impl Runtime {
    pub(crate) fn from_parts(handle: Handle, blocking_pool: BlockingPool) -> Runtime {
        Runtime {
            handle,
            blocking_pool,
            shut_down: false,
        }
    }

    /// A multi-thread runtime with default settings and no drivers
    /// (feature `rt-multi-thread`). The facade's `rt::runtime::Runtime::new`
    /// adds I/O and time, which rt-core does not know.
    #[cfg(feature = "rt-multi-thread")]
    pub fn new() -> std::io::Result<Runtime> {
        super::Builder::new_multi_thread().build()
    }

    /// Runs `future` to completion on the current thread, driving the
    /// runtime's tasks meanwhile.
    ///
    /// # Panics
    ///
    /// If called from a thread that is already driving a runtime (inside an
    /// async context): blocking there would stall that runtime's tasks.
    ///
    /// ```
    /// let rt = rt_core::runtime::Runtime::new().unwrap();
    /// let answer = rt.block_on(async {
    ///     let task = rt_core::spawn(async { 40 });
    ///     task.await.unwrap() + 2
    /// });
    /// assert_eq!(answer, 42);
    /// ```
    #[track_caller]
    pub fn block_on<F: Future>(&self, future: F) -> F::Output {
        let allow_block_in_place = self.handle.runtime_flavor() != RuntimeFlavor::CurrentThread;
        self.handle.block_on_allowing(future, allow_block_in_place)
    }

    /// Spawns a task on this runtime. On the multi-thread runtime it starts
    /// at once on a worker; on the current-thread runtime, at the next
    /// `block_on`.
    #[track_caller]
    pub fn spawn<F>(&self, future: F) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        self.handle.spawn(future)
    }

    /// Runs a blocking closure on the runtime's blocking pool.
    #[track_caller]
    pub fn spawn_blocking<F, R>(&self, func: F) -> JoinHandle<R>
    where
        F: FnOnce() -> R + Send + 'static,
        R: Send + 'static,
    {
        self.handle.spawn_blocking(func)
    }

    /// A handle to this runtime.
    pub fn handle(&self) -> &Handle {
        &self.handle
    }

    /// Makes this runtime current on this thread until the guard drops, so
    /// that `spawn` and resource constructors find it.
    pub fn enter(&self) -> EnterGuard<'_> {
        self.handle.enter()
    }

    /// Shuts the runtime down, waiting at most `duration` for blocking
    /// closures that are still running (they are left to finish on their
    /// own).
    pub fn shutdown_timeout(mut self, duration: Duration) {
        self.shutdown(Some(duration));
    }

    /// This runtime's counters; the same as `self.handle().metrics()`.
    pub fn metrics(&self) -> RuntimeMetrics {
        self.handle.metrics()
    }

    /// Shuts the runtime down without waiting for blocking closures.
    pub fn shutdown_background(self) {
        self.shutdown_timeout(Duration::ZERO);
    }

    fn shutdown(&mut self, timeout: Option<Duration>) {
        if self.shut_down {
            return;
        }
        self.shut_down = true;
        // Tasks (and queued blocking closures) are dropped below, on this
        // thread; their destructors may spawn or create timers, which need
        // the runtime to be current. A spawn then finds the task list
        // closed and gets a task that is cancelled at once. (A runtime
        // dropped by a thread-local destructor may outlive the context.)
        let _current = context::try_set_current(&self.handle.inner);
        match &self.handle.inner {
            scheduler::Handle::CurrentThread(h) => current_thread::Handle::shutdown(h),
            #[cfg(feature = "rt-multi-thread")]
            scheduler::Handle::MultiThread(h) => {
                h.shutdown();
                if h.wait_for_workers(timeout) {
                    h.join_threads(timeout.is_none());
                }
            }
        }
        self.blocking_pool.shutdown(timeout);
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        if self.shut_down {
            return;
        }
        if let EnterRuntime::Entered { .. } = context::runtime_entered() {
            if !std::thread::panicking() {
                panic!(
                    "Cannot drop a runtime in a context where blocking is not allowed. This \
                     happens when a runtime is dropped from within an asynchronous context."
                );
            }
            // Unwinding already: do not wait on anything.
            self.shutdown(Some(Duration::ZERO));
            return;
        }
        self.shutdown(None);
    }
}

// As for `Handle`: the runtime's state is shared and kept consistent by
// locks and atomics, so a caught panic cannot expose a broken invariant.
impl std::panic::UnwindSafe for Runtime {}
impl std::panic::RefUnwindSafe for Runtime {}

impl fmt::Debug for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Runtime")
            .field("flavor", &self.handle.runtime_flavor())
            .finish_non_exhaustive()
    }
}
