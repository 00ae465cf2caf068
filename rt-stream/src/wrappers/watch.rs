//! [`WatchStream`]: a watch [`Receiver`] read as a stream of the values it
//! observes.

use core::fmt;
use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;
use rt_sync::watch::Receiver;

use super::boxed::BoxedBody;
use crate::stream_fn;

/// A stream of a watch channel's value: a clone of the value each time it
/// changes; it ends once every sender is gone.
///
/// A watch channel keeps only its latest value, so a stream read more
/// slowly than the sender writes skips the values written in between and
/// yields only the latest one. [`new`](WatchStream::new) yields the
/// current value first; [`from_changes`](WatchStream::from_changes) waits
/// for a value the receiver has not seen.
///
/// The receiver lives in a boxed read loop: building the stream makes two
/// allocations (the loop and the slot it hands items through), and
/// reading items makes none beyond what cloning a value needs.
///
/// ```
/// use rt_stream::{wrappers::WatchStream, StreamExt};
///
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let (tx, rx) = rt_sync::watch::channel("idle");
/// let mut stream = WatchStream::new(rx);
/// assert_eq!(stream.next().await, Some("idle"));
/// tx.send("busy").unwrap();
/// tx.send("done").unwrap();
/// // Only the latest value is kept.
/// assert_eq!(stream.next().await, Some("done"));
/// drop(tx);
/// assert_eq!(stream.next().await, None);
/// # });
/// ```
#[must_use = "streams do nothing unless polled"]
pub struct WatchStream<T> {
    body: BoxedBody<T>,
}

impl<T: Clone + Send + Sync + 'static> WatchStream<T> {
    /// Wraps `rx`; the first item is the value current when the stream is
    /// first polled, whether or not the receiver has seen it.
    pub fn new(rx: Receiver<T>) -> WatchStream<T> {
        WatchStream::start(rx, true)
    }

    /// Wraps `rx`; the first item is the first value the receiver has not
    /// seen yet, which may be the current one.
    pub fn from_changes(rx: Receiver<T>) -> WatchStream<T> {
        WatchStream::start(rx, false)
    }

    fn start(mut rx: Receiver<T>, current_first: bool) -> WatchStream<T> {
        let read_loop = stream_fn(move |mut tx| async move {
            if current_first {
                // Cloned into a local first: the read lock must be released
                // before the body suspends.
                let value = rx.borrow_and_update().clone();
                tx.send(value).await;
            }
            while rx.changed().await.is_ok() {
                let value = rx.borrow_and_update().clone();
                tx.send(value).await;
            }
        });
        WatchStream {
            body: BoxedBody::new(read_loop),
        }
    }
}

impl<T: Clone + Send + Sync + 'static> From<Receiver<T>> for WatchStream<T> {
    fn from(rx: Receiver<T>) -> WatchStream<T> {
        WatchStream::new(rx)
    }
}

impl<T> fmt::Debug for WatchStream<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WatchStream").finish_non_exhaustive()
    }
}

impl<T> Stream for WatchStream<T> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        self.body.poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.body.size_hint()
    }
}
