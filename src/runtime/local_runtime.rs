//! The facade's `LocalRuntime`: rt-core's, with a `new()` that enables
//! every driver.

use std::fmt;
use std::io;
use std::ops::Deref;
use std::time::Duration;

/// A current-thread runtime that is `!Send` and runs `!Send` tasks
/// (`spawn_local`) beside `Send` ones.
///
/// Like [`Runtime`](super::Runtime), it is rt-core's (lending its methods
/// through `Deref`: `block_on`, `spawn_local`, `spawn_blocking`, `handle`,
/// `enter`, `metrics`) built with the facade's drivers, so that
/// [`LocalRuntime::new`] enables I/O and time.
///
/// ```
/// let rt = rt::runtime::LocalRuntime::new().unwrap();
/// let shared = std::rc::Rc::new(2);
/// rt.block_on(async move {
///     let task = rt::task::spawn_local(async move { *shared + 1 });
///     rt::time::sleep(std::time::Duration::from_millis(1)).await;
///     assert_eq!(task.await.unwrap(), 3);
/// });
/// ```
pub struct LocalRuntime {
    inner: rt_core::runtime::LocalRuntime,
}

impl LocalRuntime {
    pub(super) fn from_core(inner: rt_core::runtime::LocalRuntime) -> LocalRuntime {
        LocalRuntime { inner }
    }

    /// A local runtime with every driver (I/O, time) enabled: the same as
    /// `Builder::new_current_thread().enable_all().build_local(Default::default())`.
    pub fn new() -> io::Result<LocalRuntime> {
        super::Builder::new_current_thread()
            .enable_all()
            .build_local(Default::default())
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

impl Deref for LocalRuntime {
    type Target = rt_core::runtime::LocalRuntime;

    fn deref(&self) -> &rt_core::runtime::LocalRuntime {
        &self.inner
    }
}

impl fmt::Debug for LocalRuntime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}
