//! `PipeIo`: a mio named pipe registered with the reactor, and everything
//! both ends do with it the same way (readiness, the non-blocking calls,
//! the polled reads and writes); `pipe_api!` gives [`NamedPipeServer`]
//! and [`NamedPipeClient`] that surface as public methods and trait
//! implementations.
//!
//! [`NamedPipeServer`]: super::NamedPipeServer
//! [`NamedPipeClient`]: super::NamedPipeClient

use crate::io::ReadBuf;
use crate::net::fill::{fill_buf_mut, poll_fill};
use crate::reactor::{Direction, Interest, PollEvented, Ready};
use mio::windows::NamedPipe;
use std::io::{self, Read, Write};
use std::os::windows::io::{AsRawHandle, FromRawHandle, RawHandle};
use std::task::{Context, Poll};

/// One end of a named pipe, registered for reads and writes.
#[derive(Debug)]
pub(super) struct PipeIo {
    io: PollEvented<NamedPipe>,
}

impl PipeIo {
    /// Takes ownership of the pipe `handle` and registers it.
    ///
    /// # Safety
    ///
    /// `handle` must be an open named pipe handle, opened for overlapped
    /// I/O and owned by nothing else.
    #[track_caller]
    pub(super) unsafe fn from_raw_handle(handle: RawHandle) -> io::Result<PipeIo> {
        // SAFETY: the caller hands over an open overlapped pipe handle that
        // nothing else owns, which is what mio's pipe requires.
        let pipe = unsafe { NamedPipe::from_raw_handle(handle) };
        Ok(PipeIo {
            io: PollEvented::new(pipe)?,
        })
    }

    pub(super) fn pipe(&self) -> &NamedPipe {
        &self.io
    }

    pub(super) fn as_raw_handle(&self) -> RawHandle {
        self.io.as_raw_handle()
    }

    /// The error a completed overlapped connect left, if any.
    pub(crate) fn take_error(&self) -> io::Result<Option<io::Error>> {
        self.io.take_error()
    }

    pub(crate) async fn ready(&self, interest: Interest) -> io::Result<Ready> {
        Ok(self.io.registration().readiness(interest).await?.ready)
    }

    pub(crate) fn try_io<R>(
        &self,
        interest: Interest,
        f: impl FnOnce() -> io::Result<R>,
    ) -> io::Result<R> {
        self.io.registration().try_io(interest, f)
    }

    pub(crate) async fn async_io<R>(
        &self,
        interest: Interest,
        f: impl FnMut() -> io::Result<R>,
    ) -> io::Result<R> {
        self.io.registration().async_io(interest, f).await
    }

    pub(super) fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.io.registration().poll_read_ready(cx).map_ok(drop)
    }

    pub(super) fn poll_write_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.io.registration().poll_write_ready(cx).map_ok(drop)
    }

    pub(super) fn try_read(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.try_io(Interest::READABLE, || (&*self.io).read(buf))
    }

    pub(super) fn try_read_vectored(&self, bufs: &mut [io::IoSliceMut<'_>]) -> io::Result<usize> {
        self.try_io(Interest::READABLE, || (&*self.io).read_vectored(bufs))
    }

    pub(super) fn try_read_buf<B: bytes::BufMut>(&self, buf: &mut B) -> io::Result<usize> {
        self.try_io(Interest::READABLE, || {
            fill_buf_mut(buf, |b| (&*self.io).read(b).map(|n| (n, n)))
        })
    }

    pub(super) fn try_write(&self, buf: &[u8]) -> io::Result<usize> {
        self.try_io(Interest::WRITABLE, || (&*self.io).write(buf))
    }

    pub(super) fn try_write_vectored(&self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.try_io(Interest::WRITABLE, || (&*self.io).write_vectored(bufs))
    }

    /// Reads into `buf` once readable. mio copies out of the buffer its
    /// overlapped read filled, so `buf` is initialised first.
    pub(super) fn poll_read(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        poll_fill(buf, |dst| {
            self.io
                .registration()
                .poll_io(cx, Direction::Read, || (&*self.io).read(dst))
                .map_ok(|n| (n, ()))
        })
    }

    pub(super) fn poll_write(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.io.poll_write(cx, buf)
    }

    pub(super) fn poll_write_vectored(
        &self,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.io.poll_write_vectored(cx, bufs)
    }
}

