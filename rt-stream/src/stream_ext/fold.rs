//! The future behind [`StreamExt::fold`](crate::StreamExt::fold).

use core::fmt;
use core::future::Future;
use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;

pin_project! {
    /// Future for [`StreamExt::fold`](crate::StreamExt::fold): every item
    /// combined into an accumulator, which is the output.
    #[must_use = "futures do nothing unless you `.await` or poll them"]
    #[project = FoldFutureProj]
    pub struct FoldFuture<St, B, F> {
        #[pin]
        stream: St,
        // `None` only after the future has completed.
        acc: Option<B>,
        f: F,
    }
}

impl<St, B, F> FoldFuture<St, B, F> {
    pub(super) fn new(stream: St, init: B, f: F) -> Self {
        FoldFuture {
            stream,
            acc: Some(init),
            f,
        }
    }
}

impl<St: fmt::Debug, B: fmt::Debug, F> fmt::Debug for FoldFuture<St, B, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FoldFuture")
            .field("stream", &self.stream)
            .field("acc", &self.acc)
            .finish()
    }
}

impl<St, B, F> Future for FoldFuture<St, B, F>
where
    St: Stream,
    F: FnMut(B, St::Item) -> B,
{
    type Output = B;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<B> {
        let FoldFutureProj { mut stream, acc, f } = self.project();
        loop {
            let item = ready!(stream.as_mut().poll_next(cx));
            let current = acc.take().expect("FoldFuture polled after completion");
            match item {
                Some(item) => *acc = Some(f(current, item)),
                None => return Poll::Ready(current),
            }
        }
    }
}
