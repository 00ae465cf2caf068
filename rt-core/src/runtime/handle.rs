//! `Handle`: a cloneable reference to a runtime, usable from any thread.

use super::context;
use super::metrics::RuntimeMetrics;
use super::scheduler::{self, current_thread};
use super::TryCurrentError;
use super::{RngSeed, RuntimeFlavor};
use crate::task::{Dump, Id, JoinHandle, LocalEnterGuard};
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
    /// A `LocalRuntime`'s set of `!Send` tasks, entered after the runtime
    /// and so left first (fields drop in order).
    _local: Option<LocalEnterGuard>,
    _guard: context::SetCurrentGuard,
    _handle: PhantomData<&'a Handle>,
}

// SAFETY: a guard only restores the thread's previous context when it is
// dropped, on the thread that made it (it is not `Send`). It has no method
// that reads its fields through `&self`, so a shared reference on another
// thread can reach nothing: the `Rc` and thread-bound markers inside the
// `LocalRuntime` part are never touched through it. tokio's guard is `Sync`
// too, and code written for it may hold one across an `.await` in a future
// that must be `Sync`.
unsafe impl Sync for EnterGuard<'_> {}

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
            _local: None,
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
        // The blocked thread is no worker of a multi-thread runtime: it
        // holds no queue that `block_in_place` would have to hand off, so
        // blocking inside the future is allowed, as in tokio (on the
        // current-thread flavor too, where the closure simply runs outside
        // the runtime context).
        self.block_on_allowing(future, true)
    }

    /// `block_on`, saying whether `block_in_place` may be called inside:
    /// `Runtime::block_on` of the current-thread flavor refuses it, as
    /// tokio's does, since there the thread is the runtime's only worker.
    #[track_caller]
    pub(crate) fn block_on_allowing<F: Future>(
        &self,
        future: F,
        allow_block_in_place: bool,
    ) -> F::Output {
        let _enter = context::enter_runtime(&self.inner, allow_block_in_place);
        match &self.inner {
            scheduler::Handle::CurrentThread(h) => current_thread::Handle::block_on(h, future),
            #[cfg(feature = "rt-multi-thread")]
            scheduler::Handle::MultiThread(h) => {
                crate::util::block_on_with_budget(future, h.common.config.budget)
            }
        }
    }

    /// Which scheduler this runtime uses.
    pub fn runtime_flavor(&self) -> RuntimeFlavor {
        match self.inner {
            scheduler::Handle::CurrentThread(_) => RuntimeFlavor::CurrentThread,
            #[cfg(feature = "rt-multi-thread")]
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
        self.inner.num_alive_tasks()
    }

    /// Number of worker threads (1 for the current-thread runtime).
    pub fn num_workers(&self) -> usize {
        self.inner.num_workers()
    }

    /// The seed of this runtime's random choices: the one given to
    /// [`Builder::rng_seed`](super::Builder::rng_seed), else `RT_SEED`, else
    /// the one picked at build. Building another runtime with it replays
    /// the same choices (on the current-thread flavor, the same
    /// interleaving).
    ///
    /// ```
    /// use rt_core::runtime::{Builder, RngSeed};
    ///
    /// let rt = Builder::new_current_thread()
    ///     .rng_seed(RngSeed::from_u64(7))
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(rt.handle().rng_seed(), RngSeed::from_u64(7));
    /// ```
    pub fn rng_seed(&self) -> RngSeed {
        self.inner.common().config.seed
    }

    /// A snapshot of every live task of this runtime: id, name, spawn
    /// location, state, poll count, time since the last poll and, for an
    /// idle task, where it waits ([`TaskInfo::trace`](crate::task::TaskInfo::trace)).
    /// Tasks of a `LocalSet` belong to the set, not the runtime, and are
    /// not listed: see [`LocalSet::dump`](crate::task::LocalSet::dump).
    ///
    /// Taking a dump briefly holds each shard lock of the task list, which
    /// spawning and completing also take, then polls each idle task once in
    /// trace mode, on the calling thread (see [`Dump`]); the poll path is
    /// not affected. The first dump of a process loads the symbols (a
    /// fraction of a second). As the idle tasks' futures run their `poll`
    /// on the calling thread, do not take a dump while holding a lock that
    /// one of them takes in its `poll`.
    ///
    /// ```
    /// use rt_core::task::{self, TaskState};
    ///
    /// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
    /// let _pending = task::Builder::new()
    ///     .name("sleeper")
    ///     .spawn_on(std::future::pending::<()>(), rt.handle())
    ///     .unwrap();
    /// rt.block_on(task::yield_now());
    /// let dump = rt.handle().dump();
    /// let info = &dump.tasks()[0];
    /// assert_eq!(info.name(), Some("sleeper"));
    /// assert_eq!(info.state(), TaskState::Idle);
    /// assert_eq!(info.poll_count(), 1);
    /// // `pending()` is no rt resource: the trace names the task's future.
    /// assert!(info.trace().unwrap().root().contains("Pending"));
    /// println!("{dump}");
    /// ```
    pub fn dump(&self) -> Dump {
        self.inner.dump()
    }

    /// This runtime's counters; see [`RuntimeMetrics`].
    pub fn metrics(&self) -> RuntimeMetrics {
        RuntimeMetrics::new(self.inner.clone())
    }

    /// This runtime's id: equal for every handle of one runtime, different
    /// between runtimes.
    pub fn id(&self) -> super::Id {
        self.inner.common().id
    }

    /// The name given to [`Builder::name`](super::Builder::name), if any.
    pub fn name(&self) -> Option<&str> {
        self.inner.common().config.name.as_deref()
    }
}

// A handle holds only shared, thread-safe state (the scheduler's queues and
// the drivers' handles, all behind locks and atomics): a panic caught while
// one is in use leaves nothing half-updated that the next user could see.
impl std::panic::UnwindSafe for Handle {}
impl std::panic::RefUnwindSafe for Handle {}

impl fmt::Debug for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handle")
            .field("flavor", &self.runtime_flavor())
            .field("id", &self.id())
            .field("name", &self.name())
            .finish_non_exhaustive()
    }
}

impl EnterGuard<'_> {
    /// Keeps `local` entered for as long as the runtime.
    pub(crate) fn with_local(mut self, local: LocalEnterGuard) -> Self {
        self._local = Some(local);
        self
    }
}

impl fmt::Debug for EnterGuard<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EnterGuard").finish_non_exhaustive()
    }
}
