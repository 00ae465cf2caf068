//! `TimeoutRepeating`: items wrapped in `Ok`, and an `Err(Elapsed)` on
//! every tick of an interval while the stream stays silent.

use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;
use rt_time::Interval;

use super::Elapsed;
use crate::stream_ext::Fuse;

pin_project! {
    /// Stream for
    /// [`StreamExt::timeout_repeating`](crate::StreamExt::timeout_repeating).
    ///
    /// Each item restarts the interval; while no item comes, every tick
    /// yields one `Err(Elapsed)`.
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    pub struct TimeoutRepeating<S> {
        #[pin]
        stream: Fuse<S>,
        interval: Interval,
    }
}

impl<S: Stream> TimeoutRepeating<S> {
    pub(crate) fn new(stream: S, interval: Interval) -> TimeoutRepeating<S> {
        TimeoutRepeating {
            stream: Fuse::new(stream),
            interval,
        }
    }
}

impl<S: Stream> Stream for TimeoutRepeating<S> {
    type Item = Result<S::Item, Elapsed>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.project();
        if let Poll::Ready(item) = this.stream.poll_next(cx) {
            if item.is_some() {
                this.interval.reset();
            }
            return Poll::Ready(item.map(Ok));
        }
        ready!(this.interval.poll_tick(cx));
        Poll::Ready(Some(Err(Elapsed::new())))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Any number of errors may come between items.
        (self.stream.size_hint().0, None)
    }
}
