//! [`Merge`]: two streams interleaved fairly.

use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;

use super::size_hint::add_hints;
use super::Fuse;

/// Stream for [`StreamExt::merge`](crate::StreamExt::merge).
///
/// Each poll asks first the side that was asked second last time, so two
/// streams that are always ready take strict turns. There is no waker logic
/// here: the caller's context goes to both sides, and whichever becomes
/// ready wakes the task.
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct Merge<T, U> {
    a: Fuse<T>,
    b: Fuse<U>,
    a_first: bool,
}

impl<T, U> Merge<T, U> {
    pub(super) fn new(a: T, b: U) -> Self {
        Merge {
            a: Fuse::new(a),
            b: Fuse::new(b),
            a_first: true,
        }
    }

    fn project(self: Pin<&mut Self>) -> (Pin<&mut Fuse<T>>, Pin<&mut Fuse<U>>, &mut bool) {
        // SAFETY: `a` and `b` are structurally pinned. `Merge` never moves
        // them while pinned, has no `Drop` impl, and is `Unpin` only when both
        // are; `a_first` is never pinned.
        unsafe {
            let this = self.get_unchecked_mut();
            (
                Pin::new_unchecked(&mut this.a),
                Pin::new_unchecked(&mut this.b),
                &mut this.a_first,
            )
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
        let (a, b, a_first) = self.project();
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
