//! The bounded channel: senders wait for capacity.

use super::chan::{self, Rx, Tx, WeakTx};
use super::error::{SendError, TrySendError};
use super::receiver::impl_receiver;
use super::semaphore::BoundedSemaphore;
use super::sender::impl_sender;
use crate::batch_semaphore::TryAcquireError;
use std::fmt;

/// Creates a channel holding at most `buffer` messages at once.
///
/// # Panics
///
/// Panics if `buffer` is 0, or larger than
/// [`Semaphore::MAX_PERMITS`](crate::Semaphore::MAX_PERMITS).
///
/// ```
/// use rt_sync::mpsc;
///
/// # rt_sync::__doc::block_on(async {
/// let (tx, mut rx) = mpsc::channel(8);
/// for i in 0..3 {
///     tx.send(i).await.unwrap();
/// }
/// drop(tx);
/// let mut got = Vec::new();
/// while let Some(i) = rx.recv().await {
///     got.push(i);
/// }
/// assert_eq!(got, [0, 1, 2]);
/// # });
/// ```
#[track_caller]
pub fn channel<T>(buffer: usize) -> (Sender<T>, Receiver<T>) {
    assert!(buffer > 0, "mpsc bounded channel requires buffer > 0");
    let (tx, rx) = chan::channel(BoundedSemaphore::new(buffer));
    (Sender { chan: tx }, Receiver { chan: rx })
}

/// Sends messages to a bounded channel; clone it for more producers.
pub struct Sender<T> {
    chan: Tx<T, BoundedSemaphore>,
}

/// A sender that does not keep the channel open; see
/// [`Sender::downgrade`].
pub struct WeakSender<T> {
    chan: WeakTx<T, BoundedSemaphore>,
}

/// Receives messages from a bounded channel.
pub struct Receiver<T> {
    chan: Rx<T, BoundedSemaphore>,
}

impl_sender!(Sender, WeakSender);
impl_receiver!(Receiver);

/// One slot of capacity, reserved by [`Sender::reserve`]; sending through
/// it cannot fail or wait. Dropping it unused gives the slot back.
pub struct Permit<'a, T> {
    chan: &'a Tx<T, BoundedSemaphore>,
}

/// Several reserved slots, handed out one [`Permit`] at a time; see
/// [`Sender::reserve_many`]. Slots not taken are given back on drop.
pub struct PermitIterator<'a, T> {
    chan: &'a Tx<T, BoundedSemaphore>,
    remaining: usize,
}

/// A reserved slot that owns its sender; see [`Sender::reserve_owned`].
pub struct OwnedPermit<T> {
    chan: Option<Tx<T, BoundedSemaphore>>,
}

impl<T> Sender<T> {
    /// Waits for capacity, then sends `value`. Fails, handing the value
    /// back, if the receiver was dropped or closed.
    ///
    /// # Cancel safety
    ///
    /// Not cancel-safe: if the future is dropped while waiting for
    /// capacity, `value` is dropped with it and the place in the queue of
    /// waiting senders is lost. Use [`reserve`](Self::reserve) and then
    /// [`Permit::send`] to keep the value when cancelled.
    pub async fn send(&self, value: T) -> Result<(), SendError<T>> {
        // A free slot is taken without building the queued reservation;
        // only a full channel pays for that.
        let granted = match std::future::poll_fn(|cx| self.chan.poll_take_free_slot(cx)).await {
            Some(granted) => granted,
            None => self.chan.reserve(1).await,
        };
        match granted {
            Ok(()) => {
                self.chan.push_permitted(value);
                Ok(())
            }
            Err(()) => Err(SendError(value)),
        }
    }

    /// Sends `value` if there is capacity right now.
    pub fn try_send(&self, value: T) -> Result<(), TrySendError<T>> {
        match self.chan.semaphore().try_acquire(1) {
            Ok(()) => {
                self.chan.push_permitted(value);
                Ok(())
            }
            Err(TryAcquireError::Closed) => Err(TrySendError::Closed(value)),
            Err(TryAcquireError::NoPermits) => Err(TrySendError::Full(value)),
        }
    }

    /// Sends from synchronous code, parking the thread while the channel is
    /// full.
    ///
    /// Must not be called from inside an asynchronous task.
    #[track_caller]
    pub fn blocking_send(&self, value: T) -> Result<(), SendError<T>> {
        rt_core::util::block_on(self.send(value))
    }

