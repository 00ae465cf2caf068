//! The blocking pool: threads for work that blocks (file I/O, CPU-heavy
//! loops, synchronous libraries), so that it does not stall the workers.
//!
//! A blocking task is an ordinary task (so its `JoinHandle` behaves like any
//! other) whose future runs a closure once. It lives in no owned list:
//! shutdown cancels the ones still queued and waits, up to a timeout, for the
//! ones already running, which cannot be interrupted.
//!
//! The pool needs the `rt` feature; the count of closures in flight
//! ([`BlockingActivity`]) is part of the driver seam and always present.

mod activity;
#[cfg(all(test, loom, feature = "rt"))]
mod loom_models;
#[cfg(feature = "rt")]
mod pool;
#[cfg(feature = "rt")]
mod schedule;
#[cfg(feature = "rt")]
mod shared;
#[cfg(feature = "rt")]
mod task;

pub use activity::BlockingActivity;
#[cfg(feature = "rt")]
pub(crate) use pool::{BlockingPool, PoolConfig, Spawner};
