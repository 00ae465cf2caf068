//! [`empty()`]: a stream that has already ended.

use core::fmt;
use core::marker::PhantomData;
use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::{FusedStream, Stream};

/// Stream for [`empty()`].
#[must_use = "streams do nothing unless polled"]
pub struct Empty<T>(PhantomData<fn() -> T>);

/// A stream that yields nothing: its first poll answers `None`.
///
/// ```
/// use rt_stream::{self as stream, StreamExt};
///
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut s = stream::empty::<u8>();
/// assert_eq!(s.next().await, None);
/// # });
/// ```
pub const fn empty<T>() -> Empty<T> {
    Empty(PhantomData)
}

impl<T> fmt::Debug for Empty<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Empty")
    }
}

impl<T> Clone for Empty<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Empty<T> {}

impl<T> Stream for Empty<T> {
    type Item = T;

    fn poll_next(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<T>> {
        Poll::Ready(None)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(0))
    }
}

impl<T> FusedStream for Empty<T> {
    fn is_terminated(&self) -> bool {
        true
    }
}
