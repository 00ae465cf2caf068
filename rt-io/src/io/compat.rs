//! Adapters between rt's I/O traits and the `futures-io` ones (feature
//! `compat`, off by default), in the shape of tokio-util's `compat` module.
//!
//! [`Compat<T>`] wraps a reader or writer of one family and implements the
//! traits of the other: read, write, buffered read and seek. The extension
//! traits build it:
//!
//! * from an rt type, [`TokioAsyncReadCompatExt::compat`] and
//!   [`TokioAsyncWriteCompatExt::compat_write`] give a `futures-io` type;
//! * from a `futures-io` type, [`FuturesAsyncReadCompatExt::compat`] and
//!   [`FuturesAsyncWriteCompatExt::compat_write`] give an rt type.
//!
//! A type that implements a trait of both families (such as `&[u8]`) makes
//! `.compat()` ambiguous when both extension traits are in scope; import
//! only the one for the direction wanted.
//!
//! ```
//! use futures_io::AsyncRead as FuturesRead;
//! use rt_io::io::compat::TokioAsyncReadCompatExt;
//! use std::future::poll_fn;
//! use std::pin::Pin;
//!
//! # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let (mut writer, reader) = rt_io::io::duplex(64);
//! rt_io::io::AsyncWriteExt::write_all(&mut writer, b"hello").await?;
//! // `reader` is an rt `AsyncRead`; through `compat` it is a futures one.
//! let mut reader = reader.compat();
//! let mut buf = [0u8; 5];
//! let n = poll_fn(|cx| Pin::new(&mut reader).poll_read(cx, &mut buf)).await?;
//! assert_eq!(&buf[..n], b"hello");
//! # Ok::<_, std::io::Error>(())
//! # }).unwrap();
//! ```

use super::{AsyncBufRead, AsyncRead, AsyncSeek, AsyncWrite, ReadBuf};
use pin_project_lite::pin_project;
use std::io::{self, IoSlice, SeekFrom};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

pin_project! {
    /// A reader or writer of one trait family seen through the other's traits.
    ///
    /// Build one with the extension traits of this module.
    #[derive(Debug)]
    #[project = CompatProj]
    pub struct Compat<T> {
        #[pin]
        inner: T,
        // The target of an rt-side `start_seek` not yet completed, or of a
        // futures-side `poll_seek` already started on the rt inner value.
        seek_pos: Option<SeekFrom>,
    }
}

impl<T> Compat<T> {
    fn new(inner: T) -> Compat<T> {
        Compat {
            inner,
            seek_pos: None,
        }
    }

    /// The wrapped value.
    pub fn get_ref(&self) -> &T {
        &self.inner
    }

    /// The wrapped value, mutably.
    pub fn get_mut(&mut self) -> &mut T {
        &mut self.inner
    }

    /// Unwraps the value.
    pub fn into_inner(self) -> T {
        self.inner
    }
}

/// Wraps a `futures-io` reader as an rt reader.
pub trait FuturesAsyncReadCompatExt: futures_io::AsyncRead {
    /// Wraps `self` so that it implements rt's [`AsyncRead`] (and
    /// [`AsyncBufRead`], [`AsyncSeek`] where `self` has their futures
    /// counterparts).
    fn compat(self) -> Compat<Self>
    where
        Self: Sized,
    {
        Compat::new(self)
    }
}

impl<T: futures_io::AsyncRead> FuturesAsyncReadCompatExt for T {}

/// Wraps a `futures-io` writer as an rt writer.
pub trait FuturesAsyncWriteCompatExt: futures_io::AsyncWrite {
    /// Wraps `self` so that it implements rt's [`AsyncWrite`].
    fn compat_write(self) -> Compat<Self>
    where
        Self: Sized,
    {
        Compat::new(self)
    }
}

impl<T: futures_io::AsyncWrite> FuturesAsyncWriteCompatExt for T {}

