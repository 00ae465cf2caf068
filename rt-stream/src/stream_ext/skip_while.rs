//! [`SkipWhile`]: everything from the first item a predicate rejects on.

use core::fmt;
use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;

pin_project! {
    /// Stream for [`StreamExt::skip_while`](crate::StreamExt::skip_while).
    #[must_use = "streams do nothing unless polled"]
    #[project = SkipWhileProj]
    pub struct SkipWhile<St, F> {
        #[pin]
        stream: St,
        // Dropped once the first item got through: the predicate is never called
        // again.
        predicate: Option<F>,
    }
}

impl<St, F> SkipWhile<St, F> {
    pub(super) fn new(stream: St, predicate: F) -> Self {
        SkipWhile {
            stream,
            predicate: Some(predicate),
        }
    }
}

impl<St: fmt::Debug, F> fmt::Debug for SkipWhile<St, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SkipWhile")
            .field("stream", &self.stream)
            .field("skipping", &self.predicate.is_some())
            .finish()
    }
}

impl<St, F> Stream for SkipWhile<St, F>
where
    St: Stream,
    F: FnMut(&St::Item) -> bool,
{
    type Item = St::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<St::Item>> {
        let SkipWhileProj {
            mut stream,
            predicate,
        } = self.project();
        loop {
            let item = ready!(stream.as_mut().poll_next(cx));
            let Some(skip) = predicate.as_mut() else {
                return Poll::Ready(item);
            };
            match item {
                Some(item) if skip(&item) => {}
                other => {
                    *predicate = None;
                    return Poll::Ready(other);
                }
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.predicate.is_some() {
            super::size_hint::at_most(self.stream.size_hint())
        } else {
            self.stream.size_hint()
        }
    }
}
