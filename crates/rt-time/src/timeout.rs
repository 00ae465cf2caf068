//! `Timeout`: runs a future against a deadline.
//!
//! The inner future is always polled first, so one that is ready wins even
//! if the deadline passed meanwhile; a future that never yields cannot be
//! interrupted. When the inner future used up the task's coop budget, the
//! deadline is still checked (without budget): otherwise a future that
//! keeps spending the budget would hide the deadline forever.

use crate::error::Elapsed;
use crate::sleep::{sleep_until, Sleep};
use crate::Instant;
use rt_core::task::coop;
use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

/// Requires `future` to complete within `duration`, or gives
/// [`Elapsed`].
///
/// # Panics
///
/// Outside a runtime, or in a runtime built without timers.
///
/// ```
/// # let rt = rt_core::runtime::Builder::new_current_thread()
/// #     .driver_layer(rt_time::driver_layer(false)).build().unwrap();
/// # rt.block_on(async {
/// use std::time::Duration;
///
/// let fast = rt_time::timeout(Duration::from_secs(1), async { 7 }).await;
/// assert_eq!(fast, Ok(7));
/// let slow = rt_time::timeout(Duration::from_millis(5), std::future::pending::<()>()).await;
/// assert!(slow.is_err());
/// # });
/// ```
#[track_caller]
pub fn timeout<F: IntoFuture>(duration: Duration, future: F) -> Timeout<F::IntoFuture> {
    let deadline = Instant::now()
        .checked_add(duration)
        .unwrap_or_else(Instant::far_future);
    Timeout::new(future.into_future(), sleep_until(deadline))
}

/// Requires `future` to complete before `deadline`, or gives [`Elapsed`].
///
/// # Panics
///
/// Outside a runtime, or in a runtime built without timers.
#[track_caller]
pub fn timeout_at<F: IntoFuture>(deadline: Instant, future: F) -> Timeout<F::IntoFuture> {
    Timeout::new(future.into_future(), sleep_until(deadline))
}

/// The future returned by [`timeout`] and [`timeout_at`].
#[must_use = "futures do nothing unless you `.await` or poll them"]
#[derive(Debug)]
pub struct Timeout<T> {
    value: T,
    delay: Sleep,
}

impl<T> Timeout<T> {
    pub(crate) fn new(value: T, delay: Sleep) -> Timeout<T> {
        Timeout { value, delay }
    }

    /// The inner future.
    pub fn get_ref(&self) -> &T {
        &self.value
    }

    /// The inner future, mutably.
    pub fn get_mut(&mut self) -> &mut T {
        &mut self.value
    }

    /// Gives up the deadline and returns the inner future.
    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<T: Future> Future for Timeout<T> {
    type Output = Result<T::Output, Elapsed>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // SAFETY: `value` and `delay` are structurally pinned: nothing moves
        // them out of a pinned `Timeout` (`into_inner` needs `self` by value,
        // which a pinned `Timeout` only gives up when it is `Unpin`).
        let this = unsafe { self.get_unchecked_mut() };
        // SAFETY: see above.
        let value = unsafe { Pin::new_unchecked(&mut this.value) };
        // SAFETY: see above.
        let mut delay = unsafe { Pin::new_unchecked(&mut this.delay) };

        let had_budget_before = coop::has_budget_remaining();
        if let Poll::Ready(output) = value.poll(cx) {
            return Poll::Ready(Ok(output));
        }
        let has_budget_now = coop::has_budget_remaining();
        let elapsed = if had_budget_before && !has_budget_now {
            // The inner future spent the last unit: check the deadline
            // anyway, or it could stay hidden behind the budget forever.
            let unconstrained =
                coop::unconstrained(std::future::poll_fn(|cx| delay.as_mut().poll(cx)));
            std::pin::pin!(unconstrained).poll(cx)
        } else {
            delay.poll(cx)
        };
        elapsed.map(|()| Err(Elapsed::new()))
    }
}