/// Wraps an rt reader as a `futures-io` reader.
pub trait TokioAsyncReadCompatExt: AsyncRead {
    /// Wraps `self` so that it implements `futures_io::AsyncRead` (and
    /// `AsyncBufRead`, `AsyncSeek` where `self` has rt's).
    fn compat(self) -> Compat<Self>
    where
        Self: Sized,
    {
        Compat::new(self)
    }
}

impl<T: AsyncRead> TokioAsyncReadCompatExt for T {}

/// Wraps an rt writer as a `futures-io` writer.
pub trait TokioAsyncWriteCompatExt: AsyncWrite {
    /// Wraps `self` so that it implements `futures_io::AsyncWrite`.
    fn compat_write(self) -> Compat<Self>
    where
        Self: Sized,
    {
        Compat::new(self)
    }
}

impl<T: AsyncWrite> TokioAsyncWriteCompatExt for T {}

// ---- futures-io inner, rt outer ----

impl<T: futures_io::AsyncRead> AsyncRead for Compat<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        // futures-io reads into initialised bytes only.
        let unfilled = buf.initialize_unfilled();
        let room = unfilled.len();
        let n = ready!(self.project().inner.poll_read(cx, unfilled))?;
        if n > room {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "reader reported more bytes than the buffer holds",
            )));
        }
        buf.advance(n);
        Poll::Ready(Ok(()))
    }
}

impl<T: futures_io::AsyncBufRead> AsyncBufRead for Compat<T> {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        self.project().inner.poll_fill_buf(cx)
    }

    fn consume(self: Pin<&mut Self>, amt: usize) {
        self.project().inner.consume(amt)
    }
}

impl<T: futures_io::AsyncWrite> AsyncWrite for Compat<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.project().inner.poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.project().inner.poll_write_vectored(cx, bufs)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.project().inner.poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.project().inner.poll_close(cx)
    }
}

impl<T: futures_io::AsyncSeek> AsyncSeek for Compat<T> {
    fn start_seek(self: Pin<&mut Self>, position: SeekFrom) -> io::Result<()> {
        // futures-io seeks in one poll call; remember the target until
        // `poll_complete` drives it.
        *self.project().seek_pos = Some(position);
        Ok(())
    }

    fn poll_complete(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<u64>> {
        let CompatProj { inner, seek_pos } = self.project();
        // Without a pending seek this reports the current position.
        let target = seek_pos.unwrap_or(SeekFrom::Current(0));
        let result = ready!(inner.poll_seek(cx, target));
        *seek_pos = None;
        Poll::Ready(result)
    }
}

// ---- rt inner, futures-io outer ----

impl<T: AsyncRead> futures_io::AsyncRead for Compat<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        let mut read_buf = ReadBuf::new(buf);
        ready!(self.project().inner.poll_read(cx, &mut read_buf))?;
        Poll::Ready(Ok(read_buf.filled().len()))
    }
}

impl<T: AsyncBufRead> futures_io::AsyncBufRead for Compat<T> {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        self.project().inner.poll_fill_buf(cx)
    }

    fn consume(self: Pin<&mut Self>, amt: usize) {
        self.project().inner.consume(amt)
    }
}

impl<T: AsyncWrite> futures_io::AsyncWrite for Compat<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.project().inner.poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.project().inner.poll_write_vectored(cx, bufs)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.project().inner.poll_flush(cx)
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.project().inner.poll_shutdown(cx)
    }
}

impl<T: AsyncSeek> futures_io::AsyncSeek for Compat<T> {
    fn poll_seek(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        pos: SeekFrom,
    ) -> Poll<io::Result<u64>> {
        let CompatProj {
            mut inner,
            seek_pos,
        } = self.project();
        // A seek to the same target that returned `Pending` is already
        // started; only a new target starts another.
        if *seek_pos != Some(pos) {
            inner.as_mut().start_seek(pos)?;
            *seek_pos = Some(pos);
        }
        let result = ready!(inner.poll_complete(cx));
        *seek_pos = None;
        Poll::Ready(result)
    }
}
