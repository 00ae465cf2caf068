//! `Throttle`: the stream's items, at least a given duration apart.

use core::pin::Pin;
use core::task::{ready, Context, Poll};
use std::time::Duration;

use futures_core::Stream;

use super::Delay;

/// Stream for `StreamExt::throttle`.
///
/// After each item the inner stream is not polled again until the delay,
/// armed for the duration, has expired. The first item is not delayed.
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub(crate) struct Throttle<S, D> {
    stream: S,
    delay: D,
    duration: Duration,
    // Whether the pause since the last item is over (true before the first).
    rested: bool,
}

impl<S, D: Delay> Throttle<S, D> {
    /// `delay` need not be armed: the first item goes through at once.
    pub(crate) fn new(stream: S, delay: D, duration: Duration) -> Self {
        Throttle {
            stream,
            delay,
            duration,
            rested: true,
        }
    }

    pub(crate) fn get_ref(&self) -> &S {
        &self.stream
    }

    pub(crate) fn get_mut(&mut self) -> &mut S {
        &mut self.stream
    }

    pub(crate) fn get_pin_mut(self: Pin<&mut Self>) -> Pin<&mut S> {
        self.project().0
    }

    pub(crate) fn into_inner(self) -> S {
        self.stream
    }

    fn project(self: Pin<&mut Self>) -> (Pin<&mut S>, Pin<&mut D>, Duration, &mut bool) {
        // SAFETY: `stream` and `delay` are structurally pinned. The adapter
        // never moves them while pinned, has no `Drop` impl, and is `Unpin`
        // only when both are; the other fields are never pinned.
        unsafe {
            let this = self.get_unchecked_mut();
            (
                Pin::new_unchecked(&mut this.stream),
                Pin::new_unchecked(&mut this.delay),
                this.duration,
                &mut this.rested,
            )
        }
    }
}

impl<S: Stream, D: Delay> Stream for Throttle<S, D> {
    type Item = S::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        let (stream, mut delay, duration, rested) = self.project();
        if !*rested {
            ready!(delay.as_mut().poll_expired(cx));
            *rested = true;
        }
        let item = ready!(stream.poll_next(cx));
        if item.is_some() && !duration.is_zero() {
            delay.arm(duration);
            *rested = false;
        }
        Poll::Ready(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.stream.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use std::task::Poll;
    use std::time::Duration;

    use super::Throttle;
    use crate::timed::manual::{poll_once, ManualDelay, Script};

    const D: Duration = Duration::from_millis(5);

    #[test]
    fn items_wait_for_the_delay_after_the_previous_one() {
        let delay = ManualDelay::default();
        let script = Script::new([Poll::Ready(Some(1)), Poll::Ready(Some(2))]);
        let mut s = Throttle::new(script, delay.clone(), D);
        assert_eq!(futures_core::Stream::size_hint(&s), (0, Some(2)));
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(1)));
        assert_eq!(delay.armed_for(), Some(D));
        assert_eq!(poll_once(&mut s), Poll::Pending);
        assert_eq!(poll_once(&mut s), Poll::Pending);
        delay.expire();
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(2)));
        assert_eq!(poll_once(&mut s), Poll::Pending);
        delay.expire();
        assert_eq!(poll_once(&mut s), Poll::Ready(None));
        assert_eq!(delay.arms(), 2);
    }

    #[test]
    fn a_zero_duration_never_waits() {
        let delay = ManualDelay::default();
        let script = Script::new([Poll::Ready(Some(1)), Poll::Ready(Some(2))]);
        let mut s = Throttle::new(script, delay.clone(), Duration::ZERO);
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(1)));
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(2)));
        assert_eq!(delay.arms(), 0);
    }
}
