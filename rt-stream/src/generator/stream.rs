//! [`AsyncStream`] and [`TryAsyncStream`]: streams driven by a generator
//! body.

use core::fmt;
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::sync::Arc;

use futures_core::Stream;
use pin_project_lite::pin_project;

use super::sender::{Sender, Slot};

/// A stream whose items are sent by the body `f`.
///
/// `f` gets a [`Sender`] and returns the body's future; the stream ends when
/// that future completes. The body only runs while the stream is polled.
///
/// ```
/// use rt_stream::{stream_fn, StreamExt};
///
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let squares = stream_fn(|mut tx| async move {
///     for n in 1..=3u32 {
///         tx.send(n * n).await;
///     }
/// });
/// let got: Vec<u32> = squares.collect().await;
/// assert_eq!(got, [1, 4, 9]);
/// # });
/// ```
pub fn stream_fn<T, F, Fut>(f: F) -> AsyncStream<T, Fut>
where
    F: FnOnce(Sender<T>) -> Fut,
    Fut: Future<Output = ()>,
{
    let slot = Slot::new();
    let body = f(Sender::new(Arc::clone(&slot)));
    AsyncStream {
        slot,
        body: Some(body),
    }
}

/// A stream of `Result`s whose `Ok` items are sent by the body `f`; an error
/// returned by the body comes out as the last item.
///
/// ```
/// use rt_stream::{try_stream_fn, StreamExt};
///
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let parsed = try_stream_fn(|mut tx| async move {
///     for word in ["1", "2", "x", "4"] {
///         let n: u8 = word.parse().map_err(|_| format!("not a number: {word}"))?;
///         tx.send(n).await;
///     }
///     Ok(())
/// });
/// let got: Vec<Result<u8, String>> = parsed.collect().await;
/// assert_eq!(got, [Ok(1), Ok(2), Err("not a number: x".to_string())]);
/// # });
/// ```
pub fn try_stream_fn<T, E, F, Fut>(f: F) -> TryAsyncStream<T, E, Fut>
where
    F: FnOnce(Sender<T>) -> Fut,
    Fut: Future<Output = Result<(), E>>,
{
    let slot = Slot::new();
    let body = f(Sender::new(Arc::clone(&slot)));
    TryAsyncStream {
        slot,
        body: Some(body),
        error: None,
    }
}

pin_project! {
    /// Stream for [`stream_fn`].
    #[must_use = "streams do nothing unless polled"]
    #[project = AsyncStreamProj]
    pub struct AsyncStream<T, Fut> {
        slot: Arc<Slot<T>>,
        // `None` once the body has completed.
        #[pin]
        body: Option<Fut>,
    }
}

impl<T, Fut> fmt::Debug for AsyncStream<T, Fut> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AsyncStream")
            .field("done", &self.body.is_none())
            .finish()
    }
}

impl<T, Fut: Future<Output = ()>> Stream for AsyncStream<T, Fut> {
    type Item = T;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        let AsyncStreamProj { slot, mut body } = self.project();
        let finished = match body.as_mut().as_pin_mut() {
            Some(running) => running.poll(cx).is_ready(),
            None => true,
        };
        if finished {
            body.set(None);
        }
        // An item sent just before the body finished still comes out.
        match slot.take() {
            Some(item) => Poll::Ready(Some(item)),
            None if finished => Poll::Ready(None),
            None => Poll::Pending,
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.body.is_none() {
            (0, Some(0))
        } else {
            (0, None)
        }
    }
}

pin_project! {
    /// Stream for [`try_stream_fn`].
    #[must_use = "streams do nothing unless polled"]
    #[project = TryAsyncStreamProj]
    pub struct TryAsyncStream<T, E, Fut> {
        slot: Arc<Slot<T>>,
        // `None` once the body has completed.
        #[pin]
        body: Option<Fut>,
        // The body's error, held back while an item sent before it is handed
        // out first.
        error: Option<E>,
    }
}

impl<T, E, Fut> fmt::Debug for TryAsyncStream<T, E, Fut> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TryAsyncStream")
            .field("done", &self.body.is_none())
            .finish()
    }
}

impl<T, E, Fut: Future<Output = Result<(), E>>> Stream for TryAsyncStream<T, E, Fut> {
    type Item = Result<T, E>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<T, E>>> {
        let TryAsyncStreamProj {
            slot,
            mut body,
            error,
        } = self.project();
        let finished = match body.as_mut().as_pin_mut() {
            Some(running) => match running.poll(cx) {
                Poll::Ready(result) => {
                    *error = result.err();
                    true
                }
                Poll::Pending => false,
            },
            None => true,
        };
        if finished {
            body.set(None);
        }
        if let Some(item) = slot.take() {
            return Poll::Ready(Some(Ok(item)));
        }
        match error.take() {
            Some(error) => Poll::Ready(Some(Err(error))),
            None if finished => Poll::Ready(None),
            None => Poll::Pending,
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.body.is_none() && self.error.is_none() {
            (0, Some(0))
        } else {
            (0, None)
        }
    }
}
