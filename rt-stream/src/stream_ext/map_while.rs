//! [`MapWhile`]: items mapped through a closure until it first says `None`.

use core::fmt;
use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;

pin_project! {
    /// Stream for [`StreamExt::map_while`](crate::StreamExt::map_while).
    #[must_use = "streams do nothing unless polled"]
    #[project = MapWhileProj]
    pub struct MapWhile<St, F> {
        #[pin]
        stream: St,
        f: F,
        // Set when the closure or the stream has ended the sequence; the inner
        // stream is not polled again after that.
        done: bool,
    }
}

impl<St, F> MapWhile<St, F> {
    pub(super) fn new(stream: St, f: F) -> Self {
        MapWhile {
            stream,
            f,
            done: false,
        }
    }
}

impl<St: fmt::Debug, F> fmt::Debug for MapWhile<St, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapWhile")
            .field("stream", &self.stream)
            .field("done", &self.done)
            .finish()
    }
}

impl<St, F, T> Stream for MapWhile<St, F>
where
    St: Stream,
    F: FnMut(St::Item) -> Option<T>,
{
    type Item = T;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        let MapWhileProj { stream, f, done } = self.project();
        if *done {
            return Poll::Ready(None);
        }
        let mapped = ready!(stream.poll_next(cx)).and_then(f);
        if mapped.is_none() {
            *done = true;
        }
        Poll::Ready(mapped)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.done {
            (0, Some(0))
        } else {
            super::size_hint::at_most(self.stream.size_hint())
        }
    }
}
