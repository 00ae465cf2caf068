//! [`FilterMap`]: items mapped through a closure, keeping only the `Some`s.

use core::fmt;
use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;

pin_project! {
    /// Stream for [`StreamExt::filter_map`](crate::StreamExt::filter_map).
    #[must_use = "streams do nothing unless polled"]
    #[project = FilterMapProj]
    pub struct FilterMap<St, F> {
        #[pin]
        stream: St,
        f: F,
    }
}

impl<St, F> FilterMap<St, F> {
    pub(super) fn new(stream: St, f: F) -> Self {
        FilterMap { stream, f }
    }
}

impl<St: fmt::Debug, F> fmt::Debug for FilterMap<St, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FilterMap")
            .field("stream", &self.stream)
            .finish()
    }
}

impl<St, F, T> Stream for FilterMap<St, F>
where
    St: Stream,
    F: FnMut(St::Item) -> Option<T>,
{
    type Item = T;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        let FilterMapProj { mut stream, f } = self.project();
        loop {
            match ready!(stream.as_mut().poll_next(cx)) {
                Some(item) => {
                    if let Some(mapped) = f(item) {
                        return Poll::Ready(Some(mapped));
                    }
                }
                None => return Poll::Ready(None),
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        super::size_hint::at_most(self.stream.size_hint())
    }
}
