//! [`pending()`]: a stream that never yields and never ends.

use core::fmt;
use core::marker::PhantomData;
use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;

/// Stream for [`pending()`].
#[must_use = "streams do nothing unless polled"]
pub struct Pending<T>(PhantomData<fn() -> T>);

/// A stream that is never ready: every poll answers `Pending` and nothing
/// ever wakes the task for it.
///
/// Useful as a placeholder branch, for example in a `StreamMap` or a
/// `merge` that should only end when the other side does.
pub const fn pending<T>() -> Pending<T> {
    Pending(PhantomData)
}

impl<T> fmt::Debug for Pending<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Pending")
    }
}

impl<T> Clone for Pending<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Pending<T> {}

impl<T> Stream for Pending<T> {
    type Item = T;

    fn poll_next(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<T>> {
        Poll::Pending
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // It never yields, so nothing is left to come.
        (0, Some(0))
    }
}
