//! [`IntervalStream`]: an rt-time [`Interval`] read as a stream of its
//! ticks.

use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;
use rt_time::{Instant, Interval};

/// A never-ending stream of an [`Interval`]'s ticks, each yielded as the
/// instant it was due.
///
/// The interval's missed-tick behaviour decides what a slow reader sees.
///
/// ```
/// use std::time::Duration;
/// use rt_stream::{wrappers::IntervalStream, StreamExt};
///
/// # let rt = rt_core::runtime::Builder::new_current_thread()
/// #     .driver_layer(rt_time::driver_layer(true))
/// #     .build()
/// #     .unwrap();
/// # rt.block_on(async {
/// let period = Duration::from_millis(10);
/// let ticks: Vec<_> = IntervalStream::new(rt_time::interval(period))
///     .take(3)
///     .collect()
///     .await;
/// assert_eq!(ticks[2] - ticks[0], period * 2);
/// # });
/// ```
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct IntervalStream {
    inner: Interval,
}

impl IntervalStream {
    /// Wraps `interval`.
    pub fn new(interval: Interval) -> IntervalStream {
        IntervalStream { inner: interval }
    }

    /// The interval back.
    pub fn into_inner(self) -> Interval {
        self.inner
    }
}

impl AsRef<Interval> for IntervalStream {
    fn as_ref(&self) -> &Interval {
        &self.inner
    }
}

impl AsMut<Interval> for IntervalStream {
    fn as_mut(&mut self) -> &mut Interval {
        &mut self.inner
    }
}

impl Stream for IntervalStream {
    type Item = Instant;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Instant>> {
        self.inner.poll_tick(cx).map(Some)
    }

    /// It never ends.
    fn size_hint(&self) -> (usize, Option<usize>) {
        (usize::MAX, None)
    }
}
