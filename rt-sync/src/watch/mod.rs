//! A single-value channel where receivers see the latest value.
//!
//! The sender replaces the value; each receiver remembers which version it
//! has seen and can wait for a newer one. Intermediate values may be
//! skipped: a receiver only ever observes the most recent value.
//!
//! ```
//! use rt_sync::watch;
//!
//! # rt_sync::__doc::block_on(async {
//! let (tx, mut rx) = watch::channel("first");
//! tx.send("second").unwrap();
//! rx.changed().await.unwrap();
//! assert_eq!(*rx.borrow_and_update(), "second");
//! drop(tx);
//! assert!(rx.changed().await.is_err());
//! # });
//! ```
//!
//! # Protocol
//!
//! The value sits behind a read-write lock that is held only while a value
//! is read or replaced, never across an `.await`. An atomic `state` packs
//! a version counter (bumped after each new value) with a `CLOSED` bit
//! (set when the last sender goes). Receivers read the version *before*
//! the value, so the value they see is never older than the version they
//! record; at worst they are told of a change they have already seen.
//! Waiting goes through a [`Notify`] whose `notified()` is registered
//! (enabled, or polled once) before the state is checked, so no change can
//! be missed.

pub mod error;

use crate::notify::Notify;
use error::{RecvError, SendError};
use rt_core::loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use rt_core::loom::sync::{RwLock, RwLockReadGuard};
use rt_core::task::coop;
use std::fmt;
use std::future::{poll_fn, Future};
use std::ops::Deref;
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;

const CLOSED: usize = 1;
const VERSION_STEP: usize = 2;

/// Creates a watch channel holding `init`.
pub fn channel<T>(init: T) -> (Sender<T>, Receiver<T>) {
    let shared = Arc::new(Shared {
        value: RwLock::new(init),
        state: AtomicUsize::new(0),
        rx_count: AtomicUsize::new(1),
        tx_count: AtomicUsize::new(1),
        notify_rx: Notify::new(),
        notify_tx: Notify::new(),
    });
    (
        Sender {
            shared: shared.clone(),
        },
        Receiver { shared, version: 0 },
    )
}

struct Shared<T> {
    value: RwLock<T>,
    /// `version | CLOSED`; versions advance in steps of two.
    state: AtomicUsize,
    rx_count: AtomicUsize,
    tx_count: AtomicUsize,
    /// Receivers waiting for a new value or the close.
    notify_rx: Notify,
    /// Senders waiting for the last receiver to go.
    notify_tx: Notify,
}

impl<T> Shared<T> {
    fn read(&self) -> RwLockReadGuard<'_, T> {
        self.value.read().unwrap_or_else(|p| p.into_inner())
    }

    fn version(&self) -> usize {
        self.state.load(SeqCst) & !CLOSED
    }

    fn publish(&self) {
        self.state.fetch_add(VERSION_STEP, SeqCst);
        self.notify_rx.notify_waiters();
    }
}

/// Publishes values to the receivers of a watch channel.
pub struct Sender<T> {
    shared: Arc<Shared<T>>,
}

/// Observes the latest value of a watch channel.
pub struct Receiver<T> {
    shared: Arc<Shared<T>>,
    version: usize,
}

/// A read lock on the channel's current value.
///
/// Hold it briefly: while any `Ref` lives, the sender cannot store a new
/// value and waits (blocking its thread).
pub struct Ref<'a, T> {
    guard: RwLockReadGuard<'a, T>,
    has_changed: bool,
}

impl<T> Ref<'_, T> {
    /// Whether this value was new to the receiver that borrowed it (always
    /// `false` for [`Sender::borrow`] and [`Receiver::borrow`]).
    pub fn has_changed(&self) -> bool {
        self.has_changed
    }
}

impl<T> Deref for Ref<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.guard
    }
}

