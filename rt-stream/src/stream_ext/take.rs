//! [`Take`]: at most the first `n` items.

use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;

pin_project! {
    /// Stream for [`StreamExt::take`](crate::StreamExt::take).
    ///
    /// Once `n` items have been yielded, or the inner stream has ended, the
    /// inner stream is not polled again.
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    #[project = TakeProj]
    pub struct Take<St> {
        #[pin]
        stream: St,
        remaining: usize,
    }
}

impl<St> Take<St> {
    pub(super) fn new(stream: St, n: usize) -> Self {
        Take {
            stream,
            remaining: n,
        }
    }
}

impl<St: Stream> Stream for Take<St> {
    type Item = St::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<St::Item>> {
        let TakeProj { stream, remaining } = self.project();
        if *remaining == 0 {
            return Poll::Ready(None);
        }
        let item = ready!(stream.poll_next(cx));
        match item {
            Some(_) => *remaining -= 1,
            None => *remaining = 0,
        }
        Poll::Ready(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.remaining == 0 {
            return (0, Some(0));
        }
        let (low, high) = self.stream.size_hint();
        let high = match high {
            Some(high) => high.min(self.remaining),
            None => self.remaining,
        };
        (low.min(self.remaining), Some(high))
    }
}
