//! `UnixStream`: a connected Unix domain stream socket.

use super::split::{split, ReadHalf, WriteHalf};
use super::split_owned::{split_owned, OwnedReadHalf, OwnedWriteHalf};
use super::SocketAddr;
use crate::net::stream_io::{PollRead, PollWrite};
use crate::reactor::{Interest, PollEvented, Ready};
use std::future::poll_fn;
use std::io::{self, Read, Write};
use std::net::Shutdown;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, IntoRawFd, RawFd};
use std::path::Path;
use std::task::{Context, Poll};

/// A Unix domain stream socket.
///
/// ```
/// use rt_io::net::UnixStream;
/// # rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build().unwrap().block_on(async {
/// let (a, b) = UnixStream::pair()?;
/// a.writable().await?;
/// a.try_write(b"ping")?;
/// b.readable().await?;
/// let mut buf = [0; 4];
/// assert_eq!(b.try_read(&mut buf)?, 4);
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct UnixStream {
    io: PollEvented<mio::net::UnixStream>,
}

impl UnixStream {
    /// Connects to the socket bound at `path`.
    pub async fn connect<P: AsRef<Path>>(path: P) -> io::Result<UnixStream> {
        let stream = UnixStream::new(mio::net::UnixStream::connect(path)?)?;
        poll_fn(|cx| stream.io.registration().poll_write_ready(cx)).await?;
        if let Some(e) = stream.io.take_error()? {
            return Err(e);
        }
        Ok(stream)
    }

    /// A pair of connected sockets.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn pair() -> io::Result<(UnixStream, UnixStream)> {
        let (a, b) = mio::net::UnixStream::pair()?;
        Ok((UnixStream::new(a)?, UnixStream::new(b)?))
    }

    pub(crate) fn new(sys: mio::net::UnixStream) -> io::Result<UnixStream> {
        Ok(UnixStream {
            io: PollEvented::new(sys)?,
        })
    }

    /// Wraps a connected standard socket, switching it to non-blocking
    /// mode.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn from_std(stream: std::os::unix::net::UnixStream) -> io::Result<UnixStream> {
        stream.set_nonblocking(true)?;
        UnixStream::new(mio::net::UnixStream::from_std(stream))
    }

    /// Deregisters the socket and returns it as a standard socket, still in
    /// non-blocking mode.
    pub fn into_std(self) -> io::Result<std::os::unix::net::UnixStream> {
        let fd = self.io.into_inner()?.into_raw_fd();
        // SAFETY: `fd` was just released by the mio socket that owned it.
        Ok(unsafe { std::os::unix::net::UnixStream::from_raw_fd(fd) })
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.io.local_addr()
    }

    /// The peer's address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.io.peer_addr()
    }

    /// Takes the pending socket error, if any.
    pub fn take_error(&self) -> io::Result<Option<io::Error>> {
        self.io.take_error()
    }

    /// Waits until the socket is ready for `interest`.
    pub async fn ready(&self, interest: Interest) -> io::Result<Ready> {
        Ok(self.io.registration().readiness(interest).await?.ready)
    }

    /// Waits until the socket may be readable.
    pub async fn readable(&self) -> io::Result<()> {
        self.ready(Interest::READABLE).await.map(drop)
    }

    /// Waits until the socket may be writable.
    pub async fn writable(&self) -> io::Result<()> {
        self.ready(Interest::WRITABLE).await.map(drop)
    }

    /// Polls for read readiness.
    pub fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.io.registration().poll_read_ready(cx).map_ok(drop)
    }

    /// Polls for write readiness.
    pub fn poll_write_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.io.registration().poll_write_ready(cx).map_ok(drop)
    }

    /// Reads without waiting: `WouldBlock` if no data is ready.
    pub fn try_read(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.io
            .registration()
            .try_io(Interest::READABLE, || (&*self.io).read(buf))
    }

    /// Vectored [`try_read`](Self::try_read).
    pub fn try_read_vectored(&self, bufs: &mut [io::IoSliceMut<'_>]) -> io::Result<usize> {
        self.io
            .registration()
            .try_io(Interest::READABLE, || (&*self.io).read_vectored(bufs))
    }

    /// Writes without waiting: `WouldBlock` if the buffer is full.
    pub fn try_write(&self, buf: &[u8]) -> io::Result<usize> {
        self.io
            .registration()
            .try_io(Interest::WRITABLE, || (&*self.io).write(buf))
    }

    /// Vectored [`try_write`](Self::try_write).
    pub fn try_write_vectored(&self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.io
            .registration()
            .try_io(Interest::WRITABLE, || (&*self.io).write_vectored(bufs))
    }

    /// Runs a custom non-blocking operation if the socket looks ready for
    /// `interest`, clearing the readiness if it returns `WouldBlock`.
    pub fn try_io<R>(
        &self,
        interest: Interest,
        f: impl FnOnce() -> io::Result<R>,
    ) -> io::Result<R> {
        self.io.registration().try_io(interest, f)
    }

    /// Waits for `interest` and runs `f`, again after each `WouldBlock`.
    pub async fn async_io<R>(
        &self,
        interest: Interest,
        f: impl FnMut() -> io::Result<R>,
    ) -> io::Result<R> {
        self.io.registration().async_io(interest, f).await
    }

    /// Splits into a read half and a write half borrowing the stream.
    pub fn split(&mut self) -> (ReadHalf<'_>, WriteHalf<'_>) {
        split(self)
    }

    /// Splits into owned halves for two tasks; see
    /// [`OwnedReadHalf::reunite`].
    pub fn into_split(self) -> (OwnedReadHalf, OwnedWriteHalf) {
        split_owned(self)
    }

    /// The hook for `AsyncRead::poll_read`.
    pub(crate) fn poll_read(
        &self,
        cx: &mut Context<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        self.io.poll_read(cx, buf)
    }

    /// The hook for `AsyncWrite::poll_write`.
    pub(crate) fn poll_write(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.io.poll_write(cx, buf)
    }

    /// The hook for `AsyncWrite::poll_write_vectored`.
    #[allow(dead_code)]
    pub(crate) fn poll_write_vectored(
        &self,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.io.poll_write_vectored(cx, bufs)
    }

    /// The hook for `AsyncWrite::poll_shutdown`.
    pub(crate) fn poll_shutdown(&self, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(self.shutdown_std(Shutdown::Write))
    }

    pub(crate) fn shutdown_std(&self, how: Shutdown) -> io::Result<()> {
        match self.io.shutdown(how) {
            Err(e) if e.kind() == io::ErrorKind::NotConnected => Ok(()),
            other => other,
        }
    }
}

impl PollRead for UnixStream {
    fn poll_read_bytes(&self, cx: &mut Context<'_>, buf: &mut [u8]) -> Poll<io::Result<usize>> {
        self.poll_read(cx, buf)
    }
}

impl PollWrite for UnixStream {
    fn poll_write_bytes(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.poll_write(cx, buf)
    }

    fn poll_shutdown_write(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.poll_shutdown(cx)
    }
}

impl AsRawFd for UnixStream {
    fn as_raw_fd(&self) -> RawFd {
        self.io.as_raw_fd()
    }
}

impl AsFd for UnixStream {
    fn as_fd(&self) -> BorrowedFd<'_> {
        // SAFETY: the fd is owned by `self.io` and stays open while `self`
        // is borrowed.
        unsafe { BorrowedFd::borrow_raw(self.as_raw_fd()) }
    }
}
