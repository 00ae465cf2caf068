//! `empty`, `sink` and `repeat`: readers and writers that need no data
//! source, always ready (within the task's coop budget).

use crate::io::{AsyncBufRead, AsyncRead, AsyncSeek, AsyncWrite, ReadBuf};
use rt_core::task::coop;
use std::io::{self, IoSlice, SeekFrom};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Spends one unit of coop budget for an operation that always succeeds.
#[inline]
pub(crate) fn poll_spend_budget(cx: &mut Context<'_>) -> Poll<()> {
    let budget = ready!(coop::poll_proceed(cx));
    budget.made_progress();
    Poll::Ready(())
}

/// A reader that is always at end of stream and a writer that takes and
/// drops everything, made by [`empty`].
#[derive(Debug, Default, Clone, Copy)]
pub struct Empty {
    _priv: (),
}

/// Creates an [`Empty`]: reads yield end of stream, writes succeed and are
/// discarded.
pub fn empty() -> Empty {
    Empty { _priv: () }
}

impl AsyncRead for Empty {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        _buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        ready!(poll_spend_budget(cx));
        Poll::Ready(Ok(()))
    }
}

impl AsyncBufRead for Empty {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        ready!(poll_spend_budget(cx));
        Poll::Ready(Ok(&[]))
    }

    fn consume(self: Pin<&mut Self>, _amt: usize) {}
}

impl AsyncWrite for Empty {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(poll_spend_budget(cx));
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(poll_spend_budget(cx));
        Poll::Ready(Ok(bufs.iter().map(|b| b.len()).sum()))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(poll_spend_budget(cx));
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(poll_spend_budget(cx));
        Poll::Ready(Ok(()))
    }
}

impl AsyncSeek for Empty {
    fn start_seek(self: Pin<&mut Self>, _position: SeekFrom) -> io::Result<()> {
        Ok(())
    }

    fn poll_complete(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<u64>> {
        Poll::Ready(Ok(0))
    }
}

/// A writer that takes and drops everything, made by [`sink`].
#[derive(Debug, Default, Clone, Copy)]
pub struct Sink {
    _priv: (),
}

/// Creates a [`Sink`]: every write succeeds and is discarded.
pub fn sink() -> Sink {
    Sink { _priv: () }
}

impl AsyncWrite for Sink {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(poll_spend_budget(cx));
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(poll_spend_budget(cx));
        Poll::Ready(Ok(bufs.iter().map(|b| b.len()).sum()))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(poll_spend_budget(cx));
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(poll_spend_budget(cx));
        Poll::Ready(Ok(()))
    }
}

/// A reader that yields one byte over and over, made by [`repeat`].
#[derive(Debug, Clone, Copy)]
pub struct Repeat {
    byte: u8,
}

/// Creates a [`Repeat`]: every read fills the buffer with `byte`.
pub fn repeat(byte: u8) -> Repeat {
    Repeat { byte }
}

impl AsyncRead for Repeat {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        ready!(poll_spend_budget(cx));
        let n = buf.remaining();
        buf.initialize_unfilled_to(n).fill(self.byte);
        buf.advance(n);
        Poll::Ready(Ok(()))
    }
}
