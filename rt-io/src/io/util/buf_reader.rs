//! `BufReader`: an in-memory buffer in front of a reader, so that many small
//! reads cost one read of the inner source.

use crate::io::{AsyncBufRead, AsyncRead, AsyncSeek, AsyncWrite, ReadBuf};
use pin_project_lite::pin_project;
use std::io::{self, IoSlice, SeekFrom};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Default buffer size of [`BufReader`], [`BufWriter`](crate::io::BufWriter)
/// and the copy utilities.
pub(crate) const DEFAULT_BUF_SIZE: usize = 8 * 1024;

pin_project! {
    /// Adds buffering to a reader.
    ///
    /// Reads at least as large as the buffer bypass it. Writes, if the inner
    /// value is also a writer, pass straight through.
    #[derive(Debug)]
    pub struct BufReader<R> {
        #[pin]
        inner: R,
        buf: Box<[u8]>,
        pos: usize,
        cap: usize,
        // A seek has been started on `inner` and not completed yet.
        seeking: bool,
        // A second relative seek to start once the first completes: for an
        // offset that, less the buffered bytes, would overflow an `i64`.
        then_seek: Option<i64>,
    }
}

impl<R> BufReader<R> {
    /// Wraps `inner` with an 8 KiB buffer.
    pub fn new(inner: R) -> Self {
        Self::with_capacity(DEFAULT_BUF_SIZE, inner)
    }

    /// Wraps `inner` with a buffer of `capacity` bytes.
    pub fn with_capacity(capacity: usize, inner: R) -> Self {
        BufReader {
            inner,
            buf: vec![0; capacity].into_boxed_slice(),
            pos: 0,
            cap: 0,
            seeking: false,
            then_seek: None,
        }
    }

    /// The inner reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The inner reader, mutably. Reading from it directly skips the buffer.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// The pinned inner reader.
    pub fn get_pin_mut(self: Pin<&mut Self>) -> Pin<&mut R> {
        self.project().inner
    }

    /// Gives back the inner reader; buffered bytes are lost.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// The bytes buffered and not yet consumed.
    pub fn buffer(&self) -> &[u8] {
        &self.buf[self.pos..self.cap]
    }

    fn discard_buffer(self: Pin<&mut Self>) {
        let me = self.project();
        *me.pos = 0;
        *me.cap = 0;
    }
}

impl<R: AsyncRead> AsyncRead for BufReader<R> {
    #[inline]
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        // Many small reads served from the buffer are the common case; this
        // part stays small enough to inline into the caller's loop.
        if self.pos < self.cap {
            let me = self.project();
            let n = (*me.cap - *me.pos).min(buf.remaining());
            buf.put_slice(&me.buf[*me.pos..*me.pos + n]);
            *me.pos += n;
            return Poll::Ready(Ok(()));
        }
        self.poll_read_unbuffered(cx, buf)
    }
}

impl<R: AsyncRead> BufReader<R> {
    /// `poll_read` with nothing buffered: a large request goes straight to
    /// the inner reader, a small one refills the buffer first.
    fn poll_read_unbuffered(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if buf.remaining() >= self.buf.len() {
            let result = ready!(self.as_mut().get_pin_mut().poll_read(cx, buf));
            self.discard_buffer();
            return Poll::Ready(result);
        }
        let available = ready!(self.as_mut().poll_fill_buf(cx))?;
        let n = available.len().min(buf.remaining());
        buf.put_slice(&available[..n]);
        self.consume(n);
        Poll::Ready(Ok(()))
    }
}

impl<R: AsyncRead> AsyncBufRead for BufReader<R> {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        let me = self.project();
        if *me.pos >= *me.cap {
            let mut read_buf = ReadBuf::new(me.buf);
            ready!(me.inner.poll_read(cx, &mut read_buf))?;
            *me.cap = read_buf.filled().len();
            *me.pos = 0;
        }
        Poll::Ready(Ok(&me.buf[*me.pos..*me.cap]))
    }

    fn consume(self: Pin<&mut Self>, amt: usize) {
        let me = self.project();
        *me.pos = (*me.pos + amt).min(*me.cap);
    }
}

impl<R: AsyncRead + AsyncSeek> AsyncSeek for BufReader<R> {
    /// Seeks the inner reader, accounting for the bytes still buffered, and
    /// drops the buffer.
    fn start_seek(self: Pin<&mut Self>, position: SeekFrom) -> io::Result<()> {
        let me = self.project();
        let mut then_seek = None;
        let position = match position {
            SeekFrom::Current(offset) => {
                // The inner cursor is ahead of ours by the buffered bytes.
                let buffered = i64::try_from(*me.cap - *me.pos).map_err(|_| overflow())?;
                match offset.checked_sub(buffered) {
                    Some(offset) => SeekFrom::Current(offset),
                    None => {
                        // Too far back for one `i64`: step back over the
                        // buffer first, then by `offset`.
                        then_seek = Some(offset);
                        SeekFrom::Current(-buffered)
                    }
                }
            }
            other => other,
        };
        me.inner.start_seek(position)?;
        *me.then_seek = then_seek;
        *me.pos = 0;
        *me.cap = 0;
        *me.seeking = true;
        Ok(())
    }

    fn poll_complete(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<u64>> {
        let mut me = self.project();
        let mut position = ready!(me.inner.as_mut().poll_complete(cx))?;
        if let Some(offset) = me.then_seek.take() {
            if let Err(e) = me.inner.as_mut().start_seek(SeekFrom::Current(offset)) {
                *me.seeking = false;
                return Poll::Ready(Err(e));
            }
            position = ready!(me.inner.poll_complete(cx))?;
        }
        if *me.seeking {
            *me.seeking = false;
            return Poll::Ready(Ok(position));
        }
        // No seek in progress: report our logical position, behind the
        // inner one by what is buffered.
        let buffered = (*me.cap - *me.pos) as u64;
        Poll::Ready(Ok(position.saturating_sub(buffered)))
    }
}

fn overflow() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "seeking would overflow the position",
    )
}

impl<R: AsyncWrite> AsyncWrite for BufReader<R> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_pin_mut().poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.get_pin_mut().poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_pin_mut().poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_pin_mut().poll_shutdown(cx)
    }
}