/// The surface both ends share, for `$pipe`, whose `io` field is a
/// [`PipeIo`]: the readiness methods, the non-blocking reads and writes,
/// `info`, `AsyncRead`/`AsyncWrite` and the handle traits.
macro_rules! pipe_api {
    ($pipe:ident) => {
        $crate::net::socket_io::readiness_api!($pipe, "pipe");

        impl $pipe {
            /// Takes ownership of a named pipe handle and registers it
            /// with the current runtime's reactor.
            ///
            /// # Safety
            ///
            /// `handle` must be an open named pipe handle opened for
            /// overlapped I/O (`FILE_FLAG_OVERLAPPED`), owned by nothing
            /// else.
            ///
            /// # Errors
            ///
            /// Fails outside a runtime with I/O enabled, or if the
            /// registration fails.
            pub unsafe fn from_raw_handle(
                handle: std::os::windows::io::RawHandle,
            ) -> std::io::Result<Self> {
                Ok($pipe {
                    // SAFETY: the caller's contract is `PipeIo`'s.
                    io: unsafe {
                        $crate::net::windows::named_pipe::pipe_io::PipeIo::from_raw_handle(handle)
                    }?,
                })
            }

            /// The pipe's mode, end, instance limit and buffer sizes.
            pub fn info(&self) -> std::io::Result<$crate::net::windows::named_pipe::PipeInfo> {
                $crate::net::windows::named_pipe::info::pipe_info(self.io.as_raw_handle())
            }

            /// Polls for read readiness; only the last task to poll is
            /// woken.
            pub fn poll_read_ready(
                &self,
                cx: &mut std::task::Context<'_>,
            ) -> std::task::Poll<std::io::Result<()>> {
                self.io.poll_read_ready(cx)
            }

            /// Polls for write readiness; only the last task to poll is
            /// woken.
            pub fn poll_write_ready(
                &self,
                cx: &mut std::task::Context<'_>,
            ) -> std::task::Poll<std::io::Result<()>> {
                self.io.poll_write_ready(cx)
            }

            /// Reads what is available into `buf` without waiting:
            /// `WouldBlock` if nothing is, `Ok(0)` at the end of the
            /// stream or for an empty `buf`.
            pub fn try_read(&self, buf: &mut [u8]) -> std::io::Result<usize> {
                self.io.try_read(buf)
            }

            /// [`try_read`](Self::try_read) into several buffers, in order.
            pub fn try_read_vectored(
                &self,
                bufs: &mut [std::io::IoSliceMut<'_>],
            ) -> std::io::Result<usize> {
                self.io.try_read_vectored(bufs)
            }

            /// [`try_read`](Self::try_read) into the spare capacity of
            /// `buf`, advancing it by the bytes read.
            pub fn try_read_buf<B: bytes::BufMut>(&self, buf: &mut B) -> std::io::Result<usize> {
                self.io.try_read_buf(buf)
            }

            /// Writes from `buf` without waiting: `WouldBlock` while an
            /// earlier write is still in flight.
            pub fn try_write(&self, buf: &[u8]) -> std::io::Result<usize> {
                self.io.try_write(buf)
            }

            /// [`try_write`](Self::try_write) from several buffers, in
            /// order.
            pub fn try_write_vectored(
                &self,
                bufs: &[std::io::IoSlice<'_>],
            ) -> std::io::Result<usize> {
                self.io.try_write_vectored(bufs)
            }
        }

        impl $crate::io::AsyncRead for $pipe {
            fn poll_read(
                self: std::pin::Pin<&mut Self>,
                cx: &mut std::task::Context<'_>,
                buf: &mut $crate::io::ReadBuf<'_>,
            ) -> std::task::Poll<std::io::Result<()>> {
                self.io.poll_read(cx, buf)
            }
        }

        impl $crate::io::AsyncWrite for $pipe {
            fn poll_write(
                self: std::pin::Pin<&mut Self>,
                cx: &mut std::task::Context<'_>,
                buf: &[u8],
            ) -> std::task::Poll<std::io::Result<usize>> {
                self.io.poll_write(cx, buf)
            }

            fn poll_write_vectored(
                self: std::pin::Pin<&mut Self>,
                cx: &mut std::task::Context<'_>,
                bufs: &[std::io::IoSlice<'_>],
            ) -> std::task::Poll<std::io::Result<usize>> {
                self.io.poll_write_vectored(cx, bufs)
            }

            fn poll_flush(
                self: std::pin::Pin<&mut Self>,
                _cx: &mut std::task::Context<'_>,
            ) -> std::task::Poll<std::io::Result<()>> {
                // A write hands its bytes to an overlapped write at once:
                // nothing is held back to flush.
                std::task::Poll::Ready(Ok(()))
            }

            fn poll_shutdown(
                self: std::pin::Pin<&mut Self>,
                cx: &mut std::task::Context<'_>,
            ) -> std::task::Poll<std::io::Result<()>> {
                // A pipe has no half-close: the peer sees the end when the
                // handle closes. As tokio's, shutdown only flushes.
                self.poll_flush(cx)
            }
        }

        impl std::os::windows::io::AsRawHandle for $pipe {
            fn as_raw_handle(&self) -> std::os::windows::io::RawHandle {
                self.io.as_raw_handle()
            }
        }

        impl std::os::windows::io::AsHandle for $pipe {
            fn as_handle(&self) -> std::os::windows::io::BorrowedHandle<'_> {
                // SAFETY: the handle is owned by `self.io` and stays open
                // while `self` is borrowed.
                unsafe { std::os::windows::io::BorrowedHandle::borrow_raw(self.io.as_raw_handle()) }
            }
        }
    };
}

pub(super) use pipe_api;
