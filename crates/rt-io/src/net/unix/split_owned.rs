//! Owned halves of a `UnixStream` sharing it through an `Arc`, so that a
//! reader task and a writer task can each hold one.

use super::stream::UnixStream;
use super::SocketAddr;
use crate::net::stream_io::{PollRead, PollWrite};
use crate::reactor::{Interest, Ready};
use std::error::Error;
use std::fmt;
use std::io;
use std::net::Shutdown;
use std::sync::Arc;
use std::task::{Context, Poll};

/// The read half of [`UnixStream::into_split`].
#[derive(Debug)]
pub struct OwnedReadHalf {
    inner: Arc<UnixStream>,
}

/// The write half of [`UnixStream::into_split`]. Dropping it shuts the
/// write direction down unless [`forget`](Self::forget) was called.
#[derive(Debug)]
pub struct OwnedWriteHalf {
    inner: Arc<UnixStream>,
    shutdown_on_drop: bool,
}

/// The error of [`OwnedReadHalf::reunite`] with halves of two different
/// streams; it gives both halves back.
#[derive(Debug)]
pub struct ReuniteError(pub OwnedReadHalf, pub OwnedWriteHalf);

impl fmt::Display for ReuniteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("tried to reunite halves that are not from the same socket")
    }
}

impl Error for ReuniteError {}

pub(crate) fn split_owned(stream: UnixStream) -> (OwnedReadHalf, OwnedWriteHalf) {
    let inner = Arc::new(stream);
    (
        OwnedReadHalf {
            inner: inner.clone(),
        },
        OwnedWriteHalf {
            inner,
            shutdown_on_drop: true,
        },
    )
}

pub(crate) fn reunite(
    read: OwnedReadHalf,
    mut write: OwnedWriteHalf,
) -> Result<UnixStream, ReuniteError> {
    if !Arc::ptr_eq(&read.inner, &write.inner) {
        return Err(ReuniteError(read, write));
    }
    write.shutdown_on_drop = false;
    let inner = write.inner.clone();
    drop(read);
    drop(write);
    Ok(Arc::try_unwrap(inner).expect("both halves were just dropped"))
}

impl OwnedReadHalf {
    /// Joins the halves back into the stream; fails if they come from
    /// different streams.
    pub fn reunite(self, other: OwnedWriteHalf) -> Result<UnixStream, ReuniteError> {
        reunite(self, other)
    }

    /// Waits for `interest`; see [`UnixStream::ready`].
    pub async fn ready(&self, interest: Interest) -> io::Result<Ready> {
        self.inner.ready(interest).await
    }

    /// Waits until readable; see [`UnixStream::readable`].
    pub async fn readable(&self) -> io::Result<()> {
        self.inner.readable().await
    }

    /// See [`UnixStream::try_read`].
    pub fn try_read(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.try_read(buf)
    }

    /// See [`UnixStream::try_read_vectored`].
    pub fn try_read_vectored(&self, bufs: &mut [io::IoSliceMut<'_>]) -> io::Result<usize> {
        self.inner.try_read_vectored(bufs)
    }

    /// The remote address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.inner.peer_addr()
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

impl OwnedWriteHalf {
    /// Joins the halves back into the stream; see [`OwnedReadHalf::reunite`].
    pub fn reunite(self, other: OwnedReadHalf) -> Result<UnixStream, ReuniteError> {
        reunite(other, self)
    }

    /// Drops the half without shutting the write direction down.
    pub fn forget(mut self) {
        self.shutdown_on_drop = false;
    }

    /// Waits for `interest`; see [`UnixStream::ready`].
    pub async fn ready(&self, interest: Interest) -> io::Result<Ready> {
        self.inner.ready(interest).await
    }

    /// Waits until writable; see [`UnixStream::writable`].
    pub async fn writable(&self) -> io::Result<()> {
        self.inner.writable().await
    }

    /// See [`UnixStream::try_write`].
    pub fn try_write(&self, buf: &[u8]) -> io::Result<usize> {
        self.inner.try_write(buf)
    }

    /// See [`UnixStream::try_write_vectored`].
    pub fn try_write_vectored(&self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.inner.try_write_vectored(bufs)
    }

    /// The remote address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.inner.peer_addr()
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

impl Drop for OwnedWriteHalf {
    fn drop(&mut self) {
        if self.shutdown_on_drop {
            let _ = self.inner.shutdown_std(Shutdown::Write);
        }
    }
}

impl PollRead for OwnedReadHalf {
    fn poll_read_bytes(&self, cx: &mut Context<'_>, buf: &mut [u8]) -> Poll<io::Result<usize>> {
        self.inner.poll_read(cx, buf)
    }
}

impl PollWrite for OwnedWriteHalf {
    fn poll_write_bytes(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.inner.poll_write(cx, buf)
    }

    fn poll_shutdown_write(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.inner.poll_shutdown(cx)
    }
}

impl AsRef<UnixStream> for OwnedReadHalf {
    fn as_ref(&self) -> &UnixStream {
        &self.inner
    }
}

impl AsRef<UnixStream> for OwnedWriteHalf {
    fn as_ref(&self) -> &UnixStream {
        &self.inner
    }
}
