//! A channel that carries a single value from one sender to one receiver.
//!
//! [`Sender::send`] never waits: it either stores the value or, if the
//! receiver is gone, hands it back. The [`Receiver`] is a future that
//! resolves to the value, or to [`RecvError`] if the
//! sender was dropped without sending.
//!
//! ```
//! use rt_sync::oneshot;
//!
//! # rt_sync::__doc::block_on(async {
//! let (tx, rx) = oneshot::channel();
//! tx.send(3).unwrap();
//! assert_eq!(rx.await, Ok(3));
//!
//! let (tx, rx) = oneshot::channel::<u32>();
//! drop(tx);
//! assert!(rx.await.is_err());
//! # });
//! ```
//!
//! The protocol is one atomic state word (see `state.rs`) that decides who
//! may touch the value cell and the two waker slots; no lock is taken.

pub mod error;
mod state;

use error::{RecvError, TryRecvError};
use rt_core::loom::cell::UnsafeCell;
use rt_core::task::coop;
use state::{Snapshot, State};
use std::fmt;
use std::future::Future;
use std::mem::ManuallyDrop;
use std::pin::Pin;
use std::ptr;
use std::sync::Arc;
use std::task::{ready, Context, Poll, Waker};

/// Creates a oneshot channel.
pub fn channel<T>() -> (Sender<T>, Receiver<T>) {
    let inner = Arc::new(Inner {
        state: State::new(),
        value: UnsafeCell::new(None),
        rx_task: UnsafeCell::new(None),
        tx_task: UnsafeCell::new(None),
    });
    (
        Sender {
            inner: inner.clone(),
        },
        Receiver { inner: Some(inner) },
    )
}

/// Sends the channel's one value; see [`channel`].
pub struct Sender<T> {
    /// Not an `Option`: `send` consumes the sender, so a live sender always
    /// has its channel, and `send` moves the handle out instead of leaving
    /// a `None` for `Drop` to inspect.
    inner: Arc<Inner<T>>,
}

/// Receives the channel's one value by being awaited; see [`channel`].
///
/// # Cancel safety
///
/// Awaiting `&mut receiver` inside a `select!` is cancel-safe: a value is
/// only taken out of the channel by the poll that returns it.
pub struct Receiver<T> {
    inner: Option<Arc<Inner<T>>>,
}

struct Inner<T> {
    state: State,
    /// Owned by the sender until `VALUE_SENT`, by the receiver after.
    value: UnsafeCell<Option<T>>,
    /// Initialised while `RX_TASK_SET`; see `state.rs`.
    rx_task: UnsafeCell<Option<Waker>>,
    /// Initialised while `TX_TASK_SET`.
    tx_task: UnsafeCell<Option<Waker>>,
}

// SAFETY: the state word gives each cell a single owner at a time, so the
// value only ever moves between threads (`T: Send`).
unsafe impl<T: Send> Send for Inner<T> {}
// SAFETY: as above; no `&T` is ever shared.
unsafe impl<T: Send> Sync for Inner<T> {}

impl<T> Inner<T> {
    /// Marks the channel complete (the value, if any, is in the cell) and
    /// wakes the receiver. Returns `false` if the receiver had closed it.
    fn complete(&self) -> bool {
        let previous = self.state.set_complete();
        if previous.is_closed() {
            return false;
        }
        if previous.is_rx_task_set() {
            // SAFETY: RX_TASK_SET was set when we completed, so the slot is
            // initialised, and the receiver will not touch it any more: its
            // next unset/set will observe VALUE_SENT.
            self.rx_task.with(|slot| unsafe {
                if let Some(waker) = &*slot {
                    waker.wake_by_ref();
                }
            });
        }
        true
    }

    /// Closes the channel from the receiver's side and wakes a sender waiting
    /// in `closed`. Returns the state before.
    fn close(&self) -> Snapshot {
        let previous = self.state.set_closed();
        if previous.is_tx_task_set() && !previous.is_complete() {
            // SAFETY: TX_TASK_SET was set when we closed, so the slot is
            // initialised and the sender will not touch it any more.
            self.tx_task.with(|slot| unsafe {
                if let Some(waker) = &*slot {
                    waker.wake_by_ref();
                }
            });
        }
        previous
    }

