//! `Handle`: a cloneable reference to a runtime, usable from any thread.

use super::context;
use super::scheduler::{self, current_thread};
use super::RuntimeFlavor;
use super::TryCurrentError;
use crate::task::{Id, JoinHandle};
use std::any::Any;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;

/// A handle to a runtime: spawns onto it and enters it from anywhere.
#[derive(Clone)]
pub struct Handle {
    pub(crate) inner: scheduler::Handle,
}

/// Keeps a runtime current on this thread; see [`Handle::enter`].
#[must_use = "the runtime is only current while the guard is alive"]
pub struct EnterGuard<'a> {
    _guard: context::SetCurrentGuard,
    _handle: PhantomData<&'a Handle>,
}

impl Handle {
    /// The handle of the runtime this thread is in.
    ///
    /// # Panics
    ///
    /// Outside a runtime's context. See [`try_current`](Self::try_current).
    #[track_caller]
    pub fn current() -> Handle {
        match Handle::try_current() {
            Ok(handle) => handle,
            Err(e) => panic!("{e}"),
        }
    }

    /// The handle of the runtime this thread is in, or an error outside one.
    pub fn try_current() -> Result<Handle, TryCurrentError> {
        context::with_current(|inner| Handle {
            inner: inner.clone(),
        })
    }

    /// Makes this runtime current on this thread until the guard drops.
    ///
    /// # Panics
    ///
    /// When guards are dropped in another order than they were taken.
    pub fn enter(&self) -> EnterGuard<'_> {
        EnterGuard {
            _guard: context::set_current(&self.inner),
            _handle: PhantomData,
        }
    }

    /// Spawns a task onto this runtime.
    #[track_caller]
    pub fn spawn<F>(&self, future: F) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        self.inner.spawn(future, Id::next())
    }

    /// Runs a blocking closure on this runtime's blocking pool.
    #[track_caller]
    pub fn spawn_blocking<F, R>(&self, func: F) -> JoinHandle<R>
    where
        F: FnOnce() -> R + Send + 'static,
        R: Send + 'static,
    {
        self.inner.spawn_blocking(func)
    }

    /// Runs `future` to completion on this thread, driving the runtime's
    /// tasks while the thread holds the scheduler.
    ///
    /// # Panics
    ///
    /// If this thread is already driving a runtime.
    #[track_caller]
    pub fn block_on<F: Future>(&self, future: F) -> F::Output {
        let _enter = context::enter_runtime(&self.inner, false);
        match &self.inner {
            scheduler::Handle::CurrentThread(h) => current_thread::Handle::block_on(h, future),
            scheduler::Handle::MultiThread(h) => {
                super::park::block_on_thread(future, h.common.config.budget)
            }
        }
    }

    /// Which scheduler this runtime uses.
    pub fn runtime_flavor(&self) -> RuntimeFlavor {
        match self.inner {
            scheduler::Handle::CurrentThread(_) => RuntimeFlavor::CurrentThread,
            scheduler::Handle::MultiThread(_) => RuntimeFlavor::MultiThread,
        }
    }

    /// The handle a driver layer published, by type: how rt-io and rt-time
    /// resources find their driver without rt-core knowing them.
    pub fn driver_handle<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        self.inner.common().driver_handles.get::<T>()
    }

    /// Number of tasks alive on this runtime (spawned and not yet finished).
    pub fn num_alive_tasks(&self) -> usize {
        match &self.inner {
            scheduler::Handle::CurrentThread(h) => h.num_alive_tasks(),
            scheduler::Handle::MultiThread(h) => h.num_alive_tasks(),
        }
    }

    /// Number of worker threads (1 for the current-thread runtime).
    pub fn num_workers(&self) -> usize {
        match &self.inner {
            scheduler::Handle::CurrentThread(_) => 1,
            scheduler::Handle::MultiThread(h) => h.num_workers(),
        }
    }
}

impl fmt::Debug for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handle")
            .field("flavor", &self.runtime_flavor())
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for EnterGuard<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EnterGuard").finish_non_exhaustive()
    }
}
