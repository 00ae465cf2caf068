//! [`Fuse`]: a stream that keeps answering `None` once it has ended.

use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::{FusedStream, Stream};
use pin_project_lite::pin_project;

pin_project! {
    /// Stream for [`StreamExt::fuse`](crate::StreamExt::fuse).
    ///
    /// The inner stream is dropped as soon as it yields `None`, so it is never
    /// polled again and its resources are released early.
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    pub struct Fuse<St> {
        // `None` once the stream has ended.
        #[pin]
        stream: Option<St>,
    }
}

impl<St> Fuse<St> {
    pub(crate) fn new(stream: St) -> Fuse<St> {
        Fuse {
            stream: Some(stream),
        }
    }
}

impl<St: Stream> Stream for Fuse<St> {
    type Item = St::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<St::Item>> {
        let mut slot = self.project().stream;
        let Some(stream) = slot.as_mut().as_pin_mut() else {
            return Poll::Ready(None);
        };
        let item = core::task::ready!(stream.poll_next(cx));
        if item.is_none() {
            slot.set(None);
        }
        Poll::Ready(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.stream {
            Some(stream) => stream.size_hint(),
            None => (0, Some(0)),
        }
    }
}

impl<St: Stream> FusedStream for Fuse<St> {
    fn is_terminated(&self) -> bool {
        self.stream.is_none()
    }
}
