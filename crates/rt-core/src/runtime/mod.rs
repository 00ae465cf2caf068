//! The runtime: a scheduler, a driver stack and a blocking pool, built
//! together by [`Builder`] and reached through [`Handle`].
//!
//! Build order matters and is fixed: the driver first (resources register
//! with it), then the blocking pool (tasks may use it from their first
//! poll), then the scheduler that ties them together. Shutdown runs in
//! reverse: the scheduler cancels every task, the driver wakes whatever is
//! still registered, and the blocking pool waits for running closures.

mod blocking;
mod builder;
mod config;
pub(crate) mod context;
mod driver;
mod handle;
pub(crate) mod metrics;
mod park;
#[allow(clippy::module_inception)]
mod runtime;
pub(crate) mod scheduler;
mod slow_poll;
mod unhandled_panic;

pub use builder::{Builder, RngSeed};
pub use context::TryCurrentError;
pub use driver::{Driver, DriverHandles, Unpark};
pub use handle::{EnterGuard, Handle};
pub use metrics::{HistogramConfiguration, RuntimeMetrics};
pub use park::{ParkThread, UnparkThread};
pub use runtime::{Runtime, RuntimeFlavor};
pub use slow_poll::SlowPoll;
pub use unhandled_panic::{PanicCallback, UnhandledPanic};

/// A hook run by the runtime on one of its threads.
pub(crate) type Callback = std::sync::Arc<dyn Fn() + Send + Sync>;
