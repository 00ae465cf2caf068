//! `BufWriter`: an in-memory buffer in front of a writer, so that many small
//! writes cost one write of the inner sink.

use super::buf_reader::DEFAULT_BUF_SIZE;
use super::interrupted::is_interrupted;
use crate::io::{AsyncBufRead, AsyncRead, AsyncSeek, AsyncWrite, ReadBuf};
use pin_project_lite::pin_project;
use std::io::{self, SeekFrom};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

pin_project! {
    /// Adds buffering to a writer.
    ///
    /// Bytes are collected until the buffer is full or a flush is asked for.
    /// Call [`flush`](crate::io::AsyncWriteExt::flush) or
    /// [`shutdown`](crate::io::AsyncWriteExt::shutdown) before dropping it:
    /// bytes still buffered at drop are lost. Writes at least as large as the
    /// buffer bypass it. Reads, if the inner value is also a reader, pass
    /// straight through.
    #[derive(Debug)]
    pub struct BufWriter<W> {
        #[pin]
        inner: W,
        buf: Vec<u8>,
        capacity: usize,
        // Bytes at the front of `buf` already handed to `inner`.
        written: usize,
        // A seek asked for by `start_seek`, started on `inner` only once the
        // buffer is written out (which needs the `Context` of
        // `poll_complete`).
        seek_to: Option<SeekFrom>,
    }
}

impl<W> BufWriter<W> {
    /// Wraps `inner` with an 8 KiB buffer.
    pub fn new(inner: W) -> Self {
        Self::with_capacity(DEFAULT_BUF_SIZE, inner)
    }

    /// Wraps `inner` with a buffer of `capacity` bytes.
    pub fn with_capacity(capacity: usize, inner: W) -> Self {
        BufWriter {
            inner,
            buf: Vec::with_capacity(capacity),
            capacity,
            written: 0,
            seek_to: None,
        }
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// The inner writer, mutably. Writing to it directly skips the buffer.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// The pinned inner writer.
    pub fn get_pin_mut(self: Pin<&mut Self>) -> Pin<&mut W> {
        self.project().inner
    }

    /// Gives back the inner writer; buffered bytes are lost.
    pub fn into_inner(self) -> W {
        self.inner
    }

    /// The bytes buffered and not yet written.
    pub fn buffer(&self) -> &[u8] {
        &self.buf[self.written..]
    }
}

impl<W: AsyncWrite> BufWriter<W> {
    /// Writes the whole buffer to the inner writer (without flushing it).
    fn poll_flush_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut me = self.project();
        while *me.written < me.buf.len() {
            match ready!(me.inner.as_mut().poll_write(cx, &me.buf[*me.written..])) {
                Ok(0) => {
                    return Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::WriteZero,
                        "failed to write the buffered data",
                    )))
                }
                Ok(n) => *me.written += n,
                Err(e) if is_interrupted(&e) => {}
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
        me.buf.clear();
        *me.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<W: AsyncWrite> AsyncWrite for BufWriter<W> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.buf.len() + buf.len() > self.capacity {
            ready!(self.as_mut().poll_flush_buf(cx))?;
        }
        if buf.len() >= self.capacity {
            return self.get_pin_mut().poll_write(cx, buf);
        }
        self.project().buf.extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }

    /// Buffers the slices as `write` buffers one: an inner writer with
    /// vectored writes gets all of them at once when together they are at
    /// least the buffer's size; otherwise slices are buffered in order
    /// while they fit (the first non-empty one after a flush if need be,
    /// or passed straight through when it alone fills the buffer).
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        if self.inner.is_write_vectored() {
            let total = bufs
                .iter()
                .fold(0usize, |sum, b| sum.saturating_add(b.len()));
            if self.buf.len() + total > self.capacity {
                ready!(self.as_mut().poll_flush_buf(cx))?;
            }
            if total >= self.capacity {
                return self.get_pin_mut().poll_write_vectored(cx, bufs);
            }
            let me = self.project();
            for buf in bufs {
                me.buf.extend_from_slice(buf);
            }
            return Poll::Ready(Ok(total));
        }
        let mut slices = bufs.iter().skip_while(|b| b.is_empty());
        let Some(first) = slices.next() else {
            return Poll::Ready(Ok(0));
        };
        if self.buf.len() + first.len() > self.capacity {
            ready!(self.as_mut().poll_flush_buf(cx))?;
        }
        if first.len() >= self.capacity {
            return self.get_pin_mut().poll_write(cx, first);
        }
        let me = self.project();
        me.buf.extend_from_slice(first);
        let mut total = first.len();
        for buf in slices {
            if me.buf.len() + buf.len() > *me.capacity {
                break;
            }
            me.buf.extend_from_slice(buf);
            total += buf.len();
        }
        Poll::Ready(Ok(total))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.as_mut().poll_flush_buf(cx))?;
        self.get_pin_mut().poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.as_mut().poll_flush_buf(cx))?;
        self.get_pin_mut().poll_shutdown(cx)
    }
}

impl<W: AsyncRead> AsyncRead for BufWriter<W> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.get_pin_mut().poll_read(cx, buf)
    }
}

impl<W: AsyncBufRead> AsyncBufRead for BufWriter<W> {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        self.get_pin_mut().poll_fill_buf(cx)
    }

    fn consume(self: Pin<&mut Self>, amt: usize) {
        self.get_pin_mut().consume(amt)
    }
}

impl<W: AsyncWrite + AsyncSeek> AsyncSeek for BufWriter<W> {
    /// Records the seek; [`poll_complete`](AsyncSeek::poll_complete) writes
    /// the buffer out before the inner writer moves, so buffered bytes land
    /// where they were written.
    fn start_seek(self: Pin<&mut Self>, position: SeekFrom) -> io::Result<()> {
        *self.project().seek_to = Some(position);
        Ok(())
    }

    fn poll_complete(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<u64>> {
        ready!(self.as_mut().poll_flush_buf(cx))?;
        let mut me = self.project();
        if let Some(position) = *me.seek_to {
            // A seek the inner writer may still be running finishes first.
            ready!(me.inner.as_mut().poll_complete(cx))?;
            *me.seek_to = None;
            me.inner.as_mut().start_seek(position)?;
        }
        me.inner.poll_complete(cx)
    }
}
