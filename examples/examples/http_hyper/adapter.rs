//! The glue that lets hyper 1.x run on rt: hyper talks to its runtime only
//! through the traits in `hyper::rt`, so three small types are enough.
//!
//! * [`RtIo`] wraps any rt stream (`AsyncRead + AsyncWrite`) as a
//!   `hyper::rt::Read + hyper::rt::Write`.
//! * [`RtExecutor`] hands hyper's background futures to `rt::spawn`.
//! * [`RtTimer`] gives hyper sleeps backed by rt's timer wheel, which it
//!   uses for timeouts such as `header_read_timeout`.

use hyper::rt::{Executor, ReadBufCursor, Sleep, Timer};
use pin_project_lite::pin_project;
use rt::io::{AsyncRead, AsyncWrite, ReadBuf};
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::{Duration, Instant};

/// An rt byte stream seen through hyper's I/O traits.
#[derive(Debug)]
pub struct RtIo<S> {
    stream: S,
}

impl<S> RtIo<S> {
    /// Wraps `stream`.
    pub fn new(stream: S) -> RtIo<S> {
        RtIo { stream }
    }
}

impl<S: AsyncRead + Unpin> hyper::rt::Read for RtIo<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        mut cursor: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        // Hyper hands out the unfilled tail of its buffer, possibly
        // uninitialised; rt's `ReadBuf` tracks exactly that, so the reader
        // writes straight into hyper's memory with no copy.
        // SAFETY: the slice is only wrapped in an rt `ReadBuf`, whose API
        // writes initialised bytes and never de-initialises any.
        let unfilled = unsafe { cursor.as_mut() };
        let start = unfilled.as_ptr();
        let mut buf = ReadBuf::uninit(unfilled);
        ready!(Pin::new(&mut self.stream).poll_read(cx, &mut buf))?;
        let filled = buf.filled();
        // A reader may swap in a buffer of its own (it holds `&mut ReadBuf`);
        // then the bytes it reports are not in hyper's memory.
        if filled.as_ptr() != start.cast() {
            return Poll::Ready(Err(io::Error::other(
                "the reader replaced the buffer it was given",
            )));
        }
        let n = filled.len();
        // SAFETY: the first `n` bytes of the unfilled region are the filled
        // part of `buf`, which `ReadBuf` guarantees initialised, and we just
        // checked that they are hyper's bytes.
        unsafe { cursor.advance(n) };
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncWrite + Unpin> hyper::rt::Write for RtIo<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }
}

/// Runs hyper's background futures (a client connection's driver, HTTP/2
/// streams) as rt tasks.
#[derive(Clone, Copy, Debug, Default)]
pub struct RtExecutor;

impl<F> Executor<F> for RtExecutor
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    fn execute(&self, future: F) {
        // Detached: the future reports its outcome through its own means.
        drop(rt::spawn(future));
    }
}

/// Hyper's clock and sleeps, on rt's timer (and so on rt's paused clock in
/// tests that pause time).
#[derive(Clone, Copy, Debug, Default)]
pub struct RtTimer;

impl Timer for RtTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn Sleep>> {
        Box::pin(RtSleep {
            inner: rt::time::sleep(duration),
        })
    }

    fn sleep_until(&self, deadline: Instant) -> Pin<Box<dyn Sleep>> {
        Box::pin(RtSleep {
            inner: rt::time::sleep_until(rt::time::Instant::from_std(deadline)),
        })
    }

    fn now(&self) -> Instant {
        rt::time::Instant::now().into_std()
    }

    fn reset(&self, sleep: &mut Pin<Box<dyn Sleep>>, new_deadline: Instant) {
        // Moving the deadline of our own sleep keeps its allocation and its
        // place in the wheel; anything else is replaced.
        match sleep.as_mut().downcast_mut_pin::<RtSleep>() {
            Some(ours) => ours
                .inner()
                .reset(rt::time::Instant::from_std(new_deadline)),
            None => *sleep = self.sleep_until(new_deadline),
        }
    }
}

pin_project! {
    /// An rt sleep that hyper can hold as a `dyn hyper::rt::Sleep` (neither
    /// the trait nor rt's type is this crate's, hence the wrapper).
    struct RtSleep {
        #[pin]
        inner: rt::time::Sleep,
    }
}

impl RtSleep {
    /// The pinned rt sleep inside a pinned wrapper.
    fn inner(self: Pin<&mut Self>) -> Pin<&mut rt::time::Sleep> {
        self.project().inner
    }
}

impl Future for RtSleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.inner().poll(cx)
    }
}

impl Sleep for RtSleep {}
