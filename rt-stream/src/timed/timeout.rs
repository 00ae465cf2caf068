//! `Timeout`: items wrapped in `Ok`, and one `Err(Elapsed)` whenever the
//! stream stays silent for longer than the duration after its last item.

use core::future::Future;
use core::pin::Pin;
use core::task::{ready, Context, Poll};
use std::time::Duration;

use futures_core::Stream;
use pin_project_lite::pin_project;
use rt_time::Sleep;

use super::{deadline_after, Elapsed};
use crate::stream_ext::Fuse;

pin_project! {
    /// Stream for [`StreamExt::timeout`](crate::StreamExt::timeout).
    ///
    /// The deadline is armed when the adapter is built and re-armed after
    /// each item. When it passes, one `Err(Elapsed)` comes out; no further
    /// error does until the stream yields again (timeouts do not repeat).
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    pub struct Timeout<S> {
        #[pin]
        stream: Fuse<S>,
        #[pin]
        deadline: Sleep,
        duration: Duration,
        // Whether a deadline is armed that has not yet produced its error.
        watching: bool,
    }
}

impl<S: Stream> Timeout<S> {
    /// Starts the first deadline now; must run inside a runtime with timers.
    #[track_caller]
    pub(crate) fn new(stream: S, duration: Duration) -> Timeout<S> {
        Timeout {
            stream: Fuse::new(stream),
            deadline: rt_time::sleep_until(deadline_after(duration)),
            duration,
            watching: true,
        }
    }
}

impl<S: Stream> Stream for Timeout<S> {
    type Item = Result<S::Item, Elapsed>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut this = self.project();
        if let Poll::Ready(item) = this.stream.poll_next(cx) {
            if item.is_some() {
                this.deadline.as_mut().reset(deadline_after(*this.duration));
                *this.watching = true;
            }
            return Poll::Ready(item.map(Ok));
        }
        if *this.watching {
            ready!(this.deadline.poll(cx));
            *this.watching = false;
            return Poll::Ready(Some(Err(Elapsed::new())));
        }
        Poll::Pending
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // At most one error before each item and one after the last, so up
        // to `2n + 1` items in all.
        let (low, high) = self.stream.size_hint();
        let high = high
            .and_then(|n| n.checked_mul(2))
            .and_then(|n| n.checked_add(1));
        (low, high)
    }
}
