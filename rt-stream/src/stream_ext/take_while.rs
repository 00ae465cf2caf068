//! [`TakeWhile`]: items up to (not including) the first one a predicate
//! rejects.

use core::fmt;
use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;

pin_project! {
    /// Stream for [`StreamExt::take_while`](crate::StreamExt::take_while).
    #[must_use = "streams do nothing unless polled"]
    #[project = TakeWhileProj]
    pub struct TakeWhile<St, F> {
        #[pin]
        stream: St,
        predicate: F,
        // Set once an item was rejected or the stream ended; the inner stream
        // is not polled after that.
        done: bool,
    }
}

impl<St, F> TakeWhile<St, F> {
    pub(super) fn new(stream: St, predicate: F) -> Self {
        TakeWhile {
            stream,
            predicate,
            done: false,
        }
    }
}

impl<St: fmt::Debug, F> fmt::Debug for TakeWhile<St, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TakeWhile")
            .field("stream", &self.stream)
            .field("done", &self.done)
            .finish()
    }
}

impl<St, F> Stream for TakeWhile<St, F>
where
    St: Stream,
    F: FnMut(&St::Item) -> bool,
{
    type Item = St::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<St::Item>> {
        let TakeWhileProj {
            stream,
            predicate,
            done,
        } = self.project();
        if *done {
            return Poll::Ready(None);
        }
        match ready!(stream.poll_next(cx)) {
            Some(item) if predicate(&item) => Poll::Ready(Some(item)),
            _ => {
                *done = true;
                Poll::Ready(None)
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.done {
            (0, Some(0))
        } else {
            super::size_hint::at_most(self.stream.size_hint())
        }
    }
}
