//! [`Take`]: at most the first `n` items.

use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;

/// Stream for [`StreamExt::take`](crate::StreamExt::take).
///
/// Once `n` items have been yielded, or the inner stream has ended, the
/// inner stream is not polled again.
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct Take<St> {
    stream: St,
    remaining: usize,
}

impl<St> Take<St> {
    pub(super) fn new(stream: St, n: usize) -> Self {
        Take {
            stream,
            remaining: n,
        }
    }

    fn project(self: Pin<&mut Self>) -> (Pin<&mut St>, &mut usize) {
        // SAFETY: only `stream` is structurally pinned. `Take` never moves it
        // while pinned, has no `Drop` impl, and is `Unpin` only when `St` is.
        unsafe {
            let this = self.get_unchecked_mut();
            (Pin::new_unchecked(&mut this.stream), &mut this.remaining)
        }
    }
}

impl<St: Stream> Stream for Take<St> {
    type Item = St::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<St::Item>> {
        let (stream, remaining) = self.project();
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
