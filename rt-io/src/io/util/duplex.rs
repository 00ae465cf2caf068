//! `duplex`: an in-memory, bounded, bidirectional byte pipe, the stand-in
//! for a socket pair in tests and between tasks.
//!
//! Each direction is a `Pipe` behind a mutex: a byte buffer capped at the
//! capacity given to [`duplex`], plus the waker of the side waiting on it.
//! A writer that finds the buffer full parks its waker and waits for the
//! reader to drain it; a reader that finds it empty does the reverse. The
//! peer is woken only after the lock is released, so that on a
//! multi-threaded runtime it does not wake up into a held lock.
//! Dropping or shutting down one end closes its write direction, so the
//! peer reads what is left and then end of stream.

use super::pipe::Pipe;
use crate::io::{AsyncRead, AsyncWrite, ReadBuf};
use rt_core::loom::sync::{Arc, Mutex, MutexGuard};
use rt_core::task::coop;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Creates a connected pair of in-memory streams.
///
/// Bytes written to one end are read from the other; each direction holds
/// at most `max_buf_size` bytes, beyond which writers wait.
///
/// # Panics
///
/// If `max_buf_size` is zero (no byte could ever pass).
///
/// ```
/// use rt_io::io::{duplex, AsyncReadExt, AsyncWriteExt};
/// # use std::future::Future;
/// # struct Noop;
/// # impl std::task::Wake for Noop { fn wake(self: std::sync::Arc<Self>) {} }
/// # let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
/// # let mut cx = std::task::Context::from_waker(&waker);
/// let (mut client, mut server) = duplex(64);
/// assert!(std::pin::pin!(client.write_all(b"ping")).poll(&mut cx).is_ready());
/// let mut got = [0u8; 4];
/// assert!(std::pin::pin!(server.read_exact(&mut got)).poll(&mut cx).is_ready());
/// assert_eq!(&got, b"ping");
/// ```
#[track_caller]
pub fn duplex(max_buf_size: usize) -> (DuplexStream, DuplexStream) {
    assert!(
        max_buf_size > 0,
        "duplex capacity must be greater than zero"
    );
    let one = Arc::new(Mutex::new(Pipe::new(max_buf_size)));
    let two = Arc::new(Mutex::new(Pipe::new(max_buf_size)));
    (
        DuplexStream {
            read: one.clone(),
            write: two.clone(),
        },
        DuplexStream {
            read: two,
            write: one,
        },
    )
}

/// One end of an in-memory pipe made by [`duplex`].
///
/// It reads what the other end writes and the other way round. Dropping it
/// (or shutting it down) makes the other end read end of stream after the
/// bytes already sent; writing to an end whose peer is gone fails with
/// `BrokenPipe`.
#[derive(Debug)]
pub struct DuplexStream {
    read: Arc<Mutex<Pipe>>,
    write: Arc<Mutex<Pipe>>,
}

fn lock(pipe: &Mutex<Pipe>) -> MutexGuard<'_, Pipe> {
    // A panic while holding the lock cannot leave the pipe inconsistent:
    // every update is a single step on plain fields.
    pipe.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl AsyncRead for DuplexStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let budget = ready!(coop::poll_proceed(cx));
        let mut pipe = lock(&self.read);
        let (result, wakeups) = pipe.poll_read(cx, buf);
        drop(pipe);
        wakeups.wake();
        let result = ready!(result);
        budget.made_progress();
        Poll::Ready(result)
    }
}

impl AsyncWrite for DuplexStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let budget = ready!(coop::poll_proceed(cx));
        let mut pipe = lock(&self.write);
        let (result, wakeups) = pipe.poll_write(cx, buf);
        drop(pipe);
        wakeups.wake();
        let result = ready!(result);
        budget.made_progress();
        Poll::Ready(result)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let budget = ready!(coop::poll_proceed(cx));
        let mut pipe = lock(&self.write);
        let (result, wakeups) = pipe.poll_write_vectored(cx, bufs);
        drop(pipe);
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

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let wakeups = lock(&self.write).close();
        wakeups.wake();
        Poll::Ready(Ok(()))
    }
}

impl Drop for DuplexStream {
    fn drop(&mut self) {
        // The peer reads what is left, then end of stream; its writes fail.
        // Each statement drops its guard before the wakers run.
        let wakeups = lock(&self.write).close();
        wakeups.wake();
        let wakeups = lock(&self.read).close();
        wakeups.wake();
    }
}
