//! The process's standard streams as async values: [`stdin`], [`stdout`]
//! and [`stderr`]. Their blocking reads and writes run on the runtime's
//! blocking pool (see `io/blocking.rs`), as tokio's do.

use crate::io::blocking::Blocking;
use crate::io::{AsyncRead, AsyncWrite, ReadBuf};
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

/// The process's standard input, read on the blocking pool; made by
/// [`stdin`].
///
/// A read the caller abandons still runs to completion on the pool, and
/// its bytes are kept for the next read from the same `Stdin`; separate
/// `Stdin` values each have their own buffer, so use one at a time (for
/// line-oriented input, wrap it in a
/// [`BufReader`](crate::io::BufReader)).
#[derive(Debug)]
pub struct Stdin {
    inner: Blocking<io::Stdin>,
}

/// The process's standard output, written on the blocking pool; made by
/// [`stdout`].
///
/// A write returns once its bytes are handed to the pool; a failure is
/// reported by the next write or flush. Call
/// [`flush`](crate::io::AsyncWriteExt::flush) to wait for everything
/// written to reach the stream (std's line buffering applies as well).
#[derive(Debug)]
pub struct Stdout {
    inner: Blocking<io::Stdout>,
}

/// The process's standard error, written on the blocking pool; made by
/// [`stderr`]. It behaves as [`Stdout`] does.
#[derive(Debug)]
pub struct Stderr {
    inner: Blocking<io::Stderr>,
}

/// A handle to the process's standard input.
///
/// Reading needs a runtime (it uses the blocking pool); outside one the
/// read panics.
///
/// ```
/// use rt_io::io::AsyncReadExt;
/// # let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// # rt.block_on(async {
/// let mut input = rt_io::io::stdin();
/// let mut buf = [0u8; 0];
/// input.read(&mut buf).await?;
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
pub fn stdin() -> Stdin {
    Stdin {
        inner: Blocking::new(io::stdin()),
    }
}

/// A handle to the process's standard output.
///
/// ```
/// use rt_io::io::AsyncWriteExt;
/// # let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// # rt.block_on(async {
/// let mut out = rt_io::io::stdout();
/// out.write_all(b"hello\n").await?;
/// out.flush().await?;
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
pub fn stdout() -> Stdout {
    Stdout {
        inner: Blocking::new(io::stdout()),
    }
}

/// A handle to the process's standard error; see [`stdout`].
pub fn stderr() -> Stderr {
    Stderr {
        inner: Blocking::new(io::stderr()),
    }
}

impl AsyncRead for Stdin {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.get_mut().inner.poll_read(cx, buf)
    }
}

/// `AsyncWrite` and the handle traits, alike for the two output
/// streams.
macro_rules! impl_output {
    ($($ty:ident => $std:ident),*) => {$(
        impl AsyncWrite for $ty {
            fn poll_write(
                self: Pin<&mut Self>,
                cx: &mut Context<'_>,
                buf: &[u8],
            ) -> Poll<io::Result<usize>> {
                self.get_mut().inner.poll_write(cx, buf)
            }

            fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                self.get_mut().inner.poll_flush(cx)
            }

            fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                // The process's stream stays open; shutting down flushes.
                self.get_mut().inner.poll_flush(cx)
            }
        }

        crate::sys::impl_as_stdio!($ty => $std);
    )*};
}

impl_output!(Stdout => stdout, Stderr => stderr);
crate::sys::impl_as_stdio!(Stdin => stdin);
