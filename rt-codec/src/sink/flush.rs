//! The future behind [`SinkExt::flush`](crate::SinkExt::flush).

use futures_sink::Sink;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Future for [`SinkExt::flush`](crate::SinkExt::flush).
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct Flush<'a, Si: ?Sized, Item> {
    sink: &'a mut Si,
    // The sink is flushed as a `Sink<Item>`; no item is held.
    _item: PhantomData<fn(Item)>,
}

impl<Si: ?Sized, Item> Unpin for Flush<'_, Si, Item> {}

impl<'a, Si: Sink<Item> + Unpin + ?Sized, Item> Flush<'a, Si, Item> {
    pub(super) fn new(sink: &'a mut Si) -> Self {
        Flush {
            sink,
            _item: PhantomData,
        }
    }
}

impl<Si: Sink<Item> + Unpin + ?Sized, Item> Future for Flush<'_, Si, Item> {
    type Output = Result<(), Si::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut *self.get_mut().sink).poll_flush(cx)
    }
}

impl<Si: fmt::Debug + ?Sized, Item> fmt::Debug for Flush<'_, Si, Item> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Flush").field("sink", &self.sink).finish()
    }
}
