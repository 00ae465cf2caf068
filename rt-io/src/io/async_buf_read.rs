//! The `AsyncBufRead` trait: readers with an internal buffer that can be
//! inspected before it is consumed.

use std::io;
use std::ops::DerefMut;
use std::pin::Pin;
use std::task::{Context, Poll};

use super::AsyncRead;

/// A reader with an internal buffer.
///
/// [`poll_fill_buf`](AsyncBufRead::poll_fill_buf) exposes the buffered bytes
/// (reading more if none are buffered); [`consume`](AsyncBufRead::consume)
/// tells the reader how many of them were used. An empty slice from
/// `poll_fill_buf` means end of stream.
pub trait AsyncBufRead: AsyncRead {
    /// Returns the buffered bytes, filling the buffer first if it is empty.
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>>;

    /// Marks `amt` buffered bytes as used; they will not be returned again.
    ///
    /// `amt` must not exceed the length last returned by `poll_fill_buf`.
    fn consume(self: Pin<&mut Self>, amt: usize);
}

macro_rules! forward_async_buf_read {
    () => {
        fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
            Pin::new(&mut **self.get_mut()).poll_fill_buf(cx)
        }

        fn consume(mut self: Pin<&mut Self>, amt: usize) {
            Pin::new(&mut **self).consume(amt)
        }
    };
}

impl<T: ?Sized + AsyncBufRead + Unpin> AsyncBufRead for Box<T> {
    forward_async_buf_read!();
}

impl<T: ?Sized + AsyncBufRead + Unpin> AsyncBufRead for &mut T {
    forward_async_buf_read!();
}

impl<P> AsyncBufRead for Pin<P>
where
    P: DerefMut + Unpin,
    P::Target: AsyncBufRead,
{
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        self.get_mut().as_mut().poll_fill_buf(cx)
    }

    fn consume(self: Pin<&mut Self>, amt: usize) {
        self.get_mut().as_mut().consume(amt)
    }
}

impl AsyncBufRead for &[u8] {
    fn poll_fill_buf(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        Poll::Ready(Ok(*self.get_mut()))
    }

    fn consume(mut self: Pin<&mut Self>, amt: usize) {
        *self = &self[amt.min(self.len())..];
    }
}

impl<T: AsRef<[u8]> + Unpin> AsyncBufRead for io::Cursor<T> {
    fn poll_fill_buf(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        let this = self.get_mut();
        let data = this.get_ref().as_ref();
        let start = usize::try_from(this.position())
            .unwrap_or(usize::MAX)
            .min(data.len());
        Poll::Ready(Ok(&data[start..]))
    }

    fn consume(self: Pin<&mut Self>, amt: usize) {
        let this = self.get_mut();
        let position = this.position().saturating_add(amt as u64);
        this.set_position(position);
    }
}
