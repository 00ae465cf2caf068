//! The machinery shared by `FramedRead`, `FramedWrite` and `Framed`: a
//! transport, a codec, and the read and/or write state.
//!
//! Read side, as a state machine over `ReadFrame`'s flags:
//!
//! * reading (`!is_readable`): the buffer holds no whole frame; read more.
//! * framing (`is_readable && !eof`): call `decode` until it wants more
//!   bytes, yielding each frame; only then read again.
//! * pausing (`is_readable && eof`): the transport ended; call
//!   `decode_eof` until it yields no frame, then report the end of the
//!   stream.
//! * paused (`!is_readable && eof`): the end was reported; a later poll
//!   reads again, in case the transport has more after all.
//! * errored (`has_errored`): a decode or read failed; the next poll
//!   yields `None` without reading, then the machine starts over.
//!
//! Write side: items are encoded into the write buffer; the buffer is
//! written out when flushed, when closed, and before accepting an item once
//! it holds at least `backpressure_boundary` bytes.

use crate::{Decoder, Encoder};
use bytes::{Buf, BufMut, BytesMut};
use futures_core::Stream;
use futures_sink::Sink;
use pin_project_lite::pin_project;
use rt_io::io::{AsyncRead, AsyncWrite, ReadBuf};
use std::borrow::{Borrow, BorrowMut};
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Default capacity of the read and write buffers, and default
/// backpressure boundary.
pub(crate) const INITIAL_CAPACITY: usize = 8 * 1024;

pin_project! {
    /// The transport, the codec and the frame state.
    #[derive(Debug)]
    pub(crate) struct FramedImpl<T, U, State> {
        #[pin]
        pub(crate) inner: T,
        pub(crate) state: State,
        pub(crate) codec: U,
    }
}

/// The read half of the state.
#[derive(Debug)]
pub(crate) struct ReadFrame {
    pub(crate) eof: bool,
    pub(crate) is_readable: bool,
    pub(crate) buffer: BytesMut,
    pub(crate) has_errored: bool,
}

impl ReadFrame {
    pub(crate) fn with_buffer(buffer: BytesMut) -> ReadFrame {
        ReadFrame {
            eof: false,
            // Bytes handed over (from `FramedParts`) may already hold frames.
            is_readable: !buffer.is_empty(),
            buffer,
            has_errored: false,
        }
    }
}

impl Default for ReadFrame {
    fn default() -> Self {
        ReadFrame::with_buffer(BytesMut::with_capacity(INITIAL_CAPACITY))
    }
}

/// The write half of the state.
#[derive(Debug)]
pub(crate) struct WriteFrame {
    pub(crate) buffer: BytesMut,
    pub(crate) backpressure_boundary: usize,
}

impl Default for WriteFrame {
    fn default() -> Self {
        WriteFrame {
            buffer: BytesMut::with_capacity(INITIAL_CAPACITY),
            backpressure_boundary: INITIAL_CAPACITY,
        }
    }
}

/// Both halves, for `Framed`.
#[derive(Debug, Default)]
pub(crate) struct RWFrames {
    pub(crate) read: ReadFrame,
    pub(crate) write: WriteFrame,
}

impl Borrow<ReadFrame> for RWFrames {
    fn borrow(&self) -> &ReadFrame {
        &self.read
    }
}

impl BorrowMut<ReadFrame> for RWFrames {
    fn borrow_mut(&mut self) -> &mut ReadFrame {
        &mut self.read
    }
}

impl Borrow<WriteFrame> for RWFrames {
    fn borrow(&self) -> &WriteFrame {
        &self.write
    }
}

impl BorrowMut<WriteFrame> for RWFrames {
    fn borrow_mut(&mut self) -> &mut WriteFrame {
        &mut self.write
    }
}

