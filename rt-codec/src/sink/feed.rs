//! The future behind [`SinkExt::feed`](crate::SinkExt::feed).

use futures_sink::Sink;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Future for [`SinkExt::feed`](crate::SinkExt::feed): waits for room,
/// then hands the item over without flushing.
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct Feed<'a, Si: ?Sized, Item> {
    sink: &'a mut Si,
    item: Option<Item>,
}

// The item is moved out, never pinned; the sink is behind `&mut`.
impl<Si: ?Sized, Item> Unpin for Feed<'_, Si, Item> {}

impl<'a, Si: Sink<Item> + Unpin + ?Sized, Item> Feed<'a, Si, Item> {
    pub(super) fn new(sink: &'a mut Si, item: Item) -> Self {
        Feed {
            sink,
            item: Some(item),
        }
    }

    pub(super) fn sink_pin_mut(&mut self) -> Pin<&mut Si> {
        Pin::new(&mut *self.sink)
    }

    pub(super) fn is_item_pending(&self) -> bool {
        self.item.is_some()
    }
}

impl<Si: Sink<Item> + Unpin + ?Sized, Item> Future for Feed<'_, Si, Item> {
    type Output = Result<(), Si::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let me = self.get_mut();
        if me.item.is_none() {
            // Already handed over.
            return Poll::Ready(Ok(()));
        }
        let mut sink = Pin::new(&mut *me.sink);
        ready!(sink.as_mut().poll_ready(cx))?;
        match me.item.take() {
            Some(item) => Poll::Ready(sink.start_send(item)),
            None => Poll::Ready(Ok(())),
        }
    }
}

impl<Si: fmt::Debug + ?Sized, Item: fmt::Debug> fmt::Debug for Feed<'_, Si, Item> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Feed")
            .field("sink", &self.sink)
            .field("item", &self.item)
            .finish()
    }
}
