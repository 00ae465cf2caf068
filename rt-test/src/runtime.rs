//! Runtimes for the tests that need one, and the seeded random generator
//! for tests of random choices.

use rt_core::runtime::{Builder, Runtime};
use rt_core::util::rng::{replace_thread_rng, FastRand};
use std::future::Future;

/// A current-thread runtime with no drivers.
pub fn runtime() -> Runtime {
    Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime builds")
}

/// Runs `future` to completion on a fresh current-thread runtime: the
/// runtime's own `block_on`, for futures that spawn tasks or need a
/// runtime context.
///
/// ```
/// let out = rt_test::run(async { rt_core::spawn(async { 5 }).await.unwrap() });
/// assert_eq!(out, 5);
/// ```
pub fn run<F: Future>(future: F) -> F::Output {
    runtime().block_on(future)
}

/// Runs `future` to completion on a fresh multi-thread runtime with two
/// workers.
pub fn run_multi_thread<F: Future>(future: F) -> F::Output {
    Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .expect("a multi-thread runtime builds")
        .block_on(future)
}

/// A current-thread runtime with rt-time's timers, on a paused clock when
/// `paused` (time moves only when every task waits) or on the real one.
#[cfg(feature = "time")]
pub fn time_runtime(paused: bool) -> Runtime {
    Builder::new_current_thread()
        .driver_layer(rt_time::driver_layer(paused))
        .build()
        .expect("a current-thread runtime with timers builds")
}

/// Installs a generator seeded with `seed` on this thread, so that random
/// choices made on it (`StreamMap`'s starting point, `select!`'s order)
/// repeat run after run.
pub fn seed_thread_rng(seed: u64) {
    replace_thread_rng(Some(FastRand::from_seed(seed)));
}
