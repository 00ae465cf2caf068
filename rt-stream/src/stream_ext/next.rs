//! The future behind [`StreamExt::next`](crate::StreamExt::next).

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;

/// Future for [`StreamExt::next`](crate::StreamExt::next): the stream's
/// next item, or `None` once it has ended.
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct Next<'a, St: ?Sized> {
    stream: &'a mut St,
}

impl<'a, St: ?Sized> Next<'a, St> {
    pub(super) fn new(stream: &'a mut St) -> Self {
        Next { stream }
    }
}

impl<St: ?Sized + Stream + Unpin> Future for Next<'_, St> {
    type Output = Option<St::Item>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut *self.stream).poll_next(cx)
    }
}
