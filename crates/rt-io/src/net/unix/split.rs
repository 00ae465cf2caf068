//! Borrowed halves of a `UnixStream`, for reading and writing from two
//! futures of one task at once.

use super::stream::UnixStream;
use super::SocketAddr;
use crate::net::stream_io::{PollRead, PollWrite};
use crate::reactor::{Interest, Ready};
use std::io;
use std::task::{Context, Poll};

/// The read half of [`UnixStream::split`].
#[derive(Debug)]
pub struct ReadHalf<'a>(&'a UnixStream);

/// The write half of [`UnixStream::split`]. Shutting it down shuts the
/// stream's write direction down.
#[derive(Debug)]
pub struct WriteHalf<'a>(&'a UnixStream);

pub(crate) fn split(stream: &mut UnixStream) -> (ReadHalf<'_>, WriteHalf<'_>) {
    (ReadHalf(stream), WriteHalf(stream))
}

impl ReadHalf<'_> {
    /// Waits for `interest`; see [`UnixStream::ready`].
    pub async fn ready(&self, interest: Interest) -> io::Result<Ready> {
        self.0.ready(interest).await
    }

    /// Waits until readable; see [`UnixStream::readable`].
    pub async fn readable(&self) -> io::Result<()> {
        self.0.readable().await
    }

    /// See [`UnixStream::try_read`].
    pub fn try_read(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.try_read(buf)
    }

    /// See [`UnixStream::try_read_vectored`].
    pub fn try_read_vectored(&self, bufs: &mut [io::IoSliceMut<'_>]) -> io::Result<usize> {
        self.0.try_read_vectored(bufs)
    }

    /// The remote address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.0.peer_addr()
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.0.local_addr()
    }
}

impl WriteHalf<'_> {
    /// Waits for `interest`; see [`UnixStream::ready`].
    pub async fn ready(&self, interest: Interest) -> io::Result<Ready> {
        self.0.ready(interest).await
    }

    /// Waits until writable; see [`UnixStream::writable`].
    pub async fn writable(&self) -> io::Result<()> {
        self.0.writable().await
    }

    /// See [`UnixStream::try_write`].
    pub fn try_write(&self, buf: &[u8]) -> io::Result<usize> {
        self.0.try_write(buf)
    }

    /// See [`UnixStream::try_write_vectored`].
    pub fn try_write_vectored(&self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.0.try_write_vectored(bufs)
    }

    /// The remote address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.0.peer_addr()
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.0.local_addr()
    }
}

impl PollRead for ReadHalf<'_> {
    fn poll_read_bytes(&self, cx: &mut Context<'_>, buf: &mut [u8]) -> Poll<io::Result<usize>> {
        self.0.poll_read(cx, buf)
    }
}

impl PollWrite for WriteHalf<'_> {
    fn poll_write_bytes(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.0.poll_write(cx, buf)
    }

    fn poll_shutdown_write(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.0.poll_shutdown(cx)
    }
}

impl AsRef<UnixStream> for ReadHalf<'_> {
    fn as_ref(&self) -> &UnixStream {
        self.0
    }
}

impl AsRef<UnixStream> for WriteHalf<'_> {
    fn as_ref(&self) -> &UnixStream {
        self.0
    }
}
