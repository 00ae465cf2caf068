//! `Chain`: one reader that yields a first reader's bytes, then a second's.

use crate::io::{AsyncBufRead, AsyncRead, ReadBuf};
use pin_project_lite::pin_project;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

pin_project! {
    /// Two readers read one after the other, made by
    /// [`AsyncReadExt::chain`](crate::io::AsyncReadExt::chain).
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    #[project = ChainProj]
    pub struct Chain<T, U> {
        #[pin]
        first: T,
        #[pin]
        second: U,
        // The first reader reached its end.
        done_first: bool,
    }
}

impl<T, U> Chain<T, U> {
    pub(crate) fn new(first: T, second: U) -> Self {
        Chain {
            first,
            second,
            done_first: false,
        }
    }

    /// The two readers.
    pub fn get_ref(&self) -> (&T, &U) {
        (&self.first, &self.second)
    }

    /// The two readers, mutably. Reading from them directly may confuse
    /// the chain.
    pub fn get_mut(&mut self) -> (&mut T, &mut U) {
        (&mut self.first, &mut self.second)
    }

    /// The two pinned readers.
    pub fn get_pin_mut(self: Pin<&mut Self>) -> (Pin<&mut T>, Pin<&mut U>) {
        let ChainProj { first, second, .. } = self.project();
        (first, second)
    }

    /// Gives back the two readers.
    pub fn into_inner(self) -> (T, U) {
        (self.first, self.second)
    }
}

impl<T: AsyncRead, U: AsyncRead> AsyncRead for Chain<T, U> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let ChainProj {
            first,
            second,
            done_first,
        } = self.project();
        if !*done_first {
            let before = buf.filled().len();
            ready!(first.poll_read(cx, buf))?;
            // No growth with room left: the first reader is finished.
            if buf.filled().len() > before || buf.remaining() == 0 {
                return Poll::Ready(Ok(()));
            }
            *done_first = true;
        }
        second.poll_read(cx, buf)
    }
}

impl<T: AsyncBufRead, U: AsyncBufRead> AsyncBufRead for Chain<T, U> {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        let ChainProj {
            first,
            second,
            done_first,
        } = self.project();
        if !*done_first {
            let available = ready!(first.poll_fill_buf(cx))?;
            if !available.is_empty() {
                return Poll::Ready(Ok(available));
            }
            *done_first = true;
        }
        second.poll_fill_buf(cx)
    }

    fn consume(self: Pin<&mut Self>, amt: usize) {
        let ChainProj {
            first,
            second,
            done_first,
        } = self.project();
        if *done_first {
            second.consume(amt)
        } else {
            first.consume(amt)
        }
    }
}
