//! [`Peekable`]: a stream whose next item can be looked at before it is
//! taken.

use core::future::poll_fn;
use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;

use super::Fuse;

pin_project! {
    /// Stream for [`StreamExt::peekable`](crate::StreamExt::peekable).
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    #[project = PeekableProj]
    pub struct Peekable<St: Stream> {
        #[pin]
        stream: Fuse<St>,
        peeked: Option<St::Item>,
    }
}

impl<St: Stream> Peekable<St> {
    pub(super) fn new(stream: St) -> Self {
        Peekable {
            stream: Fuse::new(stream),
            peeked: None,
        }
    }

    /// Waits for the next item and returns a reference to it without taking
    /// it; the following `next` yields that same item. `None` once the
    /// stream has ended.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe: an item that arrives is kept in the adapter.
    pub async fn peek(&mut self) -> Option<&St::Item>
    where
        St: Unpin,
    {
        poll_fn(|cx| Pin::new(&mut *self).poll_fill(cx)).await;
        self.peeked.as_ref()
    }

    /// Polls until an item is held in the peek slot or the stream has
    /// ended, and returns a reference to it.
    pub fn poll_peek(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<&St::Item>> {
        let PeekableProj { stream, peeked } = self.project();
        if peeked.is_none() {
            *peeked = ready!(stream.poll_next(cx));
        }
        Poll::Ready(peeked.as_ref())
    }

    fn poll_fill(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.poll_peek(cx).map(|_| ())
    }
}

impl<St: Stream> Stream for Peekable<St> {
    type Item = St::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<St::Item>> {
        let PeekableProj { stream, peeked } = self.project();
        if let Some(item) = peeked.take() {
            return Poll::Ready(Some(item));
        }
        stream.poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let held = usize::from(self.peeked.is_some());
        super::size_hint::add_hints(self.stream.size_hint(), (held, Some(held)))
    }
}
