//! The unbounded channel: sending never waits.

use super::chan::{self, Rx, Tx, WeakTx};
use super::error::{SendError, TryRecvError};
use std::fmt;
use std::task::{Context, Poll};

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
    let (tx, rx) = chan::channel(None);
    (UnboundedSender { chan: tx }, UnboundedReceiver { chan: rx })
}

/// Sends messages to an unbounded channel; clone it for more producers.
pub struct UnboundedSender<T> {
    chan: Tx<T>,
}

/// An unbounded sender that does not keep the channel open.
pub struct WeakUnboundedSender<T> {
    chan: WeakTx<T>,
}

/// Receives messages from an unbounded channel.
pub struct UnboundedReceiver<T> {
    chan: Rx<T>,
}

impl<T> UnboundedSender<T> {
    /// Sends `value` without waiting; fails, handing it back, if the
    /// receiver was dropped or closed.
    pub fn send(&self, value: T) -> Result<(), SendError<T>> {
        self.chan.push_unbounded(value).map_err(SendError)
    }

    /// Waits until the receiver is dropped or closed.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe.
    pub async fn closed(&self) {
        self.chan.closed().await
    }

    /// Whether the receiver was dropped or closed.
    pub fn is_closed(&self) -> bool {
        self.chan.is_closed()
    }

    /// Whether both senders feed the same channel.
    pub fn same_channel(&self, other: &Self) -> bool {
        self.chan.same_channel(&other.chan)
    }

    /// A [`WeakUnboundedSender`], which does not keep the channel open.
    pub fn downgrade(&self) -> WeakUnboundedSender<T> {
        WeakUnboundedSender {
            chan: self.chan.downgrade(),
        }
    }

    /// Live (strong) senders of this channel.
    pub fn strong_count(&self) -> usize {
        self.chan.strong_count()
    }

    /// Live weak senders of this channel.
    pub fn weak_count(&self) -> usize {
        self.chan.weak_count()
    }
}

impl<T> Clone for UnboundedSender<T> {
    fn clone(&self) -> Self {
        UnboundedSender {
            chan: self.chan.clone(),
        }
    }
}

impl<T> fmt::Debug for UnboundedSender<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UnboundedSender")
            .field("closed", &self.is_closed())
            .finish()
    }
}

impl<T> WeakUnboundedSender<T> {
    /// A strong sender, unless every strong sender is gone.
    pub fn upgrade(&self) -> Option<UnboundedSender<T>> {
        self.chan.upgrade().map(|chan| UnboundedSender { chan })
    }

    /// Live (strong) senders of this channel.
    pub fn strong_count(&self) -> usize {
        self.chan.strong_count()
    }

    /// Live weak senders of this channel.
    pub fn weak_count(&self) -> usize {
        self.chan.weak_count()
    }
}

impl<T> Clone for WeakUnboundedSender<T> {
    fn clone(&self) -> Self {
        WeakUnboundedSender {
            chan: self.chan.clone(),
        }
    }
}

impl<T> fmt::Debug for WeakUnboundedSender<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WeakUnboundedSender")
            .finish_non_exhaustive()
    }
}

impl<T> UnboundedReceiver<T> {
    /// Waits for the next message; `None` once every sender is gone (or
    /// the channel was closed) and every message has been received.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe: a message is only taken by the poll that returns it.
    pub async fn recv(&mut self) -> Option<T> {
        std::future::poll_fn(|cx| self.chan.poll_recv(cx)).await
    }

    /// Waits for messages and moves up to `limit` of them into `buffer`;
    /// returns how many (0 only for `limit == 0` or a closed, drained
    /// channel).
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe.
    pub async fn recv_many(&mut self, buffer: &mut Vec<T>, limit: usize) -> usize {
        std::future::poll_fn(|cx| self.chan.poll_recv_many(cx, buffer, limit)).await
    }

    /// Takes the next message if one is there right now.
    pub fn try_recv(&mut self) -> Result<T, TryRecvError> {
        self.chan.try_recv()
    }

    /// Receives from synchronous code, parking the thread while empty.
    ///
    /// Must not be called from inside an asynchronous task.
    pub fn blocking_recv(&mut self) -> Option<T> {
        crate::park::block_on(self.recv())
    }

    /// As [`recv_many`](Self::recv_many), parking the thread.
    ///
    /// Must not be called from inside an asynchronous task.
    pub fn blocking_recv_many(&mut self, buffer: &mut Vec<T>, limit: usize) -> usize {
        crate::park::block_on(self.recv_many(buffer, limit))
    }

    /// Closes the channel: later sends fail, messages already sent are
    /// still delivered.
    pub fn close(&mut self) {
        self.chan.close();
    }

    /// Whether the channel is closed (by [`close`](Self::close) or because
    /// every sender is gone). Messages may still be waiting.
    pub fn is_closed(&self) -> bool {
        self.chan.is_closed()
    }

    /// Whether no message is waiting.
    pub fn is_empty(&self) -> bool {
        self.chan.len() == 0
    }

    /// Messages waiting.
    pub fn len(&self) -> usize {
        self.chan.len()
    }

    /// Live (strong) senders of this channel.
    pub fn sender_strong_count(&self) -> usize {
        self.chan.sender_strong_count()
    }

    /// Live weak senders of this channel.
    pub fn sender_weak_count(&self) -> usize {
        self.chan.sender_weak_count()
    }

    /// Polls for the next message; see [`recv`](Self::recv).
    pub fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Option<T>> {
        self.chan.poll_recv(cx)
    }

    /// Polls for up to `limit` messages; see [`recv_many`](Self::recv_many).
    pub fn poll_recv_many(
        &mut self,
        cx: &mut Context<'_>,
        buffer: &mut Vec<T>,
        limit: usize,
    ) -> Poll<usize> {
        self.chan.poll_recv_many(cx, buffer, limit)
    }
}

impl<T> fmt::Debug for UnboundedReceiver<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UnboundedReceiver")
            .field("len", &self.len())
            .finish()
    }
}
