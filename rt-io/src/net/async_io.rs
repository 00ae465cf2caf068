//! `AsyncRead` and `AsyncWrite` for the stream sockets and their halves,
//! over the poll hooks each type provides (`PollRead`, `PollWrite`).

use super::stream_io::{PollRead, PollWrite};
use crate::io::{AsyncRead, AsyncWrite, ReadBuf};
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Reads into the unfilled part of `buf` through `stream`'s hook, without
/// zeroing it first.
#[inline]
fn poll_read_into(
    stream: &impl PollRead,
    cx: &mut Context<'_>,
    buf: &mut ReadBuf<'_>,
) -> Poll<io::Result<()>> {
    if buf.remaining() == 0 {
        return Poll::Ready(Ok(()));
    }
    // SAFETY: the hook only lets the kernel write into the slice; it never
    // writes uninitialised bytes over initialised ones.
    let unfilled = unsafe { buf.unfilled_mut() };
    let n = ready!(stream.poll_read_uninit(cx, unfilled))?;
    // SAFETY: the hook's read initialised the first `n` bytes of the
    // unfilled part.
    unsafe { buf.assume_init(n) };
    buf.advance(n);
    Poll::Ready(Ok(()))
}

macro_rules! impl_async_read {
    ($($ty:ty),* $(,)?) => {$(
        impl AsyncRead for $ty {
            fn poll_read(
                self: Pin<&mut Self>,
                cx: &mut Context<'_>,
                buf: &mut ReadBuf<'_>,
            ) -> Poll<io::Result<()>> {
                poll_read_into(&*self, cx, buf)
            }
        }
    )*};
}

macro_rules! impl_async_write {
    ($($ty:ty),* $(,)?) => {$(
        impl AsyncWrite for $ty {
            fn poll_write(
                self: Pin<&mut Self>,
                cx: &mut Context<'_>,
                buf: &[u8],
            ) -> Poll<io::Result<usize>> {
                self.poll_write_bytes(cx, buf)
            }

            fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                // Sockets write straight to the kernel: nothing to flush.
                Poll::Ready(Ok(()))
            }

            fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                self.poll_shutdown_write(cx)
            }
        }
    )*};
}

use super::tcp::{self, TcpStream};
#[cfg(unix)]
use super::unix::{self, UnixStream};

impl_async_read!(TcpStream, tcp::ReadHalf<'_>, tcp::OwnedReadHalf);
impl_async_write!(tcp::WriteHalf<'_>, tcp::OwnedWriteHalf);
#[cfg(unix)]
impl_async_read!(UnixStream, unix::ReadHalf<'_>, unix::OwnedReadHalf);
#[cfg(unix)]
impl_async_write!(unix::WriteHalf<'_>, unix::OwnedWriteHalf);

/// The whole streams also write vectored, straight to `writev`.
macro_rules! impl_stream_write {
    ($($ty:ty),*) => {$(
        impl AsyncWrite for $ty {
            fn poll_write(
                self: Pin<&mut Self>,
                cx: &mut Context<'_>,
                buf: &[u8],
            ) -> Poll<io::Result<usize>> {
                (*self).poll_write(cx, buf)
            }

            fn poll_write_vectored(
                self: Pin<&mut Self>,
                cx: &mut Context<'_>,
                bufs: &[io::IoSlice<'_>],
            ) -> Poll<io::Result<usize>> {
                (*self).poll_write_vectored(cx, bufs)
            }

            fn is_write_vectored(&self) -> bool {
                true
            }

            fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                Poll::Ready(Ok(()))
            }

            fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                (*self).poll_shutdown(cx)
            }
        }
    )*};
}

impl_stream_write!(TcpStream);
#[cfg(unix)]
impl_stream_write!(UnixStream);