    /// Waits for one slot of capacity.
    ///
    /// # Cancel safety
    ///
    /// Senders are served in FIFO order; cancelling loses the place in the
    /// queue but nothing else (no message is involved yet).
    pub async fn reserve(&self) -> Result<Permit<'_, T>, SendError<()>> {
        match self.chan.reserve(1).await {
            Ok(()) => Ok(Permit { chan: &self.chan }),
            Err(()) => Err(SendError(())),
        }
    }

    /// Waits for `n` slots at once. Fails at once if `n` exceeds the
    /// channel's capacity.
    ///
    /// # Cancel safety
    ///
    /// As for [`reserve`](Self::reserve); slots assigned before the
    /// cancellation are given back.
    pub async fn reserve_many(&self, n: usize) -> Result<PermitIterator<'_, T>, SendError<()>> {
        if n > self.max_capacity() {
            return Err(SendError(()));
        }
        match self.chan.reserve(n).await {
            Ok(()) => Ok(PermitIterator {
                chan: &self.chan,
                remaining: n,
            }),
            Err(()) => Err(SendError(())),
        }
    }

    /// As [`reserve`](Self::reserve), but the permit owns the sender, so it
    /// has no lifetime; [`OwnedPermit::send`] gives the sender back.
    ///
    /// # Cancel safety
    ///
    /// As for [`reserve`](Self::reserve).
    pub async fn reserve_owned(self) -> Result<OwnedPermit<T>, SendError<()>> {
        match self.chan.reserve(1).await {
            Ok(()) => Ok(OwnedPermit {
                chan: Some(self.chan),
            }),
            Err(()) => Err(SendError(())),
        }
    }

    /// Reserves one slot if one is free right now.
    pub fn try_reserve(&self) -> Result<Permit<'_, T>, TrySendError<()>> {
        match self.chan.semaphore().try_acquire(1) {
            Ok(()) => Ok(Permit { chan: &self.chan }),
            Err(TryAcquireError::Closed) => Err(TrySendError::Closed(())),
            Err(TryAcquireError::NoPermits) => Err(TrySendError::Full(())),
        }
    }

    /// Reserves `n` slots if they are free right now.
    pub fn try_reserve_many(&self, n: usize) -> Result<PermitIterator<'_, T>, TrySendError<()>> {
        if n > self.max_capacity() {
            return Err(TrySendError::Full(()));
        }
        match self.chan.semaphore().try_acquire(n) {
            Ok(()) => Ok(PermitIterator {
                chan: &self.chan,
                remaining: n,
            }),
            Err(TryAcquireError::Closed) => Err(TrySendError::Closed(())),
            Err(TryAcquireError::NoPermits) => Err(TrySendError::Full(())),
        }
    }

    /// Reserves one slot if one is free right now; on failure the sender
    /// comes back inside the error.
    pub fn try_reserve_owned(self) -> Result<OwnedPermit<T>, TrySendError<Self>> {
        match self.chan.semaphore().try_acquire(1) {
            Ok(()) => Ok(OwnedPermit {
                chan: Some(self.chan),
            }),
            Err(TryAcquireError::Closed) => Err(TrySendError::Closed(self)),
            Err(TryAcquireError::NoPermits) => Err(TrySendError::Full(self)),
        }
    }

    /// Free slots right now.
    pub fn capacity(&self) -> usize {
        self.chan.semaphore().available_permits()
    }

    /// The buffer size the channel was created with.
    pub fn max_capacity(&self) -> usize {
        self.chan.max_capacity()
    }
}

impl<T> fmt::Debug for Sender<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sender")
            .field("capacity", &self.capacity())
            .field("max_capacity", &self.max_capacity())
            .finish()
    }
}

impl<T> Receiver<T> {
    /// Free slots right now.
    pub fn capacity(&self) -> usize {
        self.chan.capacity()
    }

    /// The buffer size the channel was created with.
    pub fn max_capacity(&self) -> usize {
        self.chan.max_capacity()
    }
}

impl<'a, T> Permit<'a, T> {
    /// Sends `value` in the reserved slot. Never fails: a channel closed
    /// after the reservation still delivers it.
    pub fn send(self, value: T) {
        let chan = self.chan;
        // The slot belongs to the message from here on (the receiver frees
        // it), even if waking the receiver panics: the permit must not give
        // it back while unwinding.
        std::mem::forget(self);
        chan.push_permitted(value);
    }
}

impl<T> Drop for Permit<'_, T> {
    fn drop(&mut self) {
        self.chan.release_permits(1);
    }
}

impl<T> fmt::Debug for Permit<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Permit").finish_non_exhaustive()
    }
}

impl<'a, T> Iterator for PermitIterator<'a, T> {
    type Item = Permit<'a, T>;

    fn next(&mut self) -> Option<Permit<'a, T>> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        Some(Permit { chan: self.chan })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<T> ExactSizeIterator for PermitIterator<'_, T> {}

impl<T> Drop for PermitIterator<'_, T> {
    fn drop(&mut self) {
        if self.remaining > 0 {
            self.chan.release_permits(self.remaining);
        }
    }
}

impl<T> fmt::Debug for PermitIterator<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PermitIterator")
            .field("remaining", &self.remaining)
            .finish()
    }
}

impl<T> OwnedPermit<T> {
    /// Sends `value` in the reserved slot and gives the sender back.
    pub fn send(mut self, value: T) -> Sender<T> {
        let chan = self.chan.take().expect("permit used twice");
        chan.push_permitted(value);
        Sender { chan }
    }

    /// Gives the slot back unused and returns the sender.
    pub fn release(mut self) -> Sender<T> {
        let chan = self.chan.take().expect("permit used twice");
        chan.release_permits(1);
        Sender { chan }
    }

    /// Whether both permits reserve slots of the same channel.
    pub fn same_channel(&self, other: &Self) -> bool {
        match (&self.chan, &other.chan) {
            (Some(a), Some(b)) => a.same_channel(b),
            _ => false,
        }
    }

    /// Whether this permit reserves a slot of `sender`'s channel.
    pub fn same_channel_as_sender(&self, sender: &Sender<T>) -> bool {
        self.chan
            .as_ref()
            .is_some_and(|chan| chan.same_channel(&sender.chan))
    }
}

impl<T> Drop for OwnedPermit<T> {
    fn drop(&mut self) {
        if let Some(chan) = self.chan.take() {
            chan.release_permits(1);
        }
    }
}

impl<T> fmt::Debug for OwnedPermit<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwnedPermit").finish_non_exhaustive()
    }
}
