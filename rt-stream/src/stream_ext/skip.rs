//! [`Skip`]: everything after the first `n` items.

use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;

pin_project! {
    /// Stream for [`StreamExt::skip`](crate::StreamExt::skip).
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    #[project = SkipProj]
    pub struct Skip<St> {
        #[pin]
        stream: St,
        remaining: usize,
    }
}

impl<St> Skip<St> {
    pub(super) fn new(stream: St, n: usize) -> Self {
        Skip {
            stream,
            remaining: n,
        }
    }
}

impl<St: Stream> Stream for Skip<St> {
    type Item = St::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<St::Item>> {
        let SkipProj {
            mut stream,
            remaining,
        } = self.project();
        loop {
            let item = ready!(stream.as_mut().poll_next(cx));
            if *remaining == 0 || item.is_none() {
                return Poll::Ready(item);
            }
            *remaining -= 1;
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let (low, high) = self.stream.size_hint();
        (
            low.saturating_sub(self.remaining),
            high.map(|high| high.saturating_sub(self.remaining)),
        )
    }
}
