//! [`UnboundedReceiverStream`]: an unbounded mpsc [`UnboundedReceiver`]
//! read as a stream.

use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;
use rt_sync::mpsc::UnboundedReceiver;

/// A stream of the messages of an unbounded mpsc channel, in the order they
/// were sent; it ends once every sender is gone (or the channel was
/// closed) and every message has been read.
///
/// ```
/// use rt_stream::{wrappers::UnboundedReceiverStream, StreamExt};
///
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let (tx, rx) = rt_sync::mpsc::unbounded_channel();
/// tx.send("a").unwrap();
/// tx.send("b").unwrap();
/// drop(tx);
/// let got: Vec<&str> = UnboundedReceiverStream::new(rx).collect().await;
/// assert_eq!(got, ["a", "b"]);
/// # });
/// ```
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct UnboundedReceiverStream<T> {
    inner: UnboundedReceiver<T>,
}

impl<T> UnboundedReceiverStream<T> {
    /// Wraps `recv`.
    pub fn new(recv: UnboundedReceiver<T>) -> UnboundedReceiverStream<T> {
        UnboundedReceiverStream { inner: recv }
    }

    /// The receiver back, with the messages not read yet.
    pub fn into_inner(self) -> UnboundedReceiver<T> {
        self.inner
    }

    /// Closes the channel without dropping the receiver: senders can no
    /// longer send, and the stream ends after the messages already sent.
    pub fn close(&mut self) {
        self.inner.close();
    }
}

impl<T> AsRef<UnboundedReceiver<T>> for UnboundedReceiverStream<T> {
    fn as_ref(&self) -> &UnboundedReceiver<T> {
        &self.inner
    }
}

impl<T> AsMut<UnboundedReceiver<T>> for UnboundedReceiverStream<T> {
    fn as_mut(&mut self) -> &mut UnboundedReceiver<T> {
        &mut self.inner
    }
}

impl<T> From<UnboundedReceiver<T>> for UnboundedReceiverStream<T> {
    fn from(recv: UnboundedReceiver<T>) -> UnboundedReceiverStream<T> {
        UnboundedReceiverStream::new(recv)
    }
}

// The receiver is never pinned.
impl<T> Unpin for UnboundedReceiverStream<T> {}

impl<T> Stream for UnboundedReceiverStream<T> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        self.inner.poll_recv(cx)
    }

    /// At least the messages waiting now; exactly those once the channel is
    /// closed, since nothing can be sent after that.
    fn size_hint(&self) -> (usize, Option<usize>) {
        let waiting = self.inner.len();
        if self.inner.is_closed() {
            (waiting, Some(waiting))
        } else {
            (waiting, None)
        }
    }
}
