//! The runtime: a scheduler, a driver stack and a blocking pool, built
//! together by `Builder` and reached through `Handle` (feature `rt`).
//!
//! In every build this module also holds the driver seam ([`Driver`],
//! [`DriverHandles`], [`try_current_driver_handle`]) and
//! [`assert_can_block`], which resources and runtime-agnostic primitives
//! use whether or not this build can run a runtime: without `rt` no runtime
//! can exist, so the lookups find none and blocking is always allowed.
//!
//! Build order matters and is fixed: the driver first (resources register
//! with it), then the blocking pool (tasks may use it from their first
//! poll), then the scheduler that ties them together. Shutdown runs in
//! reverse: the scheduler cancels every task, the driver wakes whatever is
//! still registered, and the blocking pool waits for running closures.
//!
//! # Deterministic runs
//!
//! Every random choice a runtime makes (which `select!` branch goes first,
//! which worker to steal from) comes from per-thread generators derived
//! from one seed. [`Builder::rng_seed`] fixes it; without one, `build`
//! reads the `RT_SEED` environment variable (a decimal `u64`) and otherwise
//! picks a seed at random. [`Handle::rng_seed`] tells which seed a runtime
//! uses, so a failure seen once can be replayed with `RT_SEED=<seed>`. On
//! the current-thread flavor the same seed gives the same interleaving of
//! tasks, run after run.
//!
//! ```
//! use rt_core::runtime::{Builder, RngSeed};
//! use rt_core::util::rng::thread_rng_n;
//!
//! let picks = |seed| {
//!     let rt = Builder::new_current_thread().rng_seed(seed).build().unwrap();
//!     rt.block_on(async { (0..8).map(|_| thread_rng_n(100)).collect::<Vec<_>>() })
//! };
//! assert_eq!(picks(RngSeed::from_u64(3)), picks(RngSeed::from_u64(3)));
//! ```
//!
//! # Observing a runtime
//!
//! * [`Handle::dump`]: every live task, with its name, spawn location and
//!   state (names come from [`task::Builder`](crate::task::Builder)).
//! * [`Handle::metrics`]: scheduler counters; see [`RuntimeMetrics`].
//! * [`Builder::on_slow_poll`]: polls that hold a thread too long; see
//!   [`SlowPoll`].
//! * [`Builder::unhandled_panic`]: what a task panic does; see
//!   [`UnhandledPanic`].

mod blocking;
pub(crate) mod context;
mod driver;
pub(crate) mod metrics;
pub(crate) mod park;
mod shutdown_error;

pub use blocking::BlockingActivity;
pub use context::{assert_can_block, TryCurrentError};
pub use driver::{
    try_current_driver_handle, with_current_driver_handle, Driver, DriverHandles, Unpark,
};
pub use metrics::{IoDriverKind, IoDriverMetrics};
pub use park::{ParkThread, UnparkThread};
pub use shutdown_error::{is_rt_shutdown_err, shutdown_error};

cfg_rt! {
    mod builder;
    mod config;
    mod handle;
    mod id;
    mod local_runtime;
    #[allow(clippy::module_inception)]
    mod runtime;
    pub(crate) mod scheduler;
    mod slow_poll;
    mod spawn_policy;
    mod unhandled_panic;

    pub use builder::{Builder, RngSeed};
    pub use handle::{EnterGuard, Handle};
    pub use id::Id;
    pub use local_runtime::{LocalOptions, LocalRuntime};
    pub use metrics::{HistogramConfiguration, RuntimeMetrics};
    pub use runtime::{Runtime, RuntimeFlavor};
    pub use slow_poll::SlowPoll;
    pub use spawn_policy::BlockingPolicy;
    pub use unhandled_panic::{PanicCallback, UnhandledPanic};

    /// The index of the runtime worker the calling thread is, as
    /// `RuntimeMetrics`' per-worker methods number them: `Some(0)` on the
    /// thread driving a current-thread (or local) runtime, the worker's
    /// index on a multi-thread worker, and `None` elsewhere: on the blocking
    /// pool, on the thread blocked in a multi-thread `block_on` (it is no
    /// worker), and outside any runtime. A task may move between workers
    /// across `.await`s.
    ///
    /// ```
    /// use rt_core::runtime::{worker_index, Builder};
    ///
    /// assert_eq!(worker_index(), None);
    /// let rt = Builder::new_multi_thread().worker_threads(2).build().unwrap();
    /// let index = rt.block_on(rt.spawn(async { worker_index() })).unwrap();
    /// assert!(matches!(index, Some(0 | 1)));
    /// assert_eq!(rt.block_on(async { worker_index() }), None);
    /// ```
    pub fn worker_index() -> Option<usize> {
        scheduler::worker_index()
    }

    /// A hook run by the runtime on one of its threads.
    pub(crate) type Callback = std::sync::Arc<dyn Fn() + Send + Sync>;
}
