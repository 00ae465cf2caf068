//! The future behind [`SinkExt::send_all`](crate::SinkExt::send_all).

use futures_core::TryStream;
use futures_sink::Sink;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Future for [`SinkExt::send_all`](crate::SinkExt::send_all): forwards a
/// stream of results into a sink.
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct SendAll<'a, Si: ?Sized, St: TryStream + ?Sized> {
    sink: &'a mut Si,
    stream: &'a mut St,
    /// An item taken from the stream while the sink had no room.
    waiting: Option<St::Ok>,
    /// The stream returned `None`: never poll it again.
    stream_ended: bool,
}

// The waiting item is moved, never pinned; sink and stream are behind
// `&mut` and `Unpin`.
impl<Si: ?Sized, St: TryStream + ?Sized> Unpin for SendAll<'_, Si, St> {}

impl<'a, Si, St> SendAll<'a, Si, St>
where
    Si: Sink<<St as TryStream>::Ok> + Unpin + ?Sized,
    St: TryStream<Error = <Si as Sink<<St as TryStream>::Ok>>::Error> + Unpin + ?Sized,
{
    pub(super) fn new(sink: &'a mut Si, stream: &'a mut St) -> Self {
        SendAll {
            sink,
            stream,
            waiting: None,
            stream_ended: false,
        }
    }

    /// Hands `item` to the sink if it has room, else keeps it for later.
    fn poll_hand_over(
        &mut self,
        cx: &mut Context<'_>,
        item: St::Ok,
    ) -> Poll<Result<(), Si::Error>> {
        let mut sink = Pin::new(&mut *self.sink);
        match sink.as_mut().poll_ready(cx)? {
            Poll::Ready(()) => Poll::Ready(sink.start_send(item)),
            Poll::Pending => {
                self.waiting = Some(item);
                Poll::Pending
            }
        }
    }
}

impl<Si, St> Future for SendAll<'_, Si, St>
where
    Si: Sink<<St as TryStream>::Ok> + Unpin + ?Sized,
    St: TryStream<Error = <Si as Sink<<St as TryStream>::Ok>>::Error> + Unpin + ?Sized,
{
    type Output = Result<(), Si::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let me = self.get_mut();
        if let Some(item) = me.waiting.take() {
            ready!(me.poll_hand_over(cx, item))?;
        }
        loop {
            if me.stream_ended {
                return Pin::new(&mut *me.sink).poll_flush(cx);
            }
            match Pin::new(&mut *me.stream).try_poll_next(cx)? {
                Poll::Ready(Some(item)) => ready!(me.poll_hand_over(cx, item))?,
                Poll::Ready(None) => me.stream_ended = true,
                Poll::Pending => {
                    // Nothing more for now: push out what was handed over
                    // while waiting for the stream.
                    ready!(Pin::new(&mut *me.sink).poll_flush(cx))?;
                    return Poll::Pending;
                }
            }
        }
    }
}

impl<Si, St> fmt::Debug for SendAll<'_, Si, St>
where
    Si: fmt::Debug + ?Sized,
    St: TryStream + fmt::Debug + ?Sized,
    St::Ok: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SendAll")
            .field("sink", &self.sink)
            .field("stream", &self.stream)
            .field("waiting", &self.waiting)
            .field("stream_ended", &self.stream_ended)
            .finish()
    }
}
