//! The facade's `Runtime`: rt-core's, with a `new()` that enables every
//! driver.

use std::fmt;
use std::ops::Deref;
use std::time::Duration;

/// A running runtime: a scheduler, its drivers and a blocking pool.
///
/// It is rt-core's runtime (every method of which it lends through
/// `Deref`: `block_on`, `spawn`, `spawn_blocking`, `handle`, `enter`,
/// `metrics`) built with the drivers that only the facade knows, so that
/// [`Runtime::new`] enables I/O and time as tokio's does. `Deref` also lets
/// it go wherever rt-core's is expected, as in `LocalSet::block_on(&rt, ..)`.
///
/// Dropping it cancels every task, shuts the drivers down and waits for
/// running blocking closures; see [`shutdown_timeout`](Self::shutdown_timeout)
/// to bound that wait.
///
/// ```
/// let rt = rt::runtime::Runtime::new().unwrap();
/// let slept = rt.block_on(async {
///     rt::time::sleep(std::time::Duration::from_millis(1)).await;
///     rt::spawn(async { "slept" }).await.unwrap()
/// });
/// assert_eq!(slept, "slept");
/// ```
pub struct Runtime {
    inner: rt_core::runtime::Runtime,
    /// `Builder::dump_on_signal`'s listener, which stops with the runtime.
    #[cfg(all(unix, feature = "signal"))]
    _dump_on_signal: Option<std::sync::Arc<super::dump_on_signal::DumpOnSignal>>,
}

impl Runtime {
    pub(super) fn from_core(inner: rt_core::runtime::Runtime) -> Runtime {
        Runtime {
            inner,
            #[cfg(all(unix, feature = "signal"))]
            _dump_on_signal: None,
        }
    }

    /// This runtime, writing its dump on each delivery `dumper` listens to.
    #[cfg(all(unix, feature = "signal"))]
    pub(super) fn dumping_on_signal(
        mut self,
        dumper: std::sync::Arc<super::dump_on_signal::DumpOnSignal>,
    ) -> Runtime {
        self._dump_on_signal = Some(dumper);
        self
    }

    /// A multi-thread runtime with every driver (I/O, time) enabled: the
    /// same as `Builder::new_multi_thread().enable_all().build()`.
    #[cfg(feature = "rt-multi-thread")]
    pub fn new() -> std::io::Result<Runtime> {
        super::Builder::new_multi_thread().enable_all().build()
    }

    /// Shuts the runtime down, waiting at most `duration` for blocking
    /// closures that are still running.
    pub fn shutdown_timeout(self, duration: Duration) {
        self.inner.shutdown_timeout(duration);
    }

    /// Shuts the runtime down without waiting for blocking closures.
    pub fn shutdown_background(self) {
        self.inner.shutdown_background();
    }
}

impl Deref for Runtime {
    type Target = rt_core::runtime::Runtime;

    fn deref(&self) -> &rt_core::runtime::Runtime {
        &self.inner
    }
}

impl fmt::Debug for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}
