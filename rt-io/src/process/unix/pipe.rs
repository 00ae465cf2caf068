//! [`ChildStdin`], [`ChildStdout`], [`ChildStderr`]: a child's piped
//! standard streams, non-blocking and driven by the reactor.
//!
//! Each end is a [`net::unix::pipe`](crate::net::unix::pipe) end,
//! registered for the one direction it is used in.
//! Turning an end back into an `OwnedFd` or a `Stdio` deregisters it and
//! restores blocking mode, which is what a program handed that descriptor
//! (another child, for instance) expects.

use crate::io::{AsyncRead, AsyncWrite, ReadBuf};
use crate::net::unix::pipe::{Receiver, Sender};
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::pin::Pin;
use std::process::Stdio;
use std::task::{Context, Poll};

/// Switches a std pipe end to non-blocking mode and hands its descriptor
/// over.
fn nonblocking(fd: impl Into<OwnedFd>) -> io::Result<OwnedFd> {
    let fd = fd.into();
    // Through a mio end, which owns the descriptor for the call only.
    let end = mio::unix::pipe::Sender::from(fd);
    end.set_nonblocking(true)?;
    Ok(end.into())
}

/// The child's standard input, when it was set to [`Stdio::piped`]; see
/// [`Child::stdin`](crate::process::Child::stdin).
///
/// Writes wait for room in the pipe without blocking the thread. The child
/// reads end of file once this handle is dropped (as tokio's, `shutdown`
/// does not close the pipe; [`Child::wait`](crate::process::Child::wait) drops the
/// handle for you).
#[derive(Debug)]
pub struct ChildStdin {
    pipe: Sender,
}

/// The child's standard output, when it was set to [`Stdio::piped`]; see
/// [`Child::stdout`](crate::process::Child::stdout).
#[derive(Debug)]
pub struct ChildStdout {
    pipe: Receiver,
}

/// The child's standard error, when it was set to [`Stdio::piped`]; see
/// [`Child::stderr`](crate::process::Child::stderr).
#[derive(Debug)]
pub struct ChildStderr {
    pipe: Receiver,
}

impl ChildStdin {
    /// Wraps a standard `ChildStdin`, switching it to non-blocking mode and
    /// registering it with the current runtime's reactor.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn from_std(inner: std::process::ChildStdin) -> io::Result<ChildStdin> {
        Ok(ChildStdin {
            pipe: Sender::from_owned_fd_unchecked(nonblocking(inner)?)?,
        })
    }

    /// Deregisters the pipe and returns its descriptor, in blocking mode.
    pub fn into_owned_fd(self) -> io::Result<OwnedFd> {
        self.pipe.into_blocking_fd()
    }
}

impl ChildStdout {
    /// Wraps a standard `ChildStdout`, switching it to non-blocking mode and
    /// registering it with the current runtime's reactor.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn from_std(inner: std::process::ChildStdout) -> io::Result<ChildStdout> {
        Ok(ChildStdout {
            pipe: Receiver::from_owned_fd_unchecked(nonblocking(inner)?)?,
        })
    }

    /// Deregisters the pipe and returns its descriptor, in blocking mode.
    pub fn into_owned_fd(self) -> io::Result<OwnedFd> {
        self.pipe.into_blocking_fd()
    }
}

impl ChildStderr {
    /// Wraps a standard `ChildStderr`, switching it to non-blocking mode and
    /// registering it with the current runtime's reactor.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn from_std(inner: std::process::ChildStderr) -> io::Result<ChildStderr> {
        Ok(ChildStderr {
            pipe: Receiver::from_owned_fd_unchecked(nonblocking(inner)?)?,
        })
    }

    /// Deregisters the pipe and returns its descriptor, in blocking mode.
    pub fn into_owned_fd(self) -> io::Result<OwnedFd> {
        self.pipe.into_blocking_fd()
    }
}

impl AsyncWrite for ChildStdin {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().pipe).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().pipe).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        // Writes go straight to the kernel: nothing is buffered here.
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for ChildStdout {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().pipe).poll_read(cx, buf)
    }
}

impl AsyncRead for ChildStderr {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().pipe).poll_read(cx, buf)
    }
}

/// Descriptor access and conversion to `Stdio` (to feed another child),
/// alike for the three types.
macro_rules! impl_fd_traits {
    ($($ty:ty),*) => {$(
        impl AsRawFd for $ty {
            fn as_raw_fd(&self) -> RawFd {
                self.pipe.as_raw_fd()
            }
        }

        impl AsFd for $ty {
            fn as_fd(&self) -> BorrowedFd<'_> {
                self.pipe.as_fd()
            }
        }

        impl TryFrom<$ty> for OwnedFd {
            type Error = io::Error;

            fn try_from(pipe: $ty) -> io::Result<OwnedFd> {
                pipe.into_owned_fd()
            }
        }

        impl TryFrom<$ty> for Stdio {
            type Error = io::Error;

            fn try_from(pipe: $ty) -> io::Result<Stdio> {
                pipe.into_owned_fd().map(Stdio::from)
            }
        }
    )*};
}

impl_fd_traits!(ChildStdin, ChildStdout, ChildStderr);
