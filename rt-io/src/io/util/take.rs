//! `Take`: a reader limited to a number of bytes of another.

use crate::io::{AsyncBufRead, AsyncRead, ReadBuf};
use pin_project_lite::pin_project;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

pin_project! {
    /// A reader that yields at most a fixed number of bytes of an inner reader,
    /// made by [`AsyncReadExt::take`](crate::io::AsyncReadExt::take).
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    #[project = TakeProj]
    pub struct Take<R> {
        #[pin]
        inner: R,
        limit: u64,
    }
}

impl<R> Take<R> {
    pub(crate) fn new(inner: R, limit: u64) -> Self {
        Take { inner, limit }
    }

    /// How many bytes may still be read.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Changes the number of bytes that may still be read.
    pub fn set_limit(&mut self, limit: u64) {
        self.limit = limit;
    }

    /// The inner reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The inner reader, mutably. Reading from it directly bypasses the
    /// limit.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// The pinned inner reader.
    pub fn get_pin_mut(self: Pin<&mut Self>) -> Pin<&mut R> {
        self.project().inner
    }

    /// Gives back the inner reader.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: AsyncRead> AsyncRead for Take<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let TakeProj { inner, limit } = self.project();
        if *limit == 0 {
            return Poll::Ready(Ok(()));
        }
        let allowed = usize::try_from(*limit).unwrap_or(usize::MAX);
        let mut sub = buf.take(allowed);
        let start = sub.filled().as_ptr();
        ready!(inner.poll_read(cx, &mut sub))?;
        assert_eq!(start, sub.filled().as_ptr(), "reader replaced ReadBuf");
        let n = sub.filled().len();
        // SAFETY: the reader filled (so initialised) `n` bytes of the
        // unfilled part of `buf`, through `sub`.
        unsafe { buf.assume_init(n) };
        buf.advance(n);
        *limit -= n as u64;
        Poll::Ready(Ok(()))
    }
}

impl<R: AsyncBufRead> AsyncBufRead for Take<R> {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        let TakeProj { inner, limit } = self.project();
        if *limit == 0 {
            return Poll::Ready(Ok(&[]));
        }
        let available = ready!(inner.poll_fill_buf(cx))?;
        let allowed = usize::try_from(*limit).unwrap_or(usize::MAX);
        Poll::Ready(Ok(&available[..available.len().min(allowed)]))
    }

    fn consume(self: Pin<&mut Self>, amt: usize) {
        let TakeProj { inner, limit } = self.project();
        let amt = (amt as u64).min(*limit);
        *limit -= amt;
        inner.consume(amt as usize);
    }
}
