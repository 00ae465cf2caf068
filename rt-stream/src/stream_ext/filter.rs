//! [`Filter`]: only the items a predicate accepts.

use core::fmt;
use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;

pin_project! {
    /// Stream for [`StreamExt::filter`](crate::StreamExt::filter).
    #[must_use = "streams do nothing unless polled"]
    #[project = FilterProj]
    pub struct Filter<St, F> {
        #[pin]
        stream: St,
        f: F,
    }
}

impl<St, F> Filter<St, F> {
    pub(super) fn new(stream: St, f: F) -> Self {
        Filter { stream, f }
    }
}

impl<St: fmt::Debug, F> fmt::Debug for Filter<St, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Filter")
            .field("stream", &self.stream)
            .finish()
    }
}

impl<St, F> Stream for Filter<St, F>
where
    St: Stream,
    F: FnMut(&St::Item) -> bool,
{
    type Item = St::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<St::Item>> {
        let FilterProj { mut stream, f } = self.project();
        loop {
            match ready!(stream.as_mut().poll_next(cx)) {
                Some(item) if f(&item) => return Poll::Ready(Some(item)),
                Some(_) => {}
                None => return Poll::Ready(None),
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        super::size_hint::at_most(self.stream.size_hint())
    }
}
