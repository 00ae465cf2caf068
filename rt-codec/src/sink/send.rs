//! The future behind [`SinkExt::send`](crate::SinkExt::send).

use super::Feed;
use futures_sink::Sink;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Future for [`SinkExt::send`](crate::SinkExt::send): a
/// [`Feed`] followed by a flush.
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct Send<'a, Si: ?Sized, Item> {
    feed: Feed<'a, Si, Item>,
}

impl<Si: ?Sized, Item> Unpin for Send<'_, Si, Item> {}

impl<'a, Si: Sink<Item> + Unpin + ?Sized, Item> Send<'a, Si, Item> {
    pub(super) fn new(sink: &'a mut Si, item: Item) -> Self {
        Send {
            feed: Feed::new(sink, item),
        }
    }
}

impl<Si: Sink<Item> + Unpin + ?Sized, Item> Future for Send<'_, Si, Item> {
    type Output = Result<(), Si::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let me = self.get_mut();
        if me.feed.is_item_pending() {
            ready!(Pin::new(&mut me.feed).poll(cx))?;
        }
        // The item is in the sink; a `Pending` flush resumes here.
        me.feed.sink_pin_mut().poll_flush(cx)
    }
}

impl<Si: fmt::Debug + ?Sized, Item: fmt::Debug> fmt::Debug for Send<'_, Si, Item> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Send").field("feed", &self.feed).finish()
    }
}
