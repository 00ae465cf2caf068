//! The future behind [`StreamExt::try_next`](crate::StreamExt::try_next).

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;

use super::Next;

/// Future for [`StreamExt::try_next`](crate::StreamExt::try_next): the next
/// item of a stream of `Result`s, with the error moved outside the `Option`.
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct TryNext<'a, St: ?Sized> {
    inner: Next<'a, St>,
}

impl<'a, St: ?Sized> TryNext<'a, St> {
    pub(super) fn new(stream: &'a mut St) -> Self {
        TryNext {
            inner: Next::new(stream),
        }
    }
}

impl<T, E, St> Future for TryNext<'_, St>
where
    St: ?Sized + Stream<Item = Result<T, E>> + Unpin,
{
    type Output = Result<Option<T>, E>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.inner).poll(cx).map(Option::transpose)
    }
}
