//! The blocking pool: threads for work that blocks (file I/O, CPU-heavy
//! loops, synchronous libraries), so that it does not stall the workers.
//!
//! A blocking task is an ordinary task (so its `JoinHandle` behaves like any
//! other) whose future runs a closure once. It lives in no owned list.
//! Shutdown lets each thread already committed to the queue (busy, just
//! started, or just woken for a task) run one more queued task, as tokio's
//! pool does, so that a task spawned just before shutdown still runs; it
//! cancels the rest of the queue and waits, up to a timeout, for the ones
//! running, which cannot be interrupted.
//!
//! The pool needs the `rt` feature; the count of closures in flight
//! ([`BlockingActivity`]) is part of the driver seam and always present.

mod activity;

pub use activity::BlockingActivity;

cfg_rt! {
    #[cfg(all(test, loom))]
    mod loom_models;
    mod pool;
    mod schedule;
    mod shared;
    mod task;

    pub(crate) use pool::{BlockingPool, PoolConfig, Spawner};
}
