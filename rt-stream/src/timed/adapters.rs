//! The public time-based adapters returned by `StreamExt`: each one is its
//! timer-generic logic (the sibling modules) run on rt-time's timers.

use core::fmt;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::time::Duration;

use futures_core::Stream;
use rt_time::Interval;

use super::chunks_timeout::ChunksTimeout as ChunksTimeoutLogic;
use super::rt_timer::SleepSlot;
use super::throttle::Throttle as ThrottleLogic;
use super::timeout::Timeout as TimeoutLogic;
use super::timeout_repeating::TimeoutRepeating as TimeoutRepeatingLogic;
use super::Elapsed;

/// Stream for [`StreamExt::timeout`](crate::StreamExt::timeout).
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct Timeout<S> {
    // Structurally pinned.
    inner: TimeoutLogic<S, SleepSlot>,
}

impl<S: Stream> Timeout<S> {
    /// Starts the first deadline now; must run inside a runtime with timers.
    #[track_caller]
    pub(crate) fn new(stream: S, duration: Duration) -> Timeout<S> {
        Timeout {
            inner: TimeoutLogic::new(stream, SleepSlot::armed(duration), duration),
        }
    }
}

impl<S: Stream> Stream for Timeout<S> {
    type Item = Result<S::Item, Elapsed>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        // SAFETY: `inner` is structurally pinned; `Timeout` never moves it
        // while pinned and has no `Drop` impl.
        unsafe { self.map_unchecked_mut(|this| &mut this.inner) }.poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

/// Stream for
/// [`StreamExt::timeout_repeating`](crate::StreamExt::timeout_repeating).
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct TimeoutRepeating<S> {
    // Structurally pinned.
    inner: TimeoutRepeatingLogic<S, Interval>,
}

impl<S: Stream> TimeoutRepeating<S> {
    pub(crate) fn new(stream: S, interval: Interval) -> TimeoutRepeating<S> {
        TimeoutRepeating {
            inner: TimeoutRepeatingLogic::new(stream, interval),
        }
    }
}

impl<S: Stream> Stream for TimeoutRepeating<S> {
    type Item = Result<S::Item, Elapsed>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        // SAFETY: `inner` is structurally pinned; `TimeoutRepeating` never
        // moves it while pinned and has no `Drop` impl.
        unsafe { self.map_unchecked_mut(|this| &mut this.inner) }.poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

/// Stream for [`StreamExt::throttle`](crate::StreamExt::throttle).
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct Throttle<S> {
    // Structurally pinned.
    inner: ThrottleLogic<S, SleepSlot>,
}

impl<S> Throttle<S> {
    pub(crate) fn new(stream: S, duration: Duration) -> Throttle<S> {
        Throttle {
            inner: ThrottleLogic::new(stream, SleepSlot::new(), duration),
        }
    }

    fn project(self: Pin<&mut Self>) -> Pin<&mut ThrottleLogic<S, SleepSlot>> {
        // SAFETY: `inner` is structurally pinned; `Throttle` never moves it
        // while pinned and has no `Drop` impl.
        unsafe { self.map_unchecked_mut(|this| &mut this.inner) }
    }

    /// The wrapped stream.
    pub fn get_ref(&self) -> &S {
        self.inner.get_ref()
    }

    /// The wrapped stream, mutably. Taking items from it directly bypasses
    /// the throttle.
    pub fn get_mut(&mut self) -> &mut S {
        self.inner.get_mut()
    }

    /// The wrapped stream, pinned and mutably. Taking items from it
    /// directly bypasses the throttle.
    pub fn get_pin_mut(self: Pin<&mut Self>) -> Pin<&mut S> {
        self.project().get_pin_mut()
    }

    /// The wrapped stream, with the items it has not yielded yet.
    pub fn into_inner(self) -> S {
        self.inner.into_inner()
    }
}

impl<S: Stream> Stream for Throttle<S> {
    type Item = S::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        self.project().poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

/// Stream for [`StreamExt::chunks_timeout`](crate::StreamExt::chunks_timeout).
#[must_use = "streams do nothing unless polled"]
pub struct ChunksTimeout<S: Stream> {
    // Structurally pinned.
    inner: ChunksTimeoutLogic<S, SleepSlot>,
}

impl<S> fmt::Debug for ChunksTimeout<S>
where
    S: Stream + fmt::Debug,
    S::Item: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChunksTimeout")
            .field("inner", &self.inner)
            .finish()
    }
}

impl<S: Stream> ChunksTimeout<S> {
    #[track_caller]
    pub(crate) fn new(stream: S, max_size: usize, duration: Duration) -> ChunksTimeout<S> {
        ChunksTimeout {
            inner: ChunksTimeoutLogic::new(stream, SleepSlot::new(), max_size, duration),
        }
    }
}

impl<S: Stream> Stream for ChunksTimeout<S> {
    type Item = Vec<S::Item>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Vec<S::Item>>> {
        // SAFETY: `inner` is structurally pinned; `ChunksTimeout` never moves
        // it while pinned and has no `Drop` impl.
        unsafe { self.map_unchecked_mut(|this| &mut this.inner) }.poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}
