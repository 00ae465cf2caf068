//! Runtimes with both rt-io's reactor and rt-time's timers, of either
//! flavor, and a timeout that turns a missed wake-up into a failed test.

use rt_core::runtime::{Builder, Runtime};
use std::future::Future;
use std::time::Duration;

/// The most a readiness wait in a test may take. Loopback and local
/// sockets are ready within microseconds; the margin is for a loaded
/// machine.
pub const READY_BOUND: Duration = Duration::from_secs(10);

/// A current-thread runtime with the reactor and real-clock timers.
pub fn io_time_runtime() -> Runtime {
    Builder::new_current_thread()
        .base_driver(rt_io::reactor::base_driver())
        .driver_layer(rt_time::driver_layer(false))
        .build()
        .expect("a current-thread runtime with I/O and time builds")
}

/// A two-worker multi-thread runtime with the reactor and real-clock
/// timers.
pub fn io_time_runtime_multi_thread() -> Runtime {
    Builder::new_multi_thread()
        .worker_threads(2)
        .base_driver(rt_io::reactor::base_driver())
        .driver_layer(rt_time::driver_layer(false))
        .build()
        .expect("a multi-thread runtime with I/O and time builds")
}

/// Runs `fut` under [`READY_BOUND`], failing the test (naming `what`) if
/// it is not woken in time: a lost wake-up fails instead of hanging.
pub async fn bounded<F: Future>(what: &str, fut: F) -> F::Output {
    match rt_time::timeout(READY_BOUND, fut).await {
        Ok(out) => out,
        Err(_) => panic!("{what} was not woken within {READY_BOUND:?}"),
    }
}
