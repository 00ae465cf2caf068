//! `Framed`: one transport seen as both a `Stream` of decoded frames and a
//! `Sink` of frames to encode, and `FramedParts` to take it apart.

use crate::framed_impl::{FramedImpl, RWFrames, ReadFrame, WriteFrame, INITIAL_CAPACITY};
use crate::{Decoder, Encoder};
use bytes::BytesMut;
use futures_core::Stream;
use futures_sink::Sink;
use pin_project_lite::pin_project;
use rt_io::io::{AsyncRead, AsyncWrite};
use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

pin_project! {
    /// A transport that is read as a [`Stream`] of frames and written as a
    /// [`Sink`] of frames, with one codec for both directions.
    ///
    /// It combines the behaviour of [`FramedRead`](crate::FramedRead) and
    /// [`FramedWrite`](crate::FramedWrite): decode before reading, 8 KiB
    /// buffers to start with, a backpressure boundary on the write buffer.
    /// To use the two directions from different tasks, split it with a
    /// `Stream`/`Sink` splitter such as the one in the `futures` crate.
    ///
    /// ```
    /// use bytes::Bytes;
    /// use futures_core::Stream;
    /// use futures_sink::Sink;
    /// use rt_codec::{Framed, LengthDelimitedCodec};
    /// use std::pin::Pin;
    /// # struct Noop;
    /// # impl std::task::Wake for Noop { fn wake(self: std::sync::Arc<Self>) {} }
    /// # let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
    /// # let mut cx = std::task::Context::from_waker(&waker);
    ///
    /// let (a, b) = rt_io::io::duplex(64);
    /// let mut client = Framed::new(a, LengthDelimitedCodec::new());
    /// let mut server = Framed::new(b, LengthDelimitedCodec::new());
    ///
    /// let mut sink = Pin::new(&mut client);
    /// assert!(sink.as_mut().poll_ready(&mut cx).is_ready());
    /// sink.as_mut().start_send(Bytes::from_static(b"hi")).unwrap();
    /// assert!(sink.as_mut().poll_flush(&mut cx).is_ready());
    ///
    /// match Pin::new(&mut server).poll_next(&mut cx) {
    ///     std::task::Poll::Ready(Some(Ok(frame))) => assert_eq!(&frame[..], b"hi"),
    ///     other => panic!("unexpected {other:?}"),
    /// }
    /// ```
    pub struct Framed<T, U> {
        #[pin]
        inner: FramedImpl<T, U, RWFrames>,
    }
}

impl<T, U> Framed<T, U>
where
    T: AsyncRead + AsyncWrite,
{
    /// Frames `inner` with `codec`.
    pub fn new(inner: T, codec: U) -> Framed<T, U> {
        Framed {
            inner: FramedImpl {
                inner,
                codec,
                state: RWFrames::default(),
            },
        }
    }

    /// Like [`new`](Framed::new), with buffers of `capacity` bytes to start
    /// with and `capacity` as the backpressure boundary.
    pub fn with_capacity(inner: T, codec: U, capacity: usize) -> Framed<T, U> {
        Framed {
            inner: FramedImpl {
                inner,
                codec,
                state: RWFrames {
                    read: ReadFrame::with_buffer(BytesMut::with_capacity(capacity)),
                    write: WriteFrame {
                        buffer: BytesMut::with_capacity(capacity),
                        backpressure_boundary: capacity,
                    },
                },
            },
        }
    }
}

impl<T, U> Framed<T, U> {
    /// Rebuilds a `Framed` from its parts, keeping the buffered bytes (and
    /// decoding what the read buffer holds before reading again).
    pub fn from_parts(parts: FramedParts<T, U>) -> Framed<T, U> {
        Framed {
            inner: FramedImpl {
                inner: parts.io,
                codec: parts.codec,
                state: RWFrames {
                    read: ReadFrame::with_buffer(parts.read_buf),
                    write: WriteFrame {
                        buffer: parts.write_buf,
                        backpressure_boundary: INITIAL_CAPACITY,
                    },
                },
            },
        }
    }

    /// The underlying transport.
    pub fn get_ref(&self) -> &T {
        &self.inner.inner
    }

    /// The underlying transport, mutably. Using it directly corrupts the
    /// frame streams.
    pub fn get_mut(&mut self) -> &mut T {
        &mut self.inner.inner
    }

    /// The pinned underlying transport.
    pub fn get_pin_mut(self: Pin<&mut Self>) -> Pin<&mut T> {
        self.project().inner.project().inner
    }

