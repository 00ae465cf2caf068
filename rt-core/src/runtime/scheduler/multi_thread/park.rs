//! Parking a worker: on the shared driver if it is free, otherwise on the
//! worker's own condvar.
//!
//! One worker at a time owns the driver (a try-lock); it blocks in the
//! driver's `park`, so I/O events and timers are processed by whichever
//! worker happens to be idle. The others sleep on a condvar. The state word
//! says which, so that `unpark` uses the right mechanism:
//!
//! EMPTY → PARKED_CONDVAR / PARKED_DRIVER → (unpark) NOTIFIED → EMPTY.
//! An `unpark` that finds EMPTY leaves NOTIFIED behind, so the next `park`
//! returns at once: a wake-up is never lost.
//!
//! Before sleeping on its condvar, a worker yields its thread a few times,
//! looking for a notification after each yield (the wait that
//! `runtime::yield_wait` describes, which gives way to blocking at once
//! while other work keeps the CPUs busy): an `unpark` that lands in this
//! window finds EMPTY and only swaps in NOTIFIED. It yields only while a
//! CPU is free of running workers (`DriverWatch::yield_before_condvar`).
//! The worker that takes the driver blocks in it at once: I/O readiness
//! arrives there, not through `unpark`, and yielding first only delayed it
//! (loopback ping-pongs on one to four workers took 1.3-1.6 times as
//! long).

use crate::loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use crate::loom::sync::{Arc, Condvar, Mutex};
use crate::runtime::driver::{Driver, Unpark};
use crate::runtime::yield_wait::notified_while_yielding;
use std::time::Duration;

const EMPTY: usize = 0;
const PARKED_CONDVAR: usize = 1;
const PARKED_DRIVER: usize = 2;
const NOTIFIED: usize = 3;

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
    state: AtomicUsize,
    mutex: Mutex<()>,
    condvar: Condvar,
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
                state: AtomicUsize::new(EMPTY),
                mutex: Mutex::new(()),
                condvar: Condvar::new(),
                shared,
            }),
        }
    }

    /// Blocks until unparked (or, on the driver, until an event or timeout).
    pub(crate) fn park(&self, timeout: Option<Duration>) {
        self.inner.park(timeout, &NoWatch);
    }

    /// Like [`park`](Parker::park), but when this worker gets the driver,
    /// `watch` may shorten the time it blocks there (see `lifo_watch.rs`).
    pub(crate) fn park_watching(&self, timeout: Option<Duration>, watch: &dyn DriverWatch) {
        self.inner.park(timeout, watch);
    }

    /// Whether an unpark is pending, left for the next park to take.
    pub(crate) fn is_notified(&self) -> bool {
        self.inner.state.load(SeqCst) == NOTIFIED
    }

    /// Wakes the worker if parked, or makes its next park return at once.
    pub(crate) fn unpark(&self) {
        self.inner.unpark();
    }
}

/// What a worker does around blocking: on the driver, called with the
/// driver held before blocking (to choose the timeout) and after; on its
/// condvar, whether to yield first.
pub(crate) trait DriverWatch {
    /// The timeout to block on the driver with, given the caller's.
    fn before_driver_park(&self, timeout: Option<Duration>) -> Option<Duration>;
    /// The driver park returned.
    fn after_driver_park(&self);
    /// Whether to yield before sleeping on the condvar, when the driver is
    /// taken (see the module documentation).
    fn yield_before_condvar(&self) -> bool;
}

struct NoWatch;

impl DriverWatch for NoWatch {
    fn before_driver_park(&self, timeout: Option<Duration>) -> Option<Duration> {
        timeout
    }

    fn after_driver_park(&self) {}

    fn yield_before_condvar(&self) -> bool {
        true
    }
}

impl Inner {
    fn park(&self, timeout: Option<Duration>, watch: &dyn DriverWatch) {
        // A pending notification: consume it and return.
        if self.take_notification() {
            return;
        }
        if let Ok(mut driver) = self.shared.driver.try_lock() {
            if let Some(driver) = driver.as_mut() {
                let driver_timeout = watch.before_driver_park(timeout);
                self.park_driver(driver.as_mut(), driver_timeout);
                watch.after_driver_park();
                return;
            }
        }
        if timeout == Some(Duration::ZERO) {
            return;
        }
        // Only here, not before the driver: readiness comes through the
        // driver, not through `unpark`, and yielding would only delay it.
        if watch.yield_before_condvar() && notified_while_yielding(|| self.take_notification()) {
            return;
        }
        self.park_condvar(timeout);
    }

    /// Consumes a pending notification; false if there was none.
    fn take_notification(&self) -> bool {
        self.state
            .compare_exchange(NOTIFIED, EMPTY, SeqCst, SeqCst)
            .is_ok()
    }

    fn park_driver(&self, driver: &mut dyn Driver, timeout: Option<Duration>) {
        match self
            .state
            .compare_exchange(EMPTY, PARKED_DRIVER, SeqCst, SeqCst)
        {
            Ok(_) => {}
            Err(NOTIFIED) => {
                self.state.swap(EMPTY, SeqCst);
                return;
            }
            Err(actual) => panic!("inconsistent park state: {actual}"),
        }
        driver.park(timeout);
        // Whether woken by unpark, an event or the timeout: back to EMPTY,
        // consuming a notification that may have arrived meanwhile.
        self.state.swap(EMPTY, SeqCst);
    }

    fn park_condvar(&self, timeout: Option<Duration>) {
        let mut guard = self.mutex.lock().unwrap_or_else(|e| e.into_inner());
        match self
            .state
            .compare_exchange(EMPTY, PARKED_CONDVAR, SeqCst, SeqCst)
        {
            Ok(_) => {}
            Err(NOTIFIED) => {
                self.state.swap(EMPTY, SeqCst);
                return;
            }
            Err(actual) => panic!("inconsistent park state: {actual}"),
        }
        match timeout {
            None => loop {
                guard = self.condvar.wait(guard).unwrap_or_else(|e| e.into_inner());
                if self.take_notification() {
                    return;
                }
                // Spurious wake-up: keep waiting.
            },
            Some(timeout) => {
                drop(
                    self.condvar
                        .wait_timeout(guard, timeout)
                        .unwrap_or_else(|e| e.into_inner()),
                );
                self.state.swap(EMPTY, SeqCst);
            }
        }
    }

    fn unpark(&self) {
        match self.state.swap(NOTIFIED, SeqCst) {
            EMPTY | NOTIFIED => {}
            PARKED_CONDVAR => {
                // Taking the lock orders us after the parker's wait begins.
                drop(self.mutex.lock().unwrap_or_else(|e| e.into_inner()));
                self.condvar.notify_one();
            }
            PARKED_DRIVER => self.shared.unpark.unpark(),
            actual => panic!("inconsistent park state: {actual}"),
        }
    }
}
