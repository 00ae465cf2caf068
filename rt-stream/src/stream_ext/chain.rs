//! [`Chain`]: one stream's items, then another's.

use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;

use super::size_hint::add_hints;
use super::Fuse;

pin_project! {
    /// Stream for [`StreamExt::chain`](crate::StreamExt::chain).
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    #[project = ChainProj]
    pub struct Chain<T, U> {
        #[pin]
        first: Fuse<T>,
        #[pin]
        second: U,
    }
}

impl<T, U> Chain<T, U> {
    pub(super) fn new(first: T, second: U) -> Self {
        Chain {
            first: Fuse::new(first),
            second,
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
        let ChainProj { first, second } = self.project();
        if let Some(item) = ready!(first.poll_next(cx)) {
            return Poll::Ready(Some(item));
        }
        second.poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        add_hints(self.first.size_hint(), self.second.size_hint())
    }
}
