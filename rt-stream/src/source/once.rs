//! [`once()`]: a stream of exactly one item.

use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::{FusedStream, Stream};

/// Stream for [`once()`].
#[derive(Debug, Clone)]
#[must_use = "streams do nothing unless polled"]
pub struct Once<T> {
    value: Option<T>,
}

/// A stream that yields `value` once and then ends.
///
/// ```
/// use rt_stream::{self as stream, StreamExt};
///
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut s = stream::once(1);
/// assert_eq!(s.next().await, Some(1));
/// assert_eq!(s.next().await, None);
/// # });
/// ```
pub fn once<T>(value: T) -> Once<T> {
    Once { value: Some(value) }
}

// The value is never pinned.
impl<T> Unpin for Once<T> {}

impl<T> Stream for Once<T> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<T>> {
        Poll::Ready(self.value.take())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::from(self.value.is_some());
        (left, Some(left))
    }
}

impl<T> FusedStream for Once<T> {
    fn is_terminated(&self) -> bool {
        self.value.is_none()
    }
}