    /// The receiver's poll after its budget check: the value, `None` if the
    /// channel finished without one, or `Pending` with `cx` registered.
    fn poll_recv(&self, cx: &mut Context<'_>) -> Poll<Option<T>> {
        // Fast path: the value is usually there by the first poll, and one
        // load both tells us so and hands us the cell.
        let mut state = self.state.load();
        if !state.is_complete() && !state.is_closed() {
            let done = self.register(
                cx,
                &self.rx_task,
                Snapshot::is_rx_task_set,
                State::set_rx_task,
                State::unset_rx_task,
                |s| s.is_complete() || s.is_closed(),
            );
            if !done {
                return Poll::Pending;
            }
            state = self.state.load();
        }
        if state.is_complete() {
            // SAFETY: VALUE_SENT is set, so the receiver owns the cell.
            Poll::Ready(unsafe { self.take_value() })
        } else {
            Poll::Ready(None)
        }
    }

    /// Takes the value; only the receiver calls this, after `VALUE_SENT`.
    ///
    /// # Safety
    ///
    /// The caller must own the value cell.
    unsafe fn take_value(&self) -> Option<T> {
        // SAFETY: the caller owns the cell.
        self.value.with_mut(|slot| unsafe { (*slot).take() })
    }

    /// Stores `cx`'s waker in `slot` under the `set`/`unset` bit protocol.
    /// Returns `true` if `done` became true meanwhile (the caller must then
    /// not wait).
    ///
    /// Kept out of line: it is the waiting path, and inlined it would make
    /// every ready poll save and restore the registers it needs.
    #[inline(never)]
    fn register(
        &self,
        cx: &mut Context<'_>,
        slot: &UnsafeCell<Option<Waker>>,
        is_set: fn(Snapshot) -> bool,
        set: fn(&State) -> Snapshot,
        unset: fn(&State) -> Snapshot,
        done: fn(Snapshot) -> bool,
    ) -> bool {
        let state = self.state.load();
        if done(state) {
            return true;
        }
        if is_set(state) {
            // SAFETY: the bit is set, so the slot is initialised; the other
            // side only reads it, and we only read it here.
            let same =
                slot.with(|w| unsafe { (*w).as_ref().is_some_and(|w| w.will_wake(cx.waker())) });
            if same {
                return false;
            }
            if done(unset(&self.state)) {
                // The other side may be reading the slot right now: leave it.
                return true;
            }
        }
        // SAFETY: the bit is clear, so the slot is ours alone.
        slot.with_mut(|w| unsafe { *w = Some(cx.waker().clone()) });
        done(set(&self.state))
    }
}

impl<T> Sender<T> {
    /// Sends `value`, or returns it if the receiver was dropped or closed.
    ///
    /// A successful send does not mean the value will be received: the
    /// receiver may still be dropped before it looks.
    pub fn send(self, value: T) -> Result<(), T> {
        // Consumed without running `Drop`: the sender's drop would only
        // complete the channel, which this does itself, with the value.
        let this = ManuallyDrop::new(self);
        // SAFETY: `this` is never used or dropped again, so the handle is
        // moved out exactly once and its reference count stays balanced.
        let inner = unsafe { ptr::read(&this.inner) };
        // SAFETY: VALUE_SENT is not set, so the sender owns the cell.
        inner.value.with_mut(|slot| unsafe { *slot = Some(value) });
        if inner.complete() {
            Ok(())
        } else {
            // SAFETY: VALUE_SENT was not set (the channel was closed), so
            // the cell is still ours.
            Err(unsafe { inner.take_value() }.expect("value was just stored"))
        }
    }

    /// Waits until the receiver is dropped or closed.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe.
    ///
    /// ```
    /// use rt_sync::oneshot;
    ///
    /// # rt_sync::__doc::block_on(async {
    /// let (mut tx, rx) = oneshot::channel::<()>();
    /// drop(rx);
    /// tx.closed().await;
    /// assert!(tx.is_closed());
    /// # });
    /// ```
    pub async fn closed(&mut self) {
        std::future::poll_fn(|cx| self.poll_closed(cx)).await
    }

    /// Whether the receiver was dropped or closed.
    pub fn is_closed(&self) -> bool {
        self.inner.state.load().is_closed()
    }

