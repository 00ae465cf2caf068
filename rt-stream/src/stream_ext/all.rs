//! The future behind [`StreamExt::all`](crate::StreamExt::all).

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;

use super::ITEMS_PER_POLL;

/// Future for [`StreamExt::all`](crate::StreamExt::all): `true` unless some
/// item fails the predicate.
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct AllFuture<'a, St: ?Sized, F> {
    stream: &'a mut St,
    f: F,
}

impl<'a, St: ?Sized, F> AllFuture<'a, St, F> {
    pub(super) fn new(stream: &'a mut St, f: F) -> Self {
        AllFuture { stream, f }
    }
}

// Nothing in the future is pinned: the stream is behind a `&mut` and the
// closure is only called by `&mut`.
impl<St: ?Sized, F> Unpin for AllFuture<'_, St, F> {}

impl<St, F> Future for AllFuture<'_, St, F>
where
    St: ?Sized + Stream + Unpin,
    F: FnMut(St::Item) -> bool,
{
    type Output = bool;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<bool> {
        let this = self.get_mut();
        // A stream that is always ready must not keep the task forever:
        // after a batch, yield and ask to be polled again.
        for _ in 0..ITEMS_PER_POLL {
            match Pin::new(&mut *this.stream).poll_next(cx) {
                Poll::Ready(Some(item)) => {
                    if !(this.f)(item) {
                        return Poll::Ready(false);
                    }
                }
                Poll::Ready(None) => return Poll::Ready(true),
                Poll::Pending => return Poll::Pending,
            }
        }
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}
