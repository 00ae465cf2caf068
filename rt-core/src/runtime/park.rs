//! `ParkThread`: the driver of last resort, blocking the thread on a
//! condition variable until unparked.
//!
//! The protocol is a three-state atomic (EMPTY, PARKED, NOTIFIED) in front
//! of a mutex and condvar, so that an unpark that arrives before the park
//! is remembered as a token and the uncontended paths never lock.
//!
//! [`ParkThread::park_after_yielding`] takes the short yielding wait of
//! `runtime::yield_wait` first, for a thread whose wake-up is likely to
//! come from another thread soon: [`block_on`](crate::util::block_on)
//! parks the threads of rt-sync's `blocking_*` methods with it. While the
//! parker is still EMPTY, an unpark only leaves its token.

use super::driver::{Driver, Unpark};
use super::yield_wait::notified_while_yielding;
use crate::loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use crate::loom::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

const EMPTY: usize = 0;
const PARKED: usize = 1;
const NOTIFIED: usize = 2;

/// A [`Driver`] with no events of its own: it only sleeps until unparked or
/// until the timeout elapses.
#[derive(Debug)]
pub struct ParkThread {
    inner: Arc<Inner>,
}

/// The [`Unpark`] half of a [`ParkThread`].
#[derive(Debug, Clone)]
pub struct UnparkThread {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    state: AtomicUsize,
    lock: Mutex<()>,
    condvar: Condvar,
}

impl ParkThread {
    /// A parker with no pending token.
    pub fn new() -> ParkThread {
        ParkThread {
            inner: Arc::new(Inner {
                state: AtomicUsize::new(EMPTY),
                lock: Mutex::new(()),
                condvar: Condvar::new(),
            }),
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
        self.inner.park(timeout);
    }

    /// Blocks until unparked, as `park_timeout(None)`, but yields the
    /// thread a few times first (see the module documentation): for a
    /// thread whose wake-up is likely to come from another thread soon.
    pub(crate) fn park_after_yielding(&self) {
        let inner = &*self.inner;
        if inner.take_token() || notified_while_yielding(|| inner.take_token()) {
            return;
        }
        inner.park(None);
    }
}

impl Default for ParkThread {
    fn default() -> Self {
        ParkThread::new()
    }
}

impl Inner {
    /// Consumes a pending token; false if there was none.
    fn take_token(&self) -> bool {
        self.state
            .compare_exchange(NOTIFIED, EMPTY, SeqCst, SeqCst)
            .is_ok()
    }

    fn park(&self, timeout: Option<Duration>) {
        // Fast path: a token is waiting.
        if self.take_token() {
            return;
        }
        if timeout == Some(Duration::ZERO) {
            return;
        }
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        match self.state.compare_exchange(EMPTY, PARKED, SeqCst, SeqCst) {
            Ok(_) => {}
            Err(NOTIFIED) => {
                // Token arrived while we took the lock.
                self.state.swap(EMPTY, SeqCst);
                return;
            }
            Err(actual) => panic!("inconsistent park state: {actual}"),
        }
        match timeout {
            None => loop {
                guard = self.condvar.wait(guard).unwrap_or_else(|e| e.into_inner());
                if self.take_token() {
                    return;
                }
                // Spurious wake-up: wait again.
            },
            Some(timeout) => {
                let (_guard, _) = self
                    .condvar
                    .wait_timeout(guard, timeout)
                    .unwrap_or_else(|e| e.into_inner());
                // Whether notified or timed out, leave the state EMPTY.
                self.state.swap(EMPTY, SeqCst);
            }
        }
    }

    fn unpark(&self) {
        match self.state.swap(NOTIFIED, SeqCst) {
            EMPTY | NOTIFIED => {}
            PARKED => {
                // Take the lock so the notification cannot fall between the
                // parker's state change and its wait.
                drop(self.lock.lock().unwrap_or_else(|e| e.into_inner()));
                self.condvar.notify_one();
            }
            actual => panic!("inconsistent park state: {actual}"),
        }
    }
}

impl Driver for ParkThread {
    fn park(&mut self, timeout: Option<Duration>) {
        self.inner.park(timeout);
    }

    fn unparker(&self) -> std::sync::Arc<dyn Unpark> {
        std::sync::Arc::new(self.unpark_handle())
    }

    fn shutdown(&mut self) {
        // Nothing is registered with a plain parker; make sure no thread
        // stays blocked on it.
        self.inner.unpark();
    }
}

impl Unpark for UnparkThread {
    fn unpark(&self) {
        self.inner.unpark();
    }
}
