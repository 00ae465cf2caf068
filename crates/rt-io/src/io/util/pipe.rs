//! `Pipe`: one direction of an in-memory byte stream, shared by
//! `DuplexStream` (two of them behind mutexes) and `SimplexStream` (one,
//! owned).

use crate::io::ReadBuf;
use bytes::{Buf, BytesMut};
use std::io;
use std::task::{Context, Poll, Waker};

/// One direction: bytes in flight and who waits on them.
#[derive(Debug)]
pub(crate) struct Pipe {
    buffer: BytesMut,
    max_buf_size: usize,
    /// The writer shut down, or (in a duplex) one of the ends was dropped.
    closed: bool,
    read_waker: Option<Waker>,
    write_waker: Option<Waker>,
}

impl Pipe {
    pub(crate) fn new(max_buf_size: usize) -> Pipe {
        Pipe {
            buffer: BytesMut::new(),
            max_buf_size,
            closed: false,
            read_waker: None,
            write_waker: None,
        }
    }

    /// Ends the stream: the reader gets end of stream once the buffer is
    /// drained, writers get `BrokenPipe`.
    pub(crate) fn close(&mut self) {
        self.closed = true;
        if let Some(waker) = self.read_waker.take() {
            waker.wake();
        }
        if let Some(waker) = self.write_waker.take() {
            waker.wake();
        }
    }

    pub(crate) fn poll_read(
        &mut self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.buffer.has_remaining() {
            let n = self.buffer.len().min(buf.remaining());
            buf.put_slice(&self.buffer[..n]);
            self.buffer.advance(n);
            if n > 0 {
                if let Some(waker) = self.write_waker.take() {
                    waker.wake();
                }
            }
            Poll::Ready(Ok(()))
        } else if self.closed {
            Poll::Ready(Ok(()))
        } else {
            self.read_waker = Some(cx.waker().clone());
            Poll::Pending
        }
    }

    pub(crate) fn poll_write(
        &mut self,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.closed {
            return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
        }
        let room = self.max_buf_size - self.buffer.len();
        if room == 0 {
            self.write_waker = Some(cx.waker().clone());
            return Poll::Pending;
        }
        let n = room.min(data.len());
        self.buffer.extend_from_slice(&data[..n]);
        if n > 0 {
            if let Some(waker) = self.read_waker.take() {
                waker.wake();
            }
        }
        Poll::Ready(Ok(n))
    }
}
