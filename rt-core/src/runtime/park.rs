//! How a runtime's threads wait for work, and the one parker they wait on.
//!
//! # The policy
//!
//! A thread with nothing to run blocks at once, and the thread that gives
//! it work wakes it. No thread spins, yields or guesses how many CPUs are
//! free before it blocks, and nothing about parking is shared between
//! runtimes: a runtime's parking state lives in its threads' parkers and
//! its scheduler. Where each thread blocks:
//!
//! - The current-thread runtime blocks in its driver stack (I/O, timers,
//!   and at the bottom a [`ParkThread`] when it has neither), which its
//!   handle's unpark wakes.
//! - A multi-thread worker blocks in the runtime's one driver if no other
//!   worker holds it, and otherwise on its own parker's condvar
//!   (`scheduler/multi_thread/park.rs`). The driver's holder blocks with no
//!   deadline unless another worker's LIFO slot holds a task
//!   (`multi_thread/lifo_watch.rs`).
//! - A thread in [`block_on`](crate::util::block_on), and the
//!   multi-thread runtime's `block_on`, blocks on a [`ParkThread`] that the
//!   future's waker unparks.
//! - A blocking-pool thread blocks on the pool's condvar until a task is
//!   queued or its keep-alive elapses (`blocking/pool.rs`); a finished
//!   closure wakes the awaiting task through its waker, like any wake-up.
//!
//! Blocking at once costs the waker a futex wake-up when the sleeper is
//! really asleep; the alternatives (spinning or yielding first) trade that
//! for CPU burnt on every park, which an idle or stuck runtime and its
//! neighbours pay for, and their pay-off depends on the machine.
//!
//! # The parker
//!
//! [`CondvarParker`] is a state word in front of a mutex and a condvar:
//!
//! `EMPTY → PARKED_CONDVAR | PARKED_DRIVER → (unpark) NOTIFIED → EMPTY`
//!
//! An unpark that finds EMPTY leaves NOTIFIED behind, so the next park
//! returns at once: a wake-up is never lost, and the uncontended paths
//! never lock. One that finds PARKED_CONDVAR takes the mutex before it
//! signals, so the signal cannot fall between the parker's state change
//! and its wait; one that finds PARKED_DRIVER wakes the driver the thread
//! blocks in.

use super::driver::{Driver, Unpark};
use crate::loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use crate::loom::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

const EMPTY: usize = 0;
const PARKED_CONDVAR: usize = 1;
const PARKED_DRIVER: usize = 2;
const NOTIFIED: usize = 3;

/// One thread's parker: the protocol of the module documentation.
#[derive(Debug)]
pub(crate) struct CondvarParker {
    state: AtomicUsize,
    mutex: Mutex<()>,
    condvar: Condvar,
}

impl CondvarParker {
    /// A parker with no pending notification.
    pub(crate) fn new() -> CondvarParker {
        CondvarParker {
            state: AtomicUsize::new(EMPTY),
            mutex: Mutex::new(()),
            condvar: Condvar::new(),
        }
    }

    /// Consumes a pending notification; false if there was none.
    pub(crate) fn take_notification(&self) -> bool {
        self.state
            .compare_exchange(NOTIFIED, EMPTY, SeqCst, SeqCst)
            .is_ok()
    }

    /// Blocks on the condvar until unparked or until `timeout`; returns at
    /// once for a pending notification (which it consumes) or a zero
    /// timeout.
    pub(crate) fn park_condvar(&self, timeout: Option<Duration>) {
        if self.take_notification() || timeout == Some(Duration::ZERO) {
            return;
        }
        let mut guard = self.mutex.lock().unwrap_or_else(|e| e.into_inner());
        if !self.enter(PARKED_CONDVAR) {
            return;
        }
        match timeout {
            None => loop {
                guard = self.condvar.wait(guard).unwrap_or_else(|e| e.into_inner());
                if self.take_notification() {
                    return;
                }
                // A spurious wake-up: wait again.
            },
            Some(timeout) => {
                drop(
                    self.condvar
                        .wait_timeout(guard, timeout)
                        .unwrap_or_else(|e| e.into_inner()),
                );
                // Notified or timed out: back to EMPTY either way.
                self.state.swap(EMPTY, SeqCst);
            }
        }
    }