impl<T: fmt::Debug> fmt::Debug for Ref<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T> Sender<T> {
    /// A sender with no receiver yet; [`subscribe`](Self::subscribe) makes
    /// some.
    pub fn new(init: T) -> Sender<T> {
        let (tx, rx) = channel(init);
        drop(rx);
        tx
    }

    /// Stores `value` and notifies the receivers. Fails, handing the value
    /// back, if there is no receiver.
    pub fn send(&self, value: T) -> Result<(), SendError<T>> {
        if self.shared.rx_count.load(SeqCst) == 0 {
            return Err(SendError(value));
        }
        self.send_replace(value);
        Ok(())
    }

    /// Modifies the value in place and notifies the receivers, even if
    /// there are none.
    pub fn send_modify<F: FnOnce(&mut T)>(&self, modify: F) {
        self.send_if_modified(|value| {
            modify(value);
            true
        });
    }

    /// Runs `modify` on the value; notifies the receivers only if it
    /// returns `true`. Returns what `modify` returned.
    pub fn send_if_modified<F: FnOnce(&mut T) -> bool>(&self, modify: F) -> bool {
        let modified = {
            let mut value = self.shared.value.write().unwrap_or_else(|p| p.into_inner());
            modify(&mut value)
        };
        if modified {
            self.shared.publish();
        }
        modified
    }

    /// Stores `value`, notifies the receivers (if any) and returns the old
    /// value.
    pub fn send_replace(&self, value: T) -> T {
        let old = {
            let mut current = self.shared.value.write().unwrap_or_else(|p| p.into_inner());
            std::mem::replace(&mut *current, value)
        };
        self.shared.publish();
        old
    }

    /// Reads the current value.
    pub fn borrow(&self) -> Ref<'_, T> {
        Ref {
            guard: self.shared.read(),
            has_changed: false,
        }
    }

    /// Whether every receiver is gone.
    pub fn is_closed(&self) -> bool {
        self.shared.rx_count.load(SeqCst) == 0
    }

    /// Waits until every receiver is gone.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe.
    pub async fn closed(&self) {
        coop::consume_budget().await;
        loop {
            let mut notified = pin!(self.shared.notify_tx.notified());
            notified.as_mut().enable();
            if self.is_closed() {
                return;
            }
            notified.await;
        }
    }

    /// A new receiver that has seen the current value.
    pub fn subscribe(&self) -> Receiver<T> {
        self.shared.rx_count.fetch_add(1, SeqCst);
        Receiver {
            shared: self.shared.clone(),
            version: self.shared.version(),
        }
    }

    /// Live receivers.
    pub fn receiver_count(&self) -> usize {
        self.shared.rx_count.load(SeqCst)
    }

    /// Live senders.
    pub fn sender_count(&self) -> usize {
        self.shared.tx_count.load(SeqCst)
    }

    /// Whether both senders belong to the same channel.
    pub fn same_channel(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        self.shared.tx_count.fetch_add(1, SeqCst);
        Sender {
            shared: self.shared.clone(),
        }
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        if self.shared.tx_count.fetch_sub(1, SeqCst) == 1 {
            self.shared.state.fetch_or(CLOSED, SeqCst);
            self.shared.notify_rx.notify_waiters();
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for Sender<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sender")
            .field("value", &*self.borrow())
            .finish()
    }
}

