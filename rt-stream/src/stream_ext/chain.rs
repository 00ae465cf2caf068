//! [`Chain`]: one stream's items, then another's.

use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;

use super::size_hint::add_hints;
use super::Fuse;

/// Stream for [`StreamExt::chain`](crate::StreamExt::chain).
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct Chain<T, U> {
    first: Fuse<T>,
    second: U,
}

impl<T, U> Chain<T, U> {
    pub(super) fn new(first: T, second: U) -> Self {
        Chain {
            first: Fuse::new(first),
            second,
        }
    }

    fn project(self: Pin<&mut Self>) -> (Pin<&mut Fuse<T>>, Pin<&mut U>) {
        // SAFETY: both fields are structurally pinned. `Chain` never moves
        // them while pinned, has no `Drop` impl, and is `Unpin` only when
        // both are.
        unsafe {
            let this = self.get_unchecked_mut();
            (
                Pin::new_unchecked(&mut this.first),
                Pin::new_unchecked(&mut this.second),
            )
        }
    }
}

impl<T, U> Stream for Chain<T, U>
where
    T: Stream,
    U: Stream<Item = T::Item>,
{
    type Item = T::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T::Item>> {
        let (first, second) = self.project();
        if let Some(item) = ready!(first.poll_next(cx)) {
            return Poll::Ready(Some(item));
        }
        second.poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        add_hints(self.first.size_hint(), self.second.size_hint())
    }
}
