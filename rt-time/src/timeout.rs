//! `Timeout`: runs a future against a deadline.
//!
//! The inner future is always polled first, so one that is ready wins even
//! if the deadline passed meanwhile; a future that never yields cannot be
//! interrupted. When the inner future used up the task's coop budget, the
//! deadline is still checked (without budget): otherwise a future that
//! keeps spending the budget would hide the deadline forever.
//!
//! The deadline is fixed when the `Timeout` is created, and so is the check
//! that a runtime with timers is current (it panics there, like `sleep`).
//! The timer itself (the `Sleep`, holding the runtime's time handle) is
//! made on the first poll where the inner future is pending: a timeout
//! around a future that is ready at once never touches the timer.

use crate::driver::Handle;
use crate::error::Elapsed;
use crate::sleep::Sleep;
use crate::Instant;
use pin_project_lite::pin_project;
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
/// Outside a runtime, or in a runtime built without timers. The timer is
/// registered with the runtime that is current when the `Timeout` is first
/// polled and finds its future pending, so poll it inside that runtime.
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
    Handle::assert_current();
    let deadline = Instant::now()
        .checked_add(duration)
        .unwrap_or_else(Instant::far_future);
    Timeout::new(future.into_future(), deadline)
}

/// Requires `future` to complete before `deadline`, or gives [`Elapsed`].
///
/// # Panics
///
/// As for [`timeout`].
#[track_caller]
pub fn timeout_at<F: IntoFuture>(deadline: Instant, future: F) -> Timeout<F::IntoFuture> {
    Handle::assert_current();
    Timeout::new(future.into_future(), deadline)
}

pin_project! {
    /// The future returned by [`timeout`] and [`timeout_at`].
    #[must_use = "futures do nothing unless you `.await` or poll them"]
    #[derive(Debug)]
    pub struct Timeout<T> {
        #[pin]
        value: T,
        deadline: Instant,
        // The timer, made on the first poll that finds `value` pending; never
        // moved once made (it is pinned along with the `Timeout`).
        #[pin]
        delay: Option<Sleep>,
    }
}

impl<T> Timeout<T> {
    fn new(value: T, deadline: Instant) -> Timeout<T> {
        Timeout {
            value,
            deadline,
            delay: None,
        }
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
        let this = self.project();

        let had_budget_before = coop::has_budget_remaining();
        if let Poll::Ready(output) = this.value.poll(cx) {
            return Poll::Ready(Ok(output));
        }
        let has_budget_now = coop::has_budget_remaining();

        let mut slot = this.delay;
        if slot.is_none() {
            // Written only while empty: a made `Sleep` stays in place.
            slot.set(Some(Sleep::new(*this.deadline)));
        }
        let mut delay = slot.as_pin_mut().expect("the timer was just made");
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

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    fn rt() -> rt_core::runtime::Runtime {
        rt_core::runtime::Builder::new_current_thread()
            .driver_layer(crate::driver_layer(false))
            .build()
            .unwrap()
    }

    #[test]
    fn a_ready_future_never_makes_the_timer() {
        rt().block_on(async {
            let mut t = std::pin::pin!(timeout(Duration::from_secs(1), async { 1 }));
            let out = std::future::poll_fn(|cx| Poll::Ready(t.as_mut().poll(cx))).await;
            assert_eq!(out, Poll::Ready(Ok(1)));
            assert!(t.delay.is_none());
        });
    }

    #[test]
    fn a_pending_future_makes_the_timer_once() {
        rt().block_on(async {
            let mut t = Box::pin(timeout(
                Duration::from_secs(60),
                std::future::pending::<()>(),
            ));
            let pending = std::future::poll_fn(|cx| Poll::Ready(t.as_mut().poll(cx))).await;
            assert!(pending.is_pending());
            let first = t.delay.as_ref().map(|s| s as *const Sleep);
            assert!(first.is_some());
            let pending = std::future::poll_fn(|cx| Poll::Ready(t.as_mut().poll(cx))).await;
            assert!(pending.is_pending());
            assert_eq!(t.delay.as_ref().map(|s| s as *const Sleep), first);
            assert_eq!(t.delay.as_ref().unwrap().deadline(), t.deadline);
        });
    }
}
