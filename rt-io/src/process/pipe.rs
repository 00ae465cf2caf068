//! [`ChildStdin`], [`ChildStdout`], [`ChildStderr`]: a child's piped
//! standard streams, non-blocking and driven by the reactor.
//!
//! Each end is a mio pipe registered for the one direction it is used in.
//! Turning an end back into an `OwnedFd` or a `Stdio` deregisters it and
//! restores blocking mode, which is what a program handed that descriptor
//! (another child, for instance) expects.

use crate::io::{AsyncRead, AsyncWrite, ReadBuf};
use crate::reactor::{Direction, Interest, PollEvented};
use mio::unix::pipe::{Receiver, Sender};
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::pin::Pin;
use std::process::Stdio;
use std::task::{ready, Context, Poll};

/// The write end of a pipe, registered for writability.
#[derive(Debug)]
struct WritePipe {
    io: PollEvented<Sender>,
}

/// The read end of a pipe, registered for readability.
#[derive(Debug)]
struct ReadPipe {
    io: PollEvented<Receiver>,
}

impl WritePipe {
    #[track_caller]
    fn new(sender: Sender) -> io::Result<WritePipe> {
        sender.set_nonblocking(true)?;
        Ok(WritePipe {
            io: PollEvented::new_with_interest(sender, Interest::WRITABLE)?,
        })
    }

    fn poll_write(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.io
            .registration()
            .poll_io(cx, Direction::Write, || (&*self.io).write(buf))
    }

    fn poll_write_vectored(
        &self,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.io
            .registration()
            .poll_io(cx, Direction::Write, || (&*self.io).write_vectored(bufs))
    }

    fn into_owned_fd(self) -> io::Result<OwnedFd> {
        let sender = self.io.into_inner()?;
        sender.set_nonblocking(false)?;
        Ok(sender.into())
    }
}

impl ReadPipe {
    #[track_caller]
    fn new(receiver: Receiver) -> io::Result<ReadPipe> {
        receiver.set_nonblocking(true)?;
        Ok(ReadPipe {
            io: PollEvented::new_with_interest(receiver, Interest::READABLE)?,
        })
    }

    fn poll_read(&self, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        if buf.remaining() == 0 {
            return Poll::Ready(Ok(()));
        }
        let unfilled = buf.initialize_unfilled();
        let n = ready!(self
            .io
            .registration()
            .poll_io(cx, Direction::Read, || (&*self.io).read(unfilled)))?;
        buf.advance(n);
        Poll::Ready(Ok(()))
    }

    fn into_owned_fd(self) -> io::Result<OwnedFd> {
        let receiver = self.io.into_inner()?;
        receiver.set_nonblocking(false)?;
        Ok(receiver.into())
    }
}

/// The child's standard input, when it was set to [`Stdio::piped`]; see
/// [`Child::stdin`](super::Child::stdin).
///
/// Writes wait for room in the pipe without blocking the thread. The child
/// reads end of file once this handle is dropped (as tokio's, `shutdown`
/// does not close the pipe; [`Child::wait`](super::Child::wait) drops the
/// handle for you).
#[derive(Debug)]
pub struct ChildStdin {
    pipe: WritePipe,
}

/// The child's standard output, when it was set to [`Stdio::piped`]; see
/// [`Child::stdout`](super::Child::stdout).
#[derive(Debug)]
pub struct ChildStdout {
    pipe: ReadPipe,
}

/// The child's standard error, when it was set to [`Stdio::piped`]; see
/// [`Child::stderr`](super::Child::stderr).
#[derive(Debug)]
pub struct ChildStderr {
    pipe: ReadPipe,
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
            pipe: WritePipe::new(Sender::from(inner))?,
        })
    }

    /// Deregisters the pipe and returns its descriptor, in blocking mode.
    pub fn into_owned_fd(self) -> io::Result<OwnedFd> {
        self.pipe.into_owned_fd()
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
            pipe: ReadPipe::new(Receiver::from(inner))?,
        })
    }

    /// Deregisters the pipe and returns its descriptor, in blocking mode.
    pub fn into_owned_fd(self) -> io::Result<OwnedFd> {
        self.pipe.into_owned_fd()
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
            pipe: ReadPipe::new(Receiver::from(inner))?,
        })
    }

    /// Deregisters the pipe and returns its descriptor, in blocking mode.
    pub fn into_owned_fd(self) -> io::Result<OwnedFd> {
        self.pipe.into_owned_fd()
    }
}

impl AsyncWrite for ChildStdin {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.pipe.poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.pipe.poll_write_vectored(cx, bufs)
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
        self.pipe.poll_read(cx, buf)
    }
}

impl AsyncRead for ChildStderr {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.pipe.poll_read(cx, buf)
    }
}

/// Descriptor access and conversion to `Stdio` (to feed another child),
/// alike for the three types.
macro_rules! impl_fd_traits {
    ($($ty:ty),*) => {$(
        impl AsRawFd for $ty {
            fn as_raw_fd(&self) -> RawFd {
                self.pipe.io.as_raw_fd()
            }
        }

        impl AsFd for $ty {
            fn as_fd(&self) -> BorrowedFd<'_> {
                // SAFETY: the descriptor is owned by `self.pipe` and stays
                // open while `self` is borrowed.
                unsafe { BorrowedFd::borrow_raw(self.as_raw_fd()) }
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
