//! `FramedRead`: a reader seen as a `Stream` of decoded frames.

use crate::framed_impl::{FramedImpl, ReadFrame, INITIAL_CAPACITY};
use crate::Decoder;
use bytes::BytesMut;
use futures_core::Stream;
use futures_sink::Sink;
use pin_project_lite::pin_project;
use rt_io::io::AsyncRead;
use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

pin_project! {
    /// A [`Stream`] of the frames a [`Decoder`] finds in an [`AsyncRead`].
    ///
    /// Bytes are read into a buffer (8 KiB to start with) and decoded from
    /// there; every frame the buffer holds is yielded before the next read.
    /// Polling for the next frame is cancel-safe: dropping a `next()` future
    /// loses nothing, decoded or buffered.
    ///
    /// After an error the stream yields `None` once; polling again after that
    /// resumes reading (a codec like `LinesCodec` resynchronises this way).
    pub struct FramedRead<T, D> {
        #[pin]
        inner: FramedImpl<T, D, ReadFrame>,
    }
}

impl<T: AsyncRead, D: Decoder> FramedRead<T, D> {
    /// Reads frames from `inner` with `decoder`.
    pub fn new(inner: T, decoder: D) -> FramedRead<T, D> {
        Self::with_capacity(inner, decoder, INITIAL_CAPACITY)
    }

    /// Like [`new`](FramedRead::new), with a read buffer of `capacity`
    /// bytes to start with.
    pub fn with_capacity(inner: T, decoder: D, capacity: usize) -> FramedRead<T, D> {
        FramedRead {
            inner: FramedImpl {
                inner,
                codec: decoder,
                state: ReadFrame::with_buffer(BytesMut::with_capacity(capacity)),
            },
        }
    }
}

impl<T, D> FramedRead<T, D> {
    /// The underlying reader.
    pub fn get_ref(&self) -> &T {
        &self.inner.inner
    }

    /// The underlying reader, mutably. Reading from it directly corrupts
    /// the frame stream.
    pub fn get_mut(&mut self) -> &mut T {
        &mut self.inner.inner
    }

    /// The pinned underlying reader.
    pub fn get_pin_mut(self: Pin<&mut Self>) -> Pin<&mut T> {
        self.project().inner.project().inner
    }

    /// Gives back the underlying reader; buffered bytes are lost.
    pub fn into_inner(self) -> T {
        self.inner.inner
    }

    /// The decoder.
    pub fn decoder(&self) -> &D {
        &self.inner.codec
    }

    /// The decoder, mutably.
    pub fn decoder_mut(&mut self) -> &mut D {
        &mut self.inner.codec
    }

    /// The decoder of a pinned `FramedRead`.
    pub fn decoder_pin_mut(self: Pin<&mut Self>) -> &mut D {
        self.project().inner.project().codec
    }

    /// Swaps the decoder for the one `map` makes of it, keeping the
    /// buffered bytes.
    pub fn map_decoder<C, F>(self, map: F) -> FramedRead<T, C>
    where
        F: FnOnce(D) -> C,
    {
        let FramedImpl {
            inner,
            state,
            codec,
        } = self.inner;
        FramedRead {
            inner: FramedImpl {
                inner,
                state,
                codec: map(codec),
            },
        }
    }

    /// The bytes read and not yet decoded.
    pub fn read_buffer(&self) -> &BytesMut {
        &self.inner.state.buffer
    }

    /// The bytes read and not yet decoded, mutably.
    pub fn read_buffer_mut(&mut self) -> &mut BytesMut {
        &mut self.inner.state.buffer
    }
}

impl<T: AsyncRead, D: Decoder> Stream for FramedRead<T, D> {
    type Item = Result<D::Item, D::Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.project().inner.poll_next(cx)
    }
}

/// A `FramedRead` over a transport that is also a sink passes items
/// straight through to it.
impl<T: Sink<I>, I, D> Sink<I> for FramedRead<T, D> {
    type Error = T::Error;

    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), T::Error>> {
        self.get_pin_mut().poll_ready(cx)
    }

    fn start_send(self: Pin<&mut Self>, item: I) -> Result<(), T::Error> {
        self.get_pin_mut().start_send(item)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), T::Error>> {
        self.get_pin_mut().poll_flush(cx)
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), T::Error>> {
        self.get_pin_mut().poll_close(cx)
    }
}

impl<T: fmt::Debug, D: fmt::Debug> fmt::Debug for FramedRead<T, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FramedRead")
            .field("inner", &self.inner.inner)
            .field("decoder", &self.inner.codec)
            .field("state", &self.inner.state)
            .finish()
    }
}
