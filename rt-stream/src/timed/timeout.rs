//! `Timeout`: items wrapped in `Ok`, and one `Err(Elapsed)` whenever the
//! stream stays silent for longer than the duration after its last item.

use core::pin::Pin;
use core::task::{ready, Context, Poll};
use std::time::Duration;

use futures_core::Stream;

use super::{Delay, Elapsed};
use crate::stream_ext::Fuse;

/// Stream for `StreamExt::timeout`.
///
/// The deadline is armed when the adapter is built and re-armed after each
/// item. When it passes, one `Err(Elapsed)` comes out; no further error
/// does until the stream yields again (timeouts do not repeat).
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub(crate) struct Timeout<S, D> {
    stream: Fuse<S>,
    deadline: D,
    duration: Duration,
    // Whether a deadline is armed that has not yet produced its error.
    watching: bool,
}

impl<S, D: Delay> Timeout<S, D> {
    /// `deadline` must already be armed for `duration`.
    pub(crate) fn new(stream: S, deadline: D, duration: Duration) -> Self {
        Timeout {
            stream: Fuse::new(stream),
            deadline,
            duration,
            watching: true,
        }
    }

    fn project(self: Pin<&mut Self>) -> (Pin<&mut Fuse<S>>, Pin<&mut D>, Duration, &mut bool) {
        // SAFETY: `stream` and `deadline` are structurally pinned. The
        // adapter never moves them while pinned, has no `Drop` impl, and is
        // `Unpin` only when both are; the other fields are never pinned.
        unsafe {
            let this = self.get_unchecked_mut();
            (
                Pin::new_unchecked(&mut this.stream),
                Pin::new_unchecked(&mut this.deadline),
                this.duration,
                &mut this.watching,
            )
        }
    }
}

impl<S: Stream, D: Delay> Stream for Timeout<S, D> {
    type Item = Result<S::Item, Elapsed>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let (stream, mut deadline, duration, watching) = self.project();
        if let Poll::Ready(item) = stream.poll_next(cx) {
            if item.is_some() {
                deadline.as_mut().arm(duration);
                *watching = true;
            }
            return Poll::Ready(item.map(Ok));
        }
        if *watching {
            ready!(deadline.poll_expired(cx));
            *watching = false;
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

#[cfg(test)]
mod tests {
    use std::task::Poll;
    use std::time::Duration;

    use super::Timeout;
    use crate::timed::manual::{poll_once, ManualDelay, Script};
    use crate::timed::Elapsed;

    const D: Duration = Duration::from_millis(10);

    #[test]
    fn one_error_per_silence_and_rearmed_after_each_item() {
        let delay = ManualDelay::default();
        let script = Script::new([
            Poll::Pending,
            Poll::Pending,
            Poll::Pending,
            Poll::Ready(Some(1)),
            Poll::Pending,
            Poll::Pending,
        ]);
        let mut s = Timeout::new(script, delay.clone(), D);
        assert_eq!(poll_once(&mut s), Poll::Pending);
        assert!(delay.has_waiter());
        delay.expire();
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(Err(Elapsed::new()))));
        // Still silent, but the error does not repeat.
        assert_eq!(poll_once(&mut s), Poll::Pending);
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(Ok(1))));
        assert_eq!(delay.armed_for(), Some(D));
        assert_eq!(delay.arms(), 1);
        // Re-armed: silence times out again only after a new expiry.
        assert_eq!(poll_once(&mut s), Poll::Pending);
        delay.expire();
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(Err(Elapsed::new()))));
        assert_eq!(poll_once(&mut s), Poll::Ready(None));
        assert_eq!(poll_once(&mut s), Poll::Ready(None));
    }

    #[test]
    fn an_item_ready_at_the_deadline_wins() {
        let delay = ManualDelay::default();
        delay.expire();
        let mut s = Timeout::new(Script::new([Poll::Ready(Some(7))]), delay, D);
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(Ok(7))));
    }

    #[test]
    fn hint_allows_an_error_around_every_item() {
        let s = Timeout::new(
            Script::new([Poll::Ready(Some(1)), Poll::Ready(Some(2))]),
            ManualDelay::default(),
            D,
        );
        assert_eq!(futures_core::Stream::size_hint(&s), (0, Some(5)));
    }
}
