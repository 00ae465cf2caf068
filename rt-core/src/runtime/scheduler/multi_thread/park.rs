//! Parking a worker: on the shared driver if it is free, otherwise on the
//! worker's own condvar (the policy is `runtime/park.rs`'s).
//!
//! One worker at a time owns the driver (a try-lock); it blocks in the
//! driver's `park`, so I/O events and timers are processed by whichever
//! worker happens to be idle. The others sleep on their condvars. The
//! parker's state word says which, so that `unpark` uses the right
//! mechanism.

use crate::loom::sync::{Arc, Mutex};
use crate::runtime::driver::{Driver, Unpark};
use crate::runtime::park::CondvarParker;
use std::time::Duration;

/// The driver shared by every worker of one runtime.
pub(crate) struct SharedDriver {
    driver: Mutex<Option<Box<dyn Driver>>>,
    unpark: std::sync::Arc<dyn Unpark>,
}

/// One worker's parker.
#[derive(Clone)]
pub(crate) struct Parker {
    inner: Arc<Inner>,
}

struct Inner {
    parker: CondvarParker,
    shared: std::sync::Arc<SharedDriver>,
}

impl SharedDriver {
    pub(crate) fn new(driver: Box<dyn Driver>) -> SharedDriver {
        let unpark = driver.unparker();
        SharedDriver {
            driver: Mutex::new(Some(driver)),
            unpark,
        }
    }

    /// Wakes whichever worker blocks on the driver, if one does (otherwise
    /// the next driver park returns at once).
    pub(crate) fn unpark_driver(&self) {
        self.unpark.unpark();
    }

    /// Shuts the driver down once (the last worker out calls this).
    pub(crate) fn shutdown(&self) {
        let mut guard = self.driver.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(driver) = guard.as_mut() {
            driver.shutdown();
        }
    }
}

impl Parker {
    pub(crate) fn new(shared: std::sync::Arc<SharedDriver>) -> Parker {
        Parker {
            inner: Arc::new(Inner {
                parker: CondvarParker::new(),
                shared,
            }),
        }
    }

    /// Blocks until unparked (or, on the driver, until an event or timeout).
    pub(crate) fn park(&self, timeout: Option<Duration>) {
        self.park_watching(timeout, &NoWatch);
    }

    /// Like [`park`](Parker::park), but when this worker gets the driver,
    /// `watch` may shorten the time it blocks there (see `lifo_watch.rs`).
    pub(crate) fn park_watching(&self, timeout: Option<Duration>, watch: &dyn DriverWatch) {
        let inner = &*self.inner;
        if inner.parker.take_notification() {
            return;
        }
        if let Ok(mut driver) = inner.shared.driver.try_lock() {
            if let Some(driver) = driver.as_mut() {
                let driver_timeout = watch.before_driver_park(timeout);
                inner.parker.park_driver(driver.as_mut(), driver_timeout);
                watch.after_driver_park();
                return;
            }
        }
        inner.parker.park_condvar(timeout);
    }

    /// Wakes the worker if parked, or makes its next park return at once.
    pub(crate) fn unpark(&self) {
        let inner = &*self.inner;
        inner.parker.unpark(|| inner.shared.unpark_driver());
    }
}

/// What the driver's holder does around blocking in it: called with the
/// driver held, before blocking (to choose the timeout) and after.
pub(crate) trait DriverWatch {
    /// The timeout to block on the driver with, given the caller's.
    fn before_driver_park(&self, timeout: Option<Duration>) -> Option<Duration>;
    /// The driver park returned.
    fn after_driver_park(&self);
}

struct NoWatch;

impl DriverWatch for NoWatch {
    fn before_driver_park(&self, timeout: Option<Duration>) -> Option<Duration> {
        timeout
    }

    fn after_driver_park(&self) {}
}
