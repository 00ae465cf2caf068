//! `FramedWrite`: a writer seen as a `Sink` of frames to encode.

use crate::framed_impl::{FramedImpl, WriteFrame};
use crate::Encoder;
use bytes::BytesMut;
use futures_core::Stream;
use futures_sink::Sink;
use pin_project_lite::pin_project;
use rt_io::io::AsyncWrite;
use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

pin_project! {
    /// A [`Sink`] that encodes items with an [`Encoder`] into an
    /// [`AsyncWrite`].
    ///
    /// Items are encoded into a write buffer. The buffer goes out on
    /// `poll_flush` and `poll_close`, and `poll_ready` first writes it out once
    /// it holds at least the [backpressure
    /// boundary](FramedWrite::set_backpressure_boundary) (8 KiB by default), so
    /// a slow writer slows the sender instead of growing the buffer.
    ///
    /// `SinkExt::send` is not cancel-safe: an item moved into a `send` future
    /// that is dropped before the item was encoded is lost.
    pub struct FramedWrite<T, E> {
        #[pin]
        inner: FramedImpl<T, E, WriteFrame>,
    }
}

impl<T: AsyncWrite, E> FramedWrite<T, E> {
    /// Writes frames encoded by `encoder` to `inner`.
    pub fn new(inner: T, encoder: E) -> FramedWrite<T, E> {
        FramedWrite {
            inner: FramedImpl {
                inner,
                codec: encoder,
                state: WriteFrame::default(),
            },
        }
    }
}

impl<T, E> FramedWrite<T, E> {
    /// The underlying writer.
    pub fn get_ref(&self) -> &T {
        &self.inner.inner
    }

    /// The underlying writer, mutably. Writing to it directly corrupts the
    /// frame stream.
    pub fn get_mut(&mut self) -> &mut T {
        &mut self.inner.inner
    }

    /// The pinned underlying writer.
    pub fn get_pin_mut(self: Pin<&mut Self>) -> Pin<&mut T> {
        self.project().inner.project().inner
    }

    /// Gives back the underlying writer; buffered bytes are lost.
    pub fn into_inner(self) -> T {
        self.inner.inner
    }

    /// The encoder.
    pub fn encoder(&self) -> &E {
        &self.inner.codec
    }

    /// The encoder, mutably.
    pub fn encoder_mut(&mut self) -> &mut E {
        &mut self.inner.codec
    }

    /// The encoder of a pinned `FramedWrite`.
    pub fn encoder_pin_mut(self: Pin<&mut Self>) -> &mut E {
        self.project().inner.project().codec
    }

    /// Swaps the encoder for the one `map` makes of it, keeping the
    /// buffered bytes.
    pub fn map_encoder<C, F>(self, map: F) -> FramedWrite<T, C>
    where
        F: FnOnce(E) -> C,
    {
        let FramedImpl {
            inner,
            state,
            codec,
        } = self.inner;
        FramedWrite {
            inner: FramedImpl {
                inner,
                state,
                codec: map(codec),
            },
        }
    }

    /// The encoded bytes not yet written.
    pub fn write_buffer(&self) -> &BytesMut {
        &self.inner.state.buffer
    }

    /// The encoded bytes not yet written, mutably.
    pub fn write_buffer_mut(&mut self) -> &mut BytesMut {
        &mut self.inner.state.buffer
    }

    /// The buffer size from which `poll_ready` flushes first.
    pub fn backpressure_boundary(&self) -> usize {
        self.inner.state.backpressure_boundary
    }

    /// Sets the buffer size from which `poll_ready` flushes first.
    pub fn set_backpressure_boundary(&mut self, boundary: usize) {
        self.inner.state.backpressure_boundary = boundary;
    }
}

impl<T: AsyncWrite, I, E: Encoder<I>> Sink<I> for FramedWrite<T, E> {
    type Error = E::Error;

    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), E::Error>> {
        Sink::<I>::poll_ready(self.project().inner, cx)
    }

    fn start_send(self: Pin<&mut Self>, item: I) -> Result<(), E::Error> {
        Sink::<I>::start_send(self.project().inner, item)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), E::Error>> {
        Sink::<I>::poll_flush(self.project().inner, cx)
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), E::Error>> {
        Sink::<I>::poll_close(self.project().inner, cx)
    }
}

/// A `FramedWrite` over a transport that is also a stream passes its items
/// straight through.
impl<T: Stream, E> Stream for FramedWrite<T, E> {
    type Item = T::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T::Item>> {
        self.get_pin_mut().poll_next(cx)
    }
}

impl<T: fmt::Debug, E: fmt::Debug> fmt::Debug for FramedWrite<T, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FramedWrite")
            .field("inner", &self.inner.inner)
            .field("encoder", &self.inner.codec)
            .field("state", &self.inner.state)
            .finish()
    }
}
