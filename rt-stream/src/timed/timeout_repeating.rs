//! `TimeoutRepeating`: items wrapped in `Ok`, and an `Err(Elapsed)` on
//! every tick of an interval while the stream stays silent.

use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;

use super::{Elapsed, Ticker};
use crate::stream_ext::Fuse;

/// Stream for `StreamExt::timeout_repeating`.
///
/// Each item restarts the interval; while no item comes, every tick yields
/// one `Err(Elapsed)`.
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub(crate) struct TimeoutRepeating<S, I> {
    stream: Fuse<S>,
    interval: I,
}

impl<S, I: Ticker> TimeoutRepeating<S, I> {
    pub(crate) fn new(stream: S, interval: I) -> Self {
        TimeoutRepeating {
            stream: Fuse::new(stream),
            interval,
        }
    }

    fn project(self: Pin<&mut Self>) -> (Pin<&mut Fuse<S>>, &mut I) {
        // SAFETY: only `stream` is structurally pinned. The adapter never
        // moves it while pinned, has no `Drop` impl, and is `Unpin` only when
        // `S` is; the interval is never pinned.
        unsafe {
            let this = self.get_unchecked_mut();
            (Pin::new_unchecked(&mut this.stream), &mut this.interval)
        }
    }
}

impl<S: Stream, I: Ticker> Stream for TimeoutRepeating<S, I> {
    type Item = Result<S::Item, Elapsed>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let (stream, interval) = self.project();
        if let Poll::Ready(item) = stream.poll_next(cx) {
            if item.is_some() {
                interval.reset();
            }
            return Poll::Ready(item.map(Ok));
        }
        ready!(interval.poll_tick(cx));
        Poll::Ready(Some(Err(Elapsed::new())))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Any number of errors may come between items.
        (self.stream.size_hint().0, None)
    }
}

#[cfg(test)]
mod tests {
    use std::task::Poll;

    use super::TimeoutRepeating;
    use crate::timed::manual::{poll_once, ManualTicker, Script};
    use crate::timed::Elapsed;

    #[test]
    fn every_tick_of_silence_is_an_error_until_an_item_comes() {
        let ticker = ManualTicker::default();
        let script = Script::new([
            Poll::Pending,
            Poll::Pending,
            Poll::Pending,
            Poll::Ready(Some('x')),
        ]);
        let mut s = TimeoutRepeating::new(script, ticker.clone());
        ticker.tick();
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(Err(Elapsed::new()))));
        ticker.tick();
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(Err(Elapsed::new()))));
        assert_eq!(poll_once(&mut s), Poll::Pending);
        ticker.tick();
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(Ok('x'))));
        // The item restarted the interval, dropping the tick that was due.
        assert_eq!(ticker.resets(), 1);
        assert_eq!(poll_once(&mut s), Poll::Ready(None));
        assert_eq!(poll_once(&mut s), Poll::Ready(None));
        assert_eq!(futures_core::Stream::size_hint(&s), (0, None));
    }
}
