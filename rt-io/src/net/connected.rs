//! `StreamIo<S>`: the reactor-driven byte stream that `TcpStream` and
//! `UnixStream` are both built on, and the macro that gives each of them
//! the public methods they share.
//!
//! The two stream types differ only in how they are created and in a few
//! socket options; readiness, reads, writes and shutdown are the same code
//! over a different mio source, so that code lives here once.

use crate::net::socket_io::{SocketIo, SocketSource};
use crate::reactor::Interest;
use std::future::poll_fn;
use std::io::{self, Read, Write};
use std::mem::MaybeUninit;
use std::net::Shutdown;
use std::task::{Context, Poll};

/// A mio stream source: what `StreamIo` needs beyond reading and writing.
pub(crate) trait StreamSource: SocketSource {
    /// Shuts one or both directions down.
    fn shutdown(&self, how: Shutdown) -> io::Result<()>;
}

impl StreamSource for mio::net::TcpStream {
    fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        mio::net::TcpStream::shutdown(self, how)
    }
}

#[cfg(unix)]
impl StreamSource for mio::net::UnixStream {
    fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        mio::net::UnixStream::shutdown(self, how)
    }
}

/// A connected stream socket registered with the reactor.
pub(crate) type StreamIo<S> = SocketIo<S>;

impl<S: StreamSource> SocketIo<S>
where
    for<'a> &'a S: Read + Write,
{
    /// Registers `sys`, whose non-blocking connect is in flight, and waits
    /// for the connect to finish.
    pub(crate) async fn connect(sys: S) -> io::Result<Self> {
        let stream = SocketIo::new(sys)?;
        poll_fn(|cx| stream.io.registration().poll_write_ready(cx)).await?;
        if let Some(e) = stream.io.take_error()? {
            return Err(e);
        }
        Ok(stream)
    }

    pub(crate) fn try_read(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.try_io(Interest::READABLE, || (&*self.io).read(buf))
    }

    pub(crate) fn try_read_vectored(&self, bufs: &mut [io::IoSliceMut<'_>]) -> io::Result<usize> {
        self.try_io(Interest::READABLE, || (&*self.io).read_vectored(bufs))
    }

    pub(crate) fn try_read_buf<B: bytes::BufMut>(&self, buf: &mut B) -> io::Result<usize> {
        self.try_io(Interest::READABLE, || {
            crate::net::fill::fill_buf_mut(buf, |b| (&*self.io).read(b).map(|n| (n, n)))
        })
    }

    pub(crate) fn try_write(&self, buf: &[u8]) -> io::Result<usize> {
        self.try_io(Interest::WRITABLE, || (&*self.io).write(buf))
    }

    pub(crate) fn try_write_vectored(&self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.try_io(Interest::WRITABLE, || (&*self.io).write_vectored(bufs))
    }

    #[inline]
    pub(crate) fn poll_read(
        &self,
        cx: &mut Context<'_>,
        buf: &mut [MaybeUninit<u8>],
    ) -> Poll<io::Result<usize>> {
        self.io.poll_recv_uninit(cx, buf)
    }

    #[inline]
    pub(crate) fn poll_write(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.io.poll_write(cx, buf)
    }

    pub(crate) fn poll_write_vectored(
        &self,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.io.poll_write_vectored(cx, bufs)
    }

    /// Shuts `how` down; a stream the peer already disconnected counts as
    /// shut.
    pub(crate) fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        match self.io.shutdown(how) {
            Err(e) if e.kind() == io::ErrorKind::NotConnected => Ok(()),
            other => other,
        }
    }
}

