//! [`Map`]: each item passed through a closure.

use core::fmt;
use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;

/// Stream for [`StreamExt::map`](crate::StreamExt::map).
#[must_use = "streams do nothing unless polled"]
pub struct Map<St, F> {
    stream: St,
    f: F,
}

impl<St, F> Map<St, F> {
    pub(super) fn new(stream: St, f: F) -> Self {
        Map { stream, f }
    }

    fn project(self: Pin<&mut Self>) -> (Pin<&mut St>, &mut F) {
        // SAFETY: only `stream` is structurally pinned. `Map` never moves it
        // while pinned, has no `Drop` impl, and is `Unpin` only when `St` is;
        // `f` is never pinned, so handing it out by `&mut` is fine.
        unsafe {
            let this = self.get_unchecked_mut();
            (Pin::new_unchecked(&mut this.stream), &mut this.f)
        }
    }
}

impl<St: fmt::Debug, F> fmt::Debug for Map<St, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Map").field("stream", &self.stream).finish()
    }
}

impl<St, F, T> Stream for Map<St, F>
where
    St: Stream,
    F: FnMut(St::Item) -> T,
{
    type Item = T;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        let (stream, f) = self.project();
        stream.poll_next(cx).map(|item| item.map(f))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.stream.size_hint()
    }
}
