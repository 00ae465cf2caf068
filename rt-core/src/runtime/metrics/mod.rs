//! Runtime metrics: counters the schedulers keep about themselves, read
//! through [`Handle::metrics`](super::Handle::metrics).
//!
//! The I/O driver's counters ([`IoDriverMetrics`]) belong to the driver
//! seam and exist in every build; the rest needs the `rt` feature.

#[cfg(feature = "rt")]
mod histogram;
mod io;

pub use io::{IoDriverKind, IoDriverMetrics};

cfg_rt! {
    #[cfg(all(test, loom))]
    mod loom_models;
    mod runtime;
    mod worker;

    pub use histogram::HistogramConfiguration;
    pub use runtime::RuntimeMetrics;
    pub(crate) use worker::{WorkerClock, WorkerMetrics};
}
