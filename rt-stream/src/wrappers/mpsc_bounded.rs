//! [`ReceiverStream`]: a bounded mpsc [`Receiver`] read as a stream.

use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;
use rt_sync::mpsc::Receiver;

/// A stream of the messages of a bounded mpsc channel, in the order they
/// were sent; it ends once every sender is gone (or the channel was
/// closed) and every message has been read.
///
/// ```
/// use rt_stream::{wrappers::ReceiverStream, StreamExt};
///
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let (tx, rx) = rt_sync::mpsc::channel(4);
/// for n in 1..=3u8 {
///     tx.send(n).await.unwrap();
/// }
/// drop(tx);
/// let got: Vec<u8> = ReceiverStream::new(rx).collect().await;
/// assert_eq!(got, [1, 2, 3]);
/// # });
/// ```
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct ReceiverStream<T> {
    inner: Receiver<T>,
}

impl<T> ReceiverStream<T> {
    /// Wraps `recv`.
    pub fn new(recv: Receiver<T>) -> ReceiverStream<T> {
        ReceiverStream { inner: recv }
    }

    /// The receiver back, with the messages not read yet.
    pub fn into_inner(self) -> Receiver<T> {
        self.inner
    }

    /// Closes the channel without dropping the receiver: senders can no
    /// longer send, and the stream ends after the messages (and reserved
    /// permits) already in flight.
    pub fn close(&mut self) {
        self.inner.close();
    }
}

impl<T> AsRef<Receiver<T>> for ReceiverStream<T> {
    fn as_ref(&self) -> &Receiver<T> {
        &self.inner
    }
}

impl<T> AsMut<Receiver<T>> for ReceiverStream<T> {
    fn as_mut(&mut self) -> &mut Receiver<T> {
        &mut self.inner
    }
}

impl<T> From<Receiver<T>> for ReceiverStream<T> {
    fn from(recv: Receiver<T>) -> ReceiverStream<T> {
        ReceiverStream::new(recv)
    }
}

// The receiver is never pinned.
impl<T> Unpin for ReceiverStream<T> {}

impl<T> Stream for ReceiverStream<T> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        self.inner.poll_recv(cx)
    }

    /// At least the messages waiting now. While the channel is open more may
    /// come, so there is no upper bound; once it is closed, at most the
    /// slots still held, which counts the waiting messages and the permits
    /// reserved before the close that may still send.
    fn size_hint(&self) -> (usize, Option<usize>) {
        let waiting = self.inner.len();
        if self.inner.is_closed() {
            let held = self
                .inner
                .max_capacity()
                .saturating_sub(self.inner.capacity());
            (waiting, Some(held.max(waiting)))
        } else {
            (waiting, None)
        }
    }
}