    /// Polls for the receiver going away; registers `cx`'s waker otherwise.
    pub fn poll_closed(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        std::task::ready!(rt_core::task::trace::trace_leaf());
        let inner = &self.inner;
        let progress = ready!(coop::poll_proceed(cx));
        let closed = inner.register(
            cx,
            &inner.tx_task,
            Snapshot::is_tx_task_set,
            State::set_tx_task,
            State::unset_tx_task,
            Snapshot::is_closed,
        );
        if closed {
            progress.made_progress();
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        // Completing without a value tells the receiver nothing comes.
        self.inner.complete();
    }
}

impl<T> Receiver<T> {
    /// Closes the channel without dropping the receiver: a later `send`
    /// fails, but a value sent before is still delivered.
    pub fn close(&mut self) {
        if let Some(inner) = self.inner.as_ref() {
            inner.close();
        }
    }

    /// Takes the value if it has been sent, without waiting.
    ///
    /// After the value was taken, or the sender dropped without sending,
    /// this returns [`TryRecvError::Closed`].
    pub fn try_recv(&mut self) -> Result<T, TryRecvError> {
        let Some(inner) = self.inner.as_ref() else {
            return Err(TryRecvError::Closed);
        };
        let state = inner.state.load();
        if state.is_complete() {
            // SAFETY: VALUE_SENT is set, so the receiver owns the cell.
            let value = unsafe { inner.take_value() };
            self.inner = None;
            value.ok_or(TryRecvError::Closed)
        } else if state.is_closed() {
            Err(TryRecvError::Closed)
        } else {
            Err(TryRecvError::Empty)
        }
    }

    /// Waits for the value from synchronous code by parking the thread.
    ///
    /// Must not be called from inside an asynchronous task.
    #[track_caller]
    pub fn blocking_recv(self) -> Result<T, RecvError> {
        rt_core::util::block_on(self)
    }

    /// Whether this receiver has already resolved (returned the value or
    /// an error), so polling it again yields nothing new.
    pub fn is_terminated(&self) -> bool {
        self.inner.is_none()
    }

    /// Whether no value is waiting to be received right now.
    pub fn is_empty(&self) -> bool {
        self.inner.as_ref().map_or(true, |inner| {
            let state = inner.state.load();
            // SAFETY: VALUE_SENT is set, so the receiver owns the cell; we
            // only look.
            !state.is_complete() || inner.value.with(|v| unsafe { (*v).is_none() })
        })
    }
}

impl<T> Future for Receiver<T> {
    type Output = Result<T, RecvError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        std::task::ready!(rt_core::task::trace::trace_leaf());
        let Some(inner) = self.inner.as_ref() else {
            return Poll::Ready(Err(RecvError(())));
        };
        let progress = ready!(coop::poll_proceed(cx));
        let value = ready!(inner.poll_recv(cx));
        progress.made_progress();
        self.inner = None;
        Poll::Ready(value.ok_or(RecvError(())))
    }
}

impl<T> Drop for Receiver<T> {
    #[inline]
    fn drop(&mut self) {
        // A receiver that resolved has nothing left to do; this check is
        // inlined where the receiver dies, the rest is not.
        if let Some(inner) = self.inner.take() {
            drop_unresolved(inner);
        }
    }
}

/// Drops a receiver that did not resolve: closes the channel unless it is
/// already complete, and drops a value that was sent but not received.
#[inline(never)]
fn drop_unresolved<T>(inner: Arc<Inner<T>>) {
    // Once VALUE_SENT is set the sender is gone and never reads CLOSED
    // again, so closing would be wasted work; only close while the sender
    // may still send or wait in `closed`.
    let mut state = inner.state.load();
    if !state.is_complete() {
        state = inner.close();
    }
    if state.is_complete() {
        // SAFETY: VALUE_SENT is set, so the receiver owns the cell; drop
        // the value now rather than with the last handle.
        drop(unsafe { inner.take_value() });
    }
}

impl<T> fmt::Debug for Sender<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sender")
            .field("closed", &self.is_closed())
            .finish()
    }
}

impl<T> fmt::Debug for Receiver<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Receiver")
            .field("terminated", &self.is_terminated())
            .finish()
    }
}
