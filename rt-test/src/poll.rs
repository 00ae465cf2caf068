//! Polling a future or stream exactly once, to check what a single poll
//! returns and whom it registers for a wake-up.

use crate::waker::noop_waker;
use futures_core::Stream;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

/// Polls `future` once with `waker`.
pub fn poll_with<F: Future + ?Sized>(future: Pin<&mut F>, waker: &Waker) -> Poll<F::Output> {
    future.poll(&mut Context::from_waker(waker))
}

/// Polls `future` once with a waker that does nothing.
///
/// ```
/// use std::pin::pin;
/// assert!(rt_test::poll_once(pin!(async { 7 })).is_ready());
/// assert!(rt_test::poll_once(pin!(std::future::pending::<()>())).is_pending());
/// ```
pub fn poll_once<F: Future + ?Sized>(future: Pin<&mut F>) -> Poll<F::Output> {
    poll_with(future, &noop_waker())
}

/// Asks `stream` once for its next item, with a waker that does nothing.
pub fn poll_next_once<S: Stream + Unpin + ?Sized>(stream: &mut S) -> Poll<Option<S::Item>> {
    Pin::new(stream).poll_next(&mut Context::from_waker(&noop_waker()))
}
