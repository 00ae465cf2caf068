//! The unbounded channel: sending never waits.

use super::chan::{self, Rx, Tx, WeakTx};
use super::error::SendError;
use super::receiver::impl_receiver;
use super::semaphore::UnboundedSemaphore;
use super::sender::impl_sender;
use std::fmt;

/// Creates a channel with no capacity limit: `send` never waits, so a
/// producer faster than its consumer grows the queue without bound. Prefer
/// [`channel`](super::channel) unless the producers are otherwise limited.
///
/// ```
/// use rt_sync::mpsc;
///
/// # rt_sync::__doc::block_on(async {
/// let (tx, mut rx) = mpsc::unbounded_channel();
/// tx.send("hello").unwrap();
/// assert_eq!(rx.recv().await, Some("hello"));
/// # });
/// ```
pub fn unbounded_channel<T>() -> (UnboundedSender<T>, UnboundedReceiver<T>) {
    let (tx, rx) = chan::channel(UnboundedSemaphore);
    (UnboundedSender { chan: tx }, UnboundedReceiver { chan: rx })
}

/// Sends messages to an unbounded channel; clone it for more producers.
pub struct UnboundedSender<T> {
    chan: Tx<T, UnboundedSemaphore>,
}

/// An unbounded sender that does not keep the channel open; see
/// [`UnboundedSender::downgrade`].
pub struct WeakUnboundedSender<T> {
    chan: WeakTx<T, UnboundedSemaphore>,
}

/// Receives messages from an unbounded channel.
pub struct UnboundedReceiver<T> {
    chan: Rx<T, UnboundedSemaphore>,
}

impl_sender!(UnboundedSender, WeakUnboundedSender);
impl_receiver!(UnboundedReceiver);

impl<T> UnboundedSender<T> {
    /// Sends `value` without waiting; fails, handing it back, if the
    /// receiver was dropped or closed.
    pub fn send(&self, value: T) -> Result<(), SendError<T>> {
        self.chan.push_unbounded(value).map_err(SendError)
    }
}

impl<T> fmt::Debug for UnboundedSender<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UnboundedSender")
            .field("closed", &self.is_closed())
            .finish()
    }
}
