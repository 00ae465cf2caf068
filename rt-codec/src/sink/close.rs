//! The future behind [`SinkExt::close`](crate::SinkExt::close).

use futures_sink::Sink;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Future for [`SinkExt::close`](crate::SinkExt::close).
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct Close<'a, Si: ?Sized, Item> {
    sink: &'a mut Si,
    // The sink is closed as a `Sink<Item>`; no item is held.
    _item: PhantomData<fn(Item)>,
}

impl<Si: ?Sized, Item> Unpin for Close<'_, Si, Item> {}

impl<'a, Si: Sink<Item> + Unpin + ?Sized, Item> Close<'a, Si, Item> {
    pub(super) fn new(sink: &'a mut Si) -> Self {
        Close {
            sink,
            _item: PhantomData,
        }
    }
}

impl<Si: Sink<Item> + Unpin + ?Sized, Item> Future for Close<'_, Si, Item> {
    type Output = Result<(), Si::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut *self.get_mut().sink).poll_close(cx)
    }
}

impl<Si: fmt::Debug + ?Sized, Item> fmt::Debug for Close<'_, Si, Item> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Close").field("sink", &self.sink).finish()
    }
}