/// The public methods `TcpStream` and `UnixStream` share, each a thin call
/// into the type's `io: StreamIo<_>` field, together with the poll hooks,
/// the split constructors, the readiness methods of every socket and the
/// descriptor traits.
macro_rules! stream_api {
    ($stream:ident) => {
        impl $stream {
            /// Polls for read readiness. Only the last task to call this
            /// (or `poll_read`) is woken.
            pub fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                self.io.poll_read_ready(cx)
            }

            /// Polls for write readiness. Only the last task to call this
            /// (or `poll_write`) is woken.
            pub fn poll_write_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                self.io.poll_write_ready(cx)
            }

            /// Reads without waiting: `WouldBlock` if no data is ready.
            pub fn try_read(&self, buf: &mut [u8]) -> io::Result<usize> {
                self.io.try_read(buf)
            }

            /// Vectored [`try_read`](Self::try_read).
            pub fn try_read_vectored(&self, bufs: &mut [io::IoSliceMut<'_>]) -> io::Result<usize> {
                self.io.try_read_vectored(bufs)
            }

            /// Reads without waiting into the spare room of `buf`, which
            /// advances by the count read: `WouldBlock` if no data is ready.
            pub fn try_read_buf<B: bytes::BufMut>(&self, buf: &mut B) -> io::Result<usize> {
                self.io.try_read_buf(buf)
            }

            /// Writes without waiting: `WouldBlock` if the send buffer is
            /// full.
            pub fn try_write(&self, buf: &[u8]) -> io::Result<usize> {
                self.io.try_write(buf)
            }

            /// Vectored [`try_write`](Self::try_write).
            pub fn try_write_vectored(&self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
                self.io.try_write_vectored(bufs)
            }

            /// Splits into a read half and a write half borrowing the
            /// stream.
            pub fn split(&mut self) -> (ReadHalf<'_>, WriteHalf<'_>) {
                split(self)
            }

            /// Splits into owned halves that can move to different tasks;
            /// [`OwnedReadHalf::reunite`] puts them back together.
            pub fn into_split(self) -> (OwnedReadHalf, OwnedWriteHalf) {
                split_owned(self)
            }

            /// The hook for `AsyncRead::poll_read`: reads into `buf`,
            /// initialised or not.
            #[inline]
            pub(crate) fn poll_read(
                &self,
                cx: &mut Context<'_>,
                buf: &mut [std::mem::MaybeUninit<u8>],
            ) -> Poll<io::Result<usize>> {
                self.io.poll_read(cx, buf)
            }

            /// The hook for `AsyncWrite::poll_write`.
            #[inline]
            pub(crate) fn poll_write(
                &self,
                cx: &mut Context<'_>,
                buf: &[u8],
            ) -> Poll<io::Result<usize>> {
                self.io.poll_write(cx, buf)
            }

            /// The hook for `AsyncWrite::poll_write_vectored`.
            pub(crate) fn poll_write_vectored(
                &self,
                cx: &mut Context<'_>,
                bufs: &[io::IoSlice<'_>],
            ) -> Poll<io::Result<usize>> {
                self.io.poll_write_vectored(cx, bufs)
            }

            /// The hook for `AsyncWrite::poll_shutdown`: shuts the write
            /// direction down, so the peer reads end of stream.
            pub(crate) fn poll_shutdown(&self, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                Poll::Ready(self.shutdown_std(std::net::Shutdown::Write))
            }

            pub(crate) fn shutdown_std(&self, how: std::net::Shutdown) -> io::Result<()> {
                self.io.shutdown(how)
            }
        }

        impl crate::net::stream_io::PollRead for $stream {
            #[inline]
            fn poll_read_uninit(
                &self,
                cx: &mut Context<'_>,
                buf: &mut [std::mem::MaybeUninit<u8>],
            ) -> Poll<io::Result<usize>> {
                self.poll_read(cx, buf)
            }
        }

        impl crate::net::stream_io::PollWrite for $stream {
            #[inline]
            fn poll_write_bytes(
                &self,
                cx: &mut Context<'_>,
                buf: &[u8],
            ) -> Poll<io::Result<usize>> {
                self.poll_write(cx, buf)
            }

            fn poll_shutdown_write(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                self.poll_shutdown(cx)
            }
        }

        crate::net::socket_io::readiness_api!($stream, "stream");
        crate::sys::impl_as_socket!(io: $stream);
    };
}

pub(crate) use stream_api;
