//! Runtime metrics: counters the schedulers keep about themselves, read
//! through [`Handle::metrics`](super::Handle::metrics).
//!
//! The I/O driver's counters ([`IoDriverMetrics`]) belong to the driver
//! seam and exist in every build; the rest needs the `rt` feature.

#[cfg(feature = "rt")]
mod histogram;
mod io;
#[cfg(all(test, loom, feature = "rt"))]
mod loom_models;
#[cfg(feature = "rt")]
mod runtime;
#[cfg(feature = "rt")]
mod worker;

#[cfg(feature = "rt")]
pub use histogram::HistogramConfiguration;
pub use io::IoDriverMetrics;
#[cfg(feature = "rt")]
pub use runtime::RuntimeMetrics;
#[cfg(feature = "rt")]
pub(crate) use worker::{WorkerClock, WorkerMetrics};
