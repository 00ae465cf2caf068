//! `simplex`: a bounded in-memory pipe in one direction.

use super::pipe::Pipe;
use super::split::{split, ReadHalf, WriteHalf};
use crate::io::{AsyncRead, AsyncWrite, ReadBuf};
use rt_core::task::coop;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Creates a one-way in-memory pipe holding at most `max_buf_size` bytes,
/// as a read half and a write half.
///
/// The reader sees end of stream once the write half was shut down and the
/// bytes were read; dropping the write half alone does not end the stream.
///
/// # Panics
///
/// If `max_buf_size` is zero.
#[track_caller]
pub fn simplex(max_buf_size: usize) -> (ReadHalf<SimplexStream>, WriteHalf<SimplexStream>) {
    split(SimplexStream::new_unsplit(max_buf_size))
}

/// A bounded in-memory pipe: what is written to it is read from it.
///
/// Usually used split, through [`simplex`].
#[derive(Debug)]
pub struct SimplexStream {
    pipe: Pipe,
}

impl SimplexStream {
    /// A pipe holding at most `max_buf_size` bytes, not split.
    ///
    /// # Panics
    ///
    /// If `max_buf_size` is zero.
    #[track_caller]
    pub fn new_unsplit(max_buf_size: usize) -> SimplexStream {
        assert!(
            max_buf_size > 0,
            "simplex capacity must be greater than zero"
        );
        SimplexStream {
            pipe: Pipe::new(max_buf_size),
        }
    }
}

impl AsyncRead for SimplexStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let budget = ready!(coop::poll_proceed(cx));
        let (result, wakeups) = self.pipe.poll_read(cx, buf);
        wakeups.wake();
        let result = ready!(result);
        budget.made_progress();
        Poll::Ready(result)
    }
}

impl AsyncWrite for SimplexStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let budget = ready!(coop::poll_proceed(cx));
        let (result, wakeups) = self.pipe.poll_write(cx, buf);
        wakeups.wake();
        let result = ready!(result);
        budget.made_progress();
        Poll::Ready(result)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let budget = ready!(coop::poll_proceed(cx));
        let (result, wakeups) = self.pipe.poll_write_vectored(cx, bufs);
        wakeups.wake();
        let result = ready!(result);
        budget.made_progress();
        Poll::Ready(result)
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.pipe.close().wake();
        Poll::Ready(Ok(()))
    }
}
