//! The `AsyncRead` trait and its implementations for pointers, byte slices
//! and cursors.

use super::ReadBuf;
use std::io;
use std::ops::DerefMut;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Reads bytes from a source asynchronously.
///
/// `poll_read` fills part of `buf` and returns:
///
/// * `Poll::Ready(Ok(()))` when it made progress: the growth of
///   `buf.filled()` is what it read. No growth while `buf.remaining()` was
///   non-zero means the source reached its end.
/// * `Poll::Pending` when nothing is available yet; the current task will be
///   woken when that changes.
/// * `Poll::Ready(Err(e))` on an I/O error.
///
/// Use the methods of [`AsyncReadExt`](super::AsyncReadExt) to read from
/// `async` code.
pub trait AsyncRead {
    /// Tries to read into `buf`, registering the task for wake-up if no data
    /// is available.
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>>;
}

macro_rules! forward_async_read {
    () => {
        fn poll_read(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            Pin::new(&mut **self).poll_read(cx, buf)
        }
    };
}

impl<T: ?Sized + AsyncRead + Unpin> AsyncRead for Box<T> {
    forward_async_read!();
}

impl<T: ?Sized + AsyncRead + Unpin> AsyncRead for &mut T {
    forward_async_read!();
}

impl<P> AsyncRead for Pin<P>
where
    P: DerefMut + Unpin,
    P::Target: AsyncRead,
{
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.get_mut().as_mut().poll_read(cx, buf)
    }
}

impl AsyncRead for &[u8] {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let amount = self.len().min(buf.remaining());
        let (head, tail) = self.split_at(amount);
        buf.put_slice(head);
        *self = tail;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsRef<[u8]> + Unpin> AsyncRead for io::Cursor<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let position = self.position();
        let data = self.get_ref().as_ref();
        // A position set past the end reads as "nothing left", not a panic.
        let Ok(start) = usize::try_from(position) else {
            return Poll::Ready(Ok(()));
        };
        if start >= data.len() {
            return Poll::Ready(Ok(()));
        }
        let amount = (data.len() - start).min(buf.remaining());
        buf.put_slice(&data[start..start + amount]);
        self.set_position(position + amount as u64);
        Poll::Ready(Ok(()))
    }
}
