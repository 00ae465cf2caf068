//! The schedulers, behind one `Handle` enum so that the rest of the runtime
//! does not care which flavor it talks to. The multi-thread flavor exists
//! only with the `rt-multi-thread` feature.

pub(crate) mod current_thread;
pub(crate) mod inject;
#[cfg(feature = "rt-multi-thread")]
pub(crate) mod multi_thread;

use super::blocking::Spawner;
use super::config::Config;
use super::driver::{DriverHandles, Unpark};
use super::metrics::WorkerMetrics;
use super::slow_poll::SlowPoll;
use super::BlockingPolicy;
use super::UnhandledPanic;
use crate::loom::sync::atomic::Ordering;
use crate::task::dump::Dump;
use crate::task::{Id, JoinHandle, Origin};
use crate::util::rng::SeedGenerator;
use std::any::Any;
use std::future::Future;
use std::panic::Location;
// `std`'s `Arc`: `Arc<dyn Unpark>` and the waker handles (see `crate::loom`).
use std::sync::Arc;
use std::time::Instant;

/// A cloneable reference to a running scheduler.
#[derive(Clone)]
pub(crate) enum Handle {
    CurrentThread(Arc<current_thread::Handle>),
    #[cfg(feature = "rt-multi-thread")]
    MultiThread(Arc<multi_thread::Handle>),
}

/// What a thread driving a scheduler keeps in its thread-local context.
pub(crate) enum Context {
    CurrentThread(current_thread::Context),
    #[cfg(feature = "rt-multi-thread")]
    MultiThread(multi_thread::Context),
}

/// The index of the worker the calling thread runs: `Some(0)` on the
/// thread driving a current-thread runtime, the worker's index on a
/// multi-thread worker, `None` elsewhere (the blocking pool, the thread of
/// a multi-thread `block_on`, threads outside any runtime).
pub(crate) fn worker_index() -> Option<usize> {
    crate::runtime::context::with_scheduler(|cx| match cx? {
        Context::CurrentThread(_) => Some(0),
        #[cfg(feature = "rt-multi-thread")]
        Context::MultiThread(cx) => cx.worker_index(),
    })
}

/// What every flavor shares: the driver's handles, the blocking pool, the
/// configuration.
pub(crate) struct Common {
    /// This runtime's id, fixed at build.
    pub(crate) id: super::Id,
    pub(crate) unpark: Arc<dyn Unpark>,
    pub(crate) driver_handles: DriverHandles,
    pub(crate) blocking: Spawner,
    pub(crate) seed_generator: SeedGenerator,
    pub(crate) config: Config,
}

impl Common {
    /// What both flavors do when a task panics, besides their own
    /// `ShutdownRuntime` handling.
    pub(crate) fn report_panic(&self, id: Id, payload: &(dyn Any + Send)) {
        if let UnhandledPanic::Callback(callback) = &self.config.unhandled_panic {
            callback.call(id, payload);
        }
    }

    /// What both flavors do after a timed poll, besides recording it in the
    /// polling worker's histogram.
    pub(crate) fn check_slow_poll(&self, poll: &SlowPoll<'_>) {
        if let Some(hook) = &self.config.slow_poll {
            hook.check(poll);
        }
    }
}

impl Handle {
    pub(crate) fn common(&self) -> &Common {
        match self {
            Handle::CurrentThread(h) => &h.common,
            #[cfg(feature = "rt-multi-thread")]
            Handle::MultiThread(h) => &h.common,
        }
    }

    pub(crate) fn num_workers(&self) -> usize {
        match self {
            Handle::CurrentThread(_) => 1,
            #[cfg(feature = "rt-multi-thread")]
            Handle::MultiThread(h) => h.num_workers(),
        }
    }

    pub(crate) fn num_alive_tasks(&self) -> usize {
        match self {
            Handle::CurrentThread(h) => h.num_alive_tasks(),
            #[cfg(feature = "rt-multi-thread")]
            Handle::MultiThread(h) => h.num_alive_tasks(),
        }
    }

    pub(crate) fn global_queue_depth(&self) -> usize {
        match self {
            Handle::CurrentThread(h) => h.global_queue_depth(),
            #[cfg(feature = "rt-multi-thread")]
            Handle::MultiThread(h) => h.global_queue_depth(),
        }
    }

    /// # Panics
    ///
    /// If `worker` is out of range.
    #[track_caller]
    pub(crate) fn worker_metrics(&self, worker: usize) -> &WorkerMetrics {
        match self {
            Handle::CurrentThread(h) => {
                assert_eq!(worker, 0, "worker index out of range");
                h.metrics()
            }
            #[cfg(feature = "rt-multi-thread")]
            Handle::MultiThread(h) => h.worker_metrics(worker),
        }
    }

    #[track_caller]
    pub(crate) fn worker_local_queue_depth(&self, worker: usize) -> usize {
        match self {
            Handle::CurrentThread(h) => {
                assert_eq!(worker, 0, "worker index out of range");
                h.metrics().local_queue_depth.load(Ordering::Relaxed)
            }
            #[cfg(feature = "rt-multi-thread")]
            Handle::MultiThread(h) => h.worker_local_queue_depth(worker),
        }
    }

    pub(crate) fn dump(&self) -> Dump {
        let now = Instant::now();
        let tasks = match self {
            Handle::CurrentThread(h) => h.hold_tasks(),
            #[cfg(feature = "rt-multi-thread")]
            Handle::MultiThread(h) => h.hold_tasks(),
        };
        Dump::take(tasks, now)
    }

    pub(crate) fn seed_generator(&self) -> &SeedGenerator {
        &self.common().seed_generator
    }

    #[track_caller]
    pub(crate) fn spawn<F>(&self, future: F, id: Id) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        self.spawn_with_origin(future, id, Origin::new(Location::caller(), None))
    }

    /// `spawn` with the user's spawn location and an optional task name
    /// (shown in task dumps), packed in one word. Inline: every spawn
    /// comes through here, and a call per spawn is measurable.
    #[inline]
    pub(crate) fn spawn_with_origin<F>(
        &self,
        future: F,
        id: Id,
        origin: Origin,
    ) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let join = match self {
            Handle::CurrentThread(h) => current_thread::Handle::spawn(h, future, id, origin),
            #[cfg(feature = "rt-multi-thread")]
            Handle::MultiThread(h) => multi_thread::Handle::spawn(h, future, id, origin),
        };
        if let Some(hook) = &self.common().config.on_spawn {
            hook(&join.abort_handle());
        }
        join
    }

    #[track_caller]
    pub(crate) fn spawn_blocking<F, R>(&self, func: F) -> JoinHandle<R>
    where
        F: FnOnce() -> R + Send + 'static,
        R: Send + 'static,
    {
        if self.common().config.blocking == BlockingPolicy::Inline {
            let origin = Origin::new(Location::caller(), None);
            return self.spawn_with_origin(async move { func() }, Id::next(), origin);
        }
        self.common().blocking.spawn_blocking(self, func)
    }
}