/// Reads once from `io` into the spare capacity of `buf`; returns how many
/// bytes arrived (`0`: end of stream, as `buf` always has room here).
fn poll_read_buf<T: AsyncRead>(
    io: Pin<&mut T>,
    cx: &mut Context<'_>,
    buf: &mut BytesMut,
) -> Poll<io::Result<usize>> {
    let n = {
        let chunk = buf.chunk_mut();
        // SAFETY: the slice is only given to `ReadBuf::uninit`, which never
        // de-initialises memory and only exposes bytes it initialised.
        let uninit = unsafe { chunk.as_uninit_slice_mut() };
        let mut read_buf = ReadBuf::uninit(uninit);
        let start = read_buf.filled().as_ptr();
        ready!(io.poll_read(cx, &mut read_buf))?;
        // The reader must fill our memory, not swap in its own buffer.
        assert_eq!(start, read_buf.filled().as_ptr(), "reader replaced ReadBuf");
        read_buf.filled().len()
    };
    // SAFETY: the reader initialised and filled `n` bytes of the chunk.
    unsafe { buf.advance_mut(n) };
    Poll::Ready(Ok(n))
}

impl<T, U, R> Stream for FramedImpl<T, U, R>
where
    T: AsyncRead,
    U: Decoder,
    R: BorrowMut<ReadFrame>,
{
    type Item = Result<U::Item, U::Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut me = self.project();
        let state: &mut ReadFrame = me.state.borrow_mut();
        loop {
            if state.has_errored {
                // One `None` after an error ends this run of the stream
                // without touching the transport again.
                state.is_readable = false;
                state.has_errored = false;
                return Poll::Ready(None);
            }
            if state.is_readable {
                if state.eof {
                    let frame = match me.codec.decode_eof(&mut state.buffer) {
                        Ok(frame) => frame,
                        Err(e) => {
                            state.has_errored = true;
                            return Poll::Ready(Some(Err(e)));
                        }
                    };
                    if frame.is_none() {
                        state.is_readable = false;
                    }
                    return Poll::Ready(frame.map(Ok));
                }
                match me.codec.decode(&mut state.buffer) {
                    Ok(Some(frame)) => return Poll::Ready(Some(Ok(frame))),
                    Ok(None) => state.is_readable = false,
                    Err(e) => {
                        state.has_errored = true;
                        return Poll::Ready(Some(Err(e)));
                    }
                }
            }
            // At least one byte of room, so that a read of zero bytes can
            // only mean end of stream.
            state.buffer.reserve(1);
            let read = match poll_read_buf(me.inner.as_mut(), cx, &mut state.buffer) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Ok(n)) => n,
                Poll::Ready(Err(e)) => {
                    state.has_errored = true;
                    return Poll::Ready(Some(Err(e.into())));
                }
            };
            if read == 0 {
                if state.eof {
                    // Already paused and still nothing: stay ended.
                    return Poll::Ready(None);
                }
                state.eof = true;
            } else {
                state.eof = false;
            }
            state.is_readable = true;
        }
    }
}

impl<T, I, U, W> Sink<I> for FramedImpl<T, U, W>
where
    T: AsyncWrite,
    U: Encoder<I>,
    W: BorrowMut<WriteFrame>,
{
    type Error = U::Error;

    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), U::Error>> {
        let state: &WriteFrame = self.state.borrow();
        if state.buffer.len() >= state.backpressure_boundary {
            <Self as Sink<I>>::poll_flush(self, cx)
        } else {
            Poll::Ready(Ok(()))
        }
    }

    fn start_send(self: Pin<&mut Self>, item: I) -> Result<(), U::Error> {
        let me = self.project();
        let state: &mut WriteFrame = me.state.borrow_mut();
        me.codec.encode(item, &mut state.buffer)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), U::Error>> {
        let mut me = self.project();
        let state: &mut WriteFrame = me.state.borrow_mut();
        while !state.buffer.is_empty() {
            let n = ready!(me.inner.as_mut().poll_write(cx, &state.buffer))?;
            if n == 0 {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    "failed to write frame to transport",
                )
                .into()));
            }
            state.buffer.advance(n.min(state.buffer.len()));
        }
        ready!(me.inner.poll_flush(cx))?;
        Poll::Ready(Ok(()))
    }

    fn poll_close(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), U::Error>> {
        ready!(<Self as Sink<I>>::poll_flush(self.as_mut(), cx))?;
        ready!(self.project().inner.poll_shutdown(cx))?;
        Poll::Ready(Ok(()))
    }
}
