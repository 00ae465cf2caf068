//! [`BroadcastStream`]: a broadcast [`Receiver`] read as a stream, with
//! lost values reported as an item.

use core::fmt;
use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;
use rt_sync::broadcast::error::RecvError;
use rt_sync::broadcast::Receiver;

use super::boxed::BoxedBody;
use crate::stream_fn;

/// The error item of a [`BroadcastStream`].
#[derive(Debug, PartialEq, Eq, Clone)]
pub enum BroadcastStreamRecvError {
    /// The receiver fell behind and this many values were overwritten
    /// before it read them. The stream goes on with the oldest value the
    /// channel still holds.
    Lagged(u64),
}

impl fmt::Display for BroadcastStreamRecvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BroadcastStreamRecvError::Lagged(n) => write!(f, "channel lagged by {n}"),
        }
    }
}

impl std::error::Error for BroadcastStreamRecvError {}

type Item<T> = Result<T, BroadcastStreamRecvError>;

/// A stream of the values sent on a broadcast channel after its receiver
/// subscribed; it ends once every sender is gone and every value has been
/// read.
///
/// A receiver that falls more than the channel's capacity behind loses the
/// oldest values. The stream then yields one
/// [`Lagged`](BroadcastStreamRecvError::Lagged) item saying how many, and
/// carries on with the values still buffered.
///
/// The receiver lives in a boxed read loop: building the stream makes two
/// allocations (the loop and the slot it hands items through), and
/// reading items makes none.
///
/// ```
/// use rt_stream::wrappers::{BroadcastStream, BroadcastStreamRecvError};
/// use rt_stream::StreamExt;
///
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let (tx, rx) = rt_sync::broadcast::channel(2);
/// let mut stream = BroadcastStream::new(rx);
/// for n in 1..=3u32 {
///     tx.send(n).unwrap();
/// }
/// drop(tx);
/// // Capacity 2: the first value was overwritten before it was read.
/// assert_eq!(stream.next().await, Some(Err(BroadcastStreamRecvError::Lagged(1))));
/// assert_eq!(stream.next().await, Some(Ok(2)));
/// assert_eq!(stream.next().await, Some(Ok(3)));
/// assert_eq!(stream.next().await, None);
/// # });
/// ```
#[must_use = "streams do nothing unless polled"]
pub struct BroadcastStream<T> {
    body: BoxedBody<Item<T>>,
}

impl<T: Clone + Send + 'static> BroadcastStream<T> {
    /// Wraps `rx`.
    pub fn new(mut rx: Receiver<T>) -> BroadcastStream<T> {
        let read_loop = stream_fn(|mut tx| async move {
            loop {
                let item = match rx.recv().await {
                    Ok(value) => Ok(value),
                    Err(RecvError::Lagged(missed)) => Err(BroadcastStreamRecvError::Lagged(missed)),
                    Err(RecvError::Closed) => return,
                };
                tx.send(item).await;
            }
        });
        BroadcastStream {
            body: BoxedBody::new(read_loop),
        }
    }
}

impl<T: Clone + Send + 'static> From<Receiver<T>> for BroadcastStream<T> {
    fn from(rx: Receiver<T>) -> BroadcastStream<T> {
        BroadcastStream::new(rx)
    }
}

impl<T> fmt::Debug for BroadcastStream<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BroadcastStream").finish_non_exhaustive()
    }
}

impl<T> Stream for BroadcastStream<T> {
    type Item = Result<T, BroadcastStreamRecvError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.body.poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.body.size_hint()
    }
}
