//! The futures behind `AsyncWriteExt`'s methods: `write`, `write_vectored`,
//! `write_all`, `write_buf`, `write_all_buf`, `flush` and `shutdown`.

use super::interrupted::poll_uninterrupted;
use crate::io::AsyncWrite;
use bytes::Buf;
use std::future::Future;
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

pub(crate) fn write_zero() -> io::Error {
    io::Error::new(io::ErrorKind::WriteZero, "failed to write whole buffer")
}

/// Future returned by [`AsyncWriteExt::write`](crate::io::AsyncWriteExt::write).
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct Write<'a, W: ?Sized> {
    writer: &'a mut W,
    buf: &'a [u8],
}

impl<'a, W: ?Sized> Write<'a, W> {
    pub(crate) fn new(writer: &'a mut W, buf: &'a [u8]) -> Self {
        Write { writer, buf }
    }
}

impl<W: AsyncWrite + Unpin + ?Sized> Future for Write<'_, W> {
    type Output = io::Result<usize>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        Pin::new(&mut *me.writer).poll_write(cx, me.buf)
    }
}

/// Future returned by
/// [`AsyncWriteExt::write_vectored`](crate::io::AsyncWriteExt::write_vectored).
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct WriteVectored<'a, 'b, W: ?Sized> {
    writer: &'a mut W,
    bufs: &'a [IoSlice<'b>],
}

impl<'a, 'b, W: ?Sized> WriteVectored<'a, 'b, W> {
    pub(crate) fn new(writer: &'a mut W, bufs: &'a [IoSlice<'b>]) -> Self {
        WriteVectored { writer, bufs }
    }
}

impl<W: AsyncWrite + Unpin + ?Sized> Future for WriteVectored<'_, '_, W> {
    type Output = io::Result<usize>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        Pin::new(&mut *me.writer).poll_write_vectored(cx, me.bufs)
    }
}

/// Future returned by
/// [`AsyncWriteExt::write_all`](crate::io::AsyncWriteExt::write_all).
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct WriteAll<'a, W: ?Sized> {
    writer: &'a mut W,
    buf: &'a [u8],
}

impl<'a, W: ?Sized> WriteAll<'a, W> {
    pub(crate) fn new(writer: &'a mut W, buf: &'a [u8]) -> Self {
        WriteAll { writer, buf }
    }
}

impl<W: AsyncWrite + Unpin + ?Sized> Future for WriteAll<'_, W> {
    type Output = io::Result<()>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let me = &mut *self;
        while !me.buf.is_empty() {
            let n = ready!(poll_uninterrupted(
                || Pin::new(&mut *me.writer).poll_write(cx, me.buf)
            ))?;
            if n == 0 {
                return Poll::Ready(Err(write_zero()));
            }
            me.buf = &me.buf[n.min(me.buf.len())..];
        }
        Poll::Ready(Ok(()))
    }
}

/// Writes once from `buf`'s current chunk(s), advancing it by what was
/// taken.
pub(crate) fn poll_write_from_buf<W, B>(
    writer: Pin<&mut W>,
    cx: &mut Context<'_>,
    buf: &mut B,
) -> Poll<io::Result<usize>>
where
    W: AsyncWrite + ?Sized,
    B: Buf + ?Sized,
{
    if !buf.has_remaining() {
        return Poll::Ready(Ok(0));
    }
    let n = if writer.is_write_vectored() {
        let mut slices = [IoSlice::new(&[]); 64];
        let count = buf.chunks_vectored(&mut slices);
        ready!(writer.poll_write_vectored(cx, &slices[..count]))?
    } else {
        ready!(writer.poll_write(cx, buf.chunk()))?
    };
    buf.advance(n.min(buf.remaining()));
    Poll::Ready(Ok(n))
}

/// Future returned by
/// [`AsyncWriteExt::write_buf`](crate::io::AsyncWriteExt::write_buf).
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct WriteBuf<'a, W: ?Sized, B: ?Sized> {
    writer: &'a mut W,
    buf: &'a mut B,
}

impl<'a, W: ?Sized, B: ?Sized> WriteBuf<'a, W, B> {
    pub(crate) fn new(writer: &'a mut W, buf: &'a mut B) -> Self {
        WriteBuf { writer, buf }
    }
}

impl<W: AsyncWrite + Unpin + ?Sized, B: Buf + ?Sized> Future for WriteBuf<'_, W, B> {
    type Output = io::Result<usize>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        poll_write_from_buf(Pin::new(&mut *me.writer), cx, me.buf)
    }
}

/// Future returned by
/// [`AsyncWriteExt::write_all_buf`](crate::io::AsyncWriteExt::write_all_buf).
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct WriteAllBuf<'a, W: ?Sized, B: ?Sized> {
    writer: &'a mut W,
    buf: &'a mut B,
}

impl<'a, W: ?Sized, B: ?Sized> WriteAllBuf<'a, W, B> {
    pub(crate) fn new(writer: &'a mut W, buf: &'a mut B) -> Self {
        WriteAllBuf { writer, buf }
    }
}

impl<W: AsyncWrite + Unpin + ?Sized, B: Buf + ?Sized> Future for WriteAllBuf<'_, W, B> {
    type Output = io::Result<()>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let me = &mut *self;
        while me.buf.has_remaining() {
            let n = ready!(poll_uninterrupted(|| poll_write_from_buf(
                Pin::new(&mut *me.writer),
                cx,
                me.buf
            )))?;
            if n == 0 {
                return Poll::Ready(Err(write_zero()));
            }
        }
        Poll::Ready(Ok(()))
    }
}

/// Future returned by [`AsyncWriteExt::flush`](crate::io::AsyncWriteExt::flush).
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct Flush<'a, W: ?Sized> {
    writer: &'a mut W,
}

impl<'a, W: ?Sized> Flush<'a, W> {
    pub(crate) fn new(writer: &'a mut W) -> Self {
        Flush { writer }
    }
}

impl<W: AsyncWrite + Unpin + ?Sized> Future for Flush<'_, W> {
    type Output = io::Result<()>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.writer).poll_flush(cx)
    }
}

/// Future returned by
/// [`AsyncWriteExt::shutdown`](crate::io::AsyncWriteExt::shutdown).
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct Shutdown<'a, W: ?Sized> {
    writer: &'a mut W,
}

impl<'a, W: ?Sized> Shutdown<'a, W> {
    pub(crate) fn new(writer: &'a mut W) -> Self {
        Shutdown { writer }
    }
}

impl<W: AsyncWrite + Unpin + ?Sized> Future for Shutdown<'_, W> {
    type Output = io::Result<()>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.writer).poll_shutdown(cx)
    }
}
