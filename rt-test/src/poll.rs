//! Polling a future or stream exactly once, to check what a single poll
//! returns and whom it registers for a wake-up.

use crate::waker::{counting_waker, noop_waker};
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

/// Checks the wake-up contract of `future` around `event`: the future
/// waits when first polled, `event` wakes it exactly once, and it is then
/// ready. Returns its output.
///
/// ```
/// use std::cell::{Cell, RefCell};
/// use std::pin::pin;
/// use std::task::{Poll, Waker};
///
/// let ready = Cell::new(false);
/// let parked: RefCell<Option<Waker>> = RefCell::new(None);
/// let future = pin!(std::future::poll_fn(|cx| {
///     if ready.get() {
///         return Poll::Ready("done");
///     }
///     *parked.borrow_mut() = Some(cx.waker().clone());
///     Poll::Pending
/// }));
/// let out = rt_test::assert_wakes(future, || {
///     ready.set(true);
///     parked.borrow_mut().take().unwrap().wake();
/// });
/// assert_eq!(out, "done");
/// ```
///
/// # Panics
///
/// If the future is ready at once, is woken other than exactly once, or is
/// still pending after the event.
#[track_caller]
pub fn assert_wakes<F: Future + ?Sized>(
    mut future: Pin<&mut F>,
    event: impl FnOnce(),
) -> F::Output {
    let (wakes, waker) = counting_waker();
    assert!(
        poll_with(future.as_mut(), &waker).is_pending(),
        "the future waits before the event"
    );
    event();
    assert_eq!(wakes.count(), 1, "the event wakes the future exactly once");
    match poll_once(future) {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the future is ready after the event"),
    }
}