impl<T> Receiver<T> {
    /// Reads the current value without marking it seen.
    pub fn borrow(&self) -> Ref<'_, T> {
        let version = self.shared.version();
        Ref {
            guard: self.shared.read(),
            has_changed: version != self.version,
        }
    }

    /// Reads the current value and marks it seen.
    pub fn borrow_and_update(&mut self) -> Ref<'_, T> {
        let version = self.shared.version();
        let has_changed = version != self.version;
        self.version = version;
        Ref {
            guard: self.shared.read(),
            has_changed,
        }
    }

    /// Whether a value newer than the last one seen is there. Fails if
    /// every sender is gone.
    pub fn has_changed(&self) -> Result<bool, RecvError> {
        let state = self.shared.state.load(SeqCst);
        if state & CLOSED == CLOSED {
            return Err(RecvError(()));
        }
        Ok(state & !CLOSED != self.version)
    }

    /// Whether every sender is gone. The last value sent can still be
    /// read.
    ///
    /// ```
    /// let (tx, rx) = rt_sync::watch::channel(());
    /// assert!(!rx.is_closed());
    /// drop(tx);
    /// assert!(rx.is_closed());
    /// ```
    pub fn is_closed(&self) -> bool {
        self.shared.state.load(SeqCst) & CLOSED == CLOSED
    }

    /// Marks the current value as not seen.
    pub fn mark_changed(&mut self) {
        self.version = self.shared.version().wrapping_sub(VERSION_STEP);
    }

    /// Marks the current value as seen.
    pub fn mark_unchanged(&mut self) {
        self.version = self.shared.version();
    }

    /// Waits for a value newer than the last one seen and marks it seen.
    /// Fails once every sender is gone and nothing new is left.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe.
    pub async fn changed(&mut self) -> Result<(), RecvError> {
        // A loop over a channel that is always ready (or closed) must still
        // yield now and then.
        coop::consume_budget().await;
        let Receiver { shared, version } = self;
        if let Some(result) = check_changed(shared, version) {
            return result;
        }
        // Register first, then look: a send after the look wakes us. The
        // first poll registers with the task's waker, so a wait takes the
        // notify's lock once, and a woken wait completes without it.
        let mut notified = pin!(shared.notify_rx.notified());
        poll_fn(|cx| loop {
            let woken = notified.as_mut().poll(cx).is_ready();
            if let Some(result) = check_changed(shared, version) {
                return Poll::Ready(result);
            }
            if !woken {
                return Poll::Pending;
            }
            // Woken, yet nothing new (a send the version check had seen
            // already): wait again.
            notified.set(shared.notify_rx.notified());
        })
        .await
    }

    /// Waits until `condition` holds for the current value, checking the
    /// value there now first; marks what it checked as seen. Fails if every
    /// sender is gone before the condition holds.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe.
    pub async fn wait_for(
        &mut self,
        mut condition: impl FnMut(&T) -> bool,
    ) -> Result<Ref<'_, T>, RecvError> {
        coop::consume_budget().await;
        loop {
            let mut notified = pin!(self.shared.notify_rx.notified());
            notified.as_mut().enable();
            let state = self.shared.state.load(SeqCst);
            let version = state & !CLOSED;
            let has_changed = version != self.version;
            self.version = version;
            {
                let guard = self.shared.read();
                if condition(&guard) {
                    return Ok(Ref { guard, has_changed });
                }
            }
            if state & CLOSED == CLOSED {
                return Err(RecvError(()));
            }
            notified.await;
        }
    }

    /// Whether both receivers belong to the same channel.
    pub fn same_channel(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }
}

/// `Some` if [`Receiver::changed`] can return without waiting: the
/// channel's version is not `seen` (which is then brought up to date), or
/// every sender is gone.
fn check_changed<T>(shared: &Shared<T>, seen: &mut usize) -> Option<Result<(), RecvError>> {
    let state = shared.state.load(SeqCst);
    let version = state & !CLOSED;
    if version != *seen {
        *seen = version;
        return Some(Ok(()));
    }
    if state & CLOSED == CLOSED {
        return Some(Err(RecvError(())));
    }
    None
}

impl<T> Clone for Receiver<T> {
    fn clone(&self) -> Self {
        self.shared.rx_count.fetch_add(1, SeqCst);
        Receiver {
            shared: self.shared.clone(),
            version: self.version,
        }
    }
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        if self.shared.rx_count.fetch_sub(1, SeqCst) == 1 {
            self.shared.notify_tx.notify_waiters();
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for Receiver<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Receiver")
            .field("version", &self.version)
            .finish()
    }
}