    /// Blocks in `driver` until unparked, an event or `timeout`; returns at
    /// once for a pending notification, which it consumes. (Only a
    /// multi-thread worker blocks in a driver through its parker.)
    #[cfg_attr(not(feature = "rt-multi-thread"), allow(dead_code))]
    pub(crate) fn park_driver(&self, driver: &mut dyn Driver, timeout: Option<Duration>) {
        if !self.enter(PARKED_DRIVER) {
            return;
        }
        driver.park(timeout);
        // Woken by an unpark, an event or the timeout: back to EMPTY,
        // consuming a notification that arrived meanwhile.
        self.state.swap(EMPTY, SeqCst);
    }

    /// Moves EMPTY to `parked`; false (with the notification consumed) if
    /// a notification was pending.
    fn enter(&self, parked: usize) -> bool {
        match self.state.compare_exchange(EMPTY, parked, SeqCst, SeqCst) {
            Ok(_) => true,
            Err(NOTIFIED) => {
                self.state.swap(EMPTY, SeqCst);
                false
            }
            Err(actual) => panic!("inconsistent park state: {actual}"),
        }
    }

    /// Wakes the thread if it is parked, or makes its next park return at
    /// once. `wake_driver` wakes the driver it may be blocked in.
    pub(crate) fn unpark(&self, wake_driver: impl FnOnce()) {
        match self.state.swap(NOTIFIED, SeqCst) {
            EMPTY | NOTIFIED => {}
            PARKED_CONDVAR => {
                // Taking the lock orders this after the parker's wait began.
                drop(self.mutex.lock().unwrap_or_else(|e| e.into_inner()));
                self.condvar.notify_one();
            }
            PARKED_DRIVER => wake_driver(),
            actual => panic!("inconsistent park state: {actual}"),
        }
    }
}

/// A [`Driver`] with no events of its own: it only sleeps until unparked or
/// until the timeout elapses. The bottom of a driver stack without I/O,
/// and the parker of [`block_on`](crate::util::block_on).
#[derive(Debug)]
pub struct ParkThread {
    inner: Arc<CondvarParker>,
}

/// The [`Unpark`] half of a [`ParkThread`].
#[derive(Debug, Clone)]
pub struct UnparkThread {
    inner: Arc<CondvarParker>,
}

impl ParkThread {
    /// A parker with no pending token.
    pub fn new() -> ParkThread {
        ParkThread {
            inner: Arc::new(CondvarParker::new()),
        }
    }

    /// The unpark handle.
    pub fn unpark_handle(&self) -> UnparkThread {
        UnparkThread {
            inner: self.inner.clone(),
        }
    }

    /// Blocks until unparked (consuming a pending token at once if there is
    /// one) or until `timeout`.
    pub fn park_timeout(&self, timeout: Option<Duration>) {
        self.inner.park_condvar(timeout);
    }
}

impl Default for ParkThread {
    fn default() -> Self {
        ParkThread::new()
    }
}

impl Driver for ParkThread {
    fn park(&mut self, timeout: Option<Duration>) {
        self.inner.park_condvar(timeout);
    }

    fn unparker(&self) -> std::sync::Arc<dyn Unpark> {
        std::sync::Arc::new(self.unpark_handle())
    }

    fn shutdown(&mut self) {
        // Nothing is registered with a plain parker; make sure no thread
        // stays blocked on it.
        self.unpark_handle().unpark();
    }
}

impl Unpark for UnparkThread {
    fn unpark(&self) {
        self.inner
            .unpark(|| unreachable!("a ParkThread never blocks in a driver"));
    }
}
