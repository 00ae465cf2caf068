//! [`Merge`]: two streams interleaved fairly.

use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;

use super::size_hint::add_hints;
use super::Fuse;

pin_project! {
    /// Stream for [`StreamExt::merge`](crate::StreamExt::merge).
    ///
    /// Each poll asks first the side that was asked second last time, so two
    /// streams that are always ready take strict turns. There is no waker logic
    /// here: the caller's context goes to both sides, and whichever becomes
    /// ready wakes the task.
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    #[project = MergeProj]
    pub struct Merge<T, U> {
        #[pin]
        a: Fuse<T>,
        #[pin]
        b: Fuse<U>,
        a_first: bool,
    }
}

impl<T, U> Merge<T, U> {
    pub(super) fn new(a: T, b: U) -> Self {
        Merge {
            a: Fuse::new(a),
            b: Fuse::new(b),
            a_first: true,
        }
    }
}

impl<T, U> Stream for Merge<T, U>
where
    T: Stream,
    U: Stream<Item = T::Item>,
{
    type Item = T::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T::Item>> {
        let MergeProj { a, b, a_first } = self.project();
        let poll_a_first = *a_first;
        *a_first = !poll_a_first;
        if poll_a_first {
            poll_both(cx, a, b)
        } else {
            poll_both(cx, b, a)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        add_hints(self.a.size_hint(), self.b.size_hint())
    }
}

/// Polls `first`, then `second` if `first` had no item. Ends only when both
/// have ended; a fused side that ended answers `None` without being polled.
fn poll_both<T, U>(
    cx: &mut Context<'_>,
    first: Pin<&mut Fuse<T>>,
    second: Pin<&mut Fuse<U>>,
) -> Poll<Option<T::Item>>
where
    T: Stream,
    U: Stream<Item = T::Item>,
{
    let mut both_ended = true;
    match first.poll_next(cx) {
        Poll::Ready(Some(item)) => return Poll::Ready(Some(item)),
        Poll::Ready(None) => {}
        Poll::Pending => both_ended = false,
    }
    match second.poll_next(cx) {
        Poll::Ready(Some(item)) => return Poll::Ready(Some(item)),
        Poll::Ready(None) => {}
        Poll::Pending => both_ended = false,
    }
    if both_ended {
        Poll::Ready(None)
    } else {
        Poll::Pending
    }
}