    /// The codec.
    pub fn codec(&self) -> &U {
        &self.inner.codec
    }

    /// The codec, mutably.
    pub fn codec_mut(&mut self) -> &mut U {
        &mut self.inner.codec
    }

    /// The codec of a pinned `Framed`.
    pub fn codec_pin_mut(self: Pin<&mut Self>) -> &mut U {
        self.project().inner.project().codec
    }

    /// Swaps the codec for the one `map` makes of it, keeping the buffered
    /// bytes: the way to switch protocols on a live connection.
    pub fn map_codec<C, F>(self, map: F) -> Framed<T, C>
    where
        F: FnOnce(U) -> C,
    {
        let FramedImpl {
            inner,
            state,
            codec,
        } = self.inner;
        Framed {
            inner: FramedImpl {
                inner,
                state,
                codec: map(codec),
            },
        }
    }

    /// The bytes read and not yet decoded.
    pub fn read_buffer(&self) -> &BytesMut {
        &self.inner.state.read.buffer
    }

    /// The bytes read and not yet decoded, mutably.
    pub fn read_buffer_mut(&mut self) -> &mut BytesMut {
        &mut self.inner.state.read.buffer
    }

    /// The encoded bytes not yet written.
    pub fn write_buffer(&self) -> &BytesMut {
        &self.inner.state.write.buffer
    }

    /// The encoded bytes not yet written, mutably.
    pub fn write_buffer_mut(&mut self) -> &mut BytesMut {
        &mut self.inner.state.write.buffer
    }

    /// The write buffer size from which `poll_ready` flushes first.
    pub fn backpressure_boundary(&self) -> usize {
        self.inner.state.write.backpressure_boundary
    }

    /// Sets the write buffer size from which `poll_ready` flushes first.
    pub fn set_backpressure_boundary(&mut self, boundary: usize) {
        self.inner.state.write.backpressure_boundary = boundary;
    }

    /// Gives back the transport; buffered bytes are lost (see
    /// [`into_parts`](Framed::into_parts) to keep them).
    pub fn into_inner(self) -> T {
        self.inner.inner
    }

    /// Takes the `Framed` apart into its transport, codec and buffers.
    pub fn into_parts(self) -> FramedParts<T, U> {
        FramedParts {
            io: self.inner.inner,
            codec: self.inner.codec,
            read_buf: self.inner.state.read.buffer,
            write_buf: self.inner.state.write.buffer,
        }
    }
}

impl<T: AsyncRead, U: Decoder> Stream for Framed<T, U> {
    type Item = Result<U::Item, U::Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.project().inner.poll_next(cx)
    }
}

impl<T: AsyncWrite, I, U: Encoder<I>> Sink<I> for Framed<T, U> {
    type Error = U::Error;

    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), U::Error>> {
        Sink::<I>::poll_ready(self.project().inner, cx)
    }

    fn start_send(self: Pin<&mut Self>, item: I) -> Result<(), U::Error> {
        Sink::<I>::start_send(self.project().inner, item)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), U::Error>> {
        Sink::<I>::poll_flush(self.project().inner, cx)
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), U::Error>> {
        Sink::<I>::poll_close(self.project().inner, cx)
    }
}

impl<T: fmt::Debug, U: fmt::Debug> fmt::Debug for Framed<T, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Framed")
            .field("io", &self.inner.inner)
            .field("codec", &self.inner.codec)
            .finish()
    }
}

/// A [`Framed`] taken apart: the transport, the codec and both buffers.
///
/// Made by [`Framed::into_parts`] or [`FramedParts::new`]; turned back with
/// [`Framed::from_parts`]. It is `#[non_exhaustive]`, so fields may be
/// added later.
#[derive(Debug)]
#[non_exhaustive]
pub struct FramedParts<T, U> {
    /// The transport.
    pub io: T,
    /// The codec.
    pub codec: U,
    /// Bytes read and not yet decoded.
    pub read_buf: BytesMut,
    /// Encoded bytes not yet written.
    pub write_buf: BytesMut,
}

impl<T, U> FramedParts<T, U> {
    /// Parts with empty buffers, for a codec that encodes `I`.
    pub fn new<I>(io: T, codec: U) -> FramedParts<T, U>
    where
        U: Encoder<I>,
    {
        FramedParts {
            io,
            codec,
            read_buf: BytesMut::new(),
            write_buf: BytesMut::new(),
        }
    }
}
