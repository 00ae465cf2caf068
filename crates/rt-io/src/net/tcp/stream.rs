//! `TcpStream`: a connected TCP socket driven by the reactor.

use crate::net::addr::{each_addr, ToSocketAddrs};
use crate::net::stream_io::{PollRead, PollWrite};
use crate::net::tcp::split::{split, ReadHalf, WriteHalf};
use crate::net::tcp::split_owned::{split_owned, OwnedReadHalf, OwnedWriteHalf};
use crate::reactor::{Direction, Interest, PollEvented, Ready};
use std::future::poll_fn;
use std::io::{self, Read};
use std::net::{Shutdown, SocketAddr};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, IntoRawFd, RawFd};
use std::task::{Context, Poll};
use std::time::Duration;

/// A TCP connection between a local and a remote socket.
///
/// Create one with [`connect`](TcpStream::connect) or by accepting on a
/// [`TcpListener`](crate::net::TcpListener). Reads and writes take `&self`,
/// so a stream can be shared by reference; [`split`](TcpStream::split) and
/// [`into_split`](TcpStream::into_split) give halves for two tasks.
///
/// ```
/// use rt_io::net::{TcpListener, TcpStream};
/// # rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build().unwrap().block_on(async {
/// let listener = TcpListener::bind("127.0.0.1:0").await?;
/// let client = TcpStream::connect(listener.local_addr()?).await?;
/// let (server, _) = listener.accept().await?;
/// client.writable().await?;
/// assert_eq!(client.try_write(b"hi")?, 2);
/// server.readable().await?;
/// let mut buf = [0; 2];
/// assert_eq!(server.try_read(&mut buf)?, 2);
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct TcpStream {
    io: PollEvented<mio::net::TcpStream>,
}

impl TcpStream {
    /// Connects to `addr`, trying each resolved address in order until one
    /// accepts; fails with the last address's error.
    pub async fn connect<A: ToSocketAddrs>(addr: A) -> io::Result<TcpStream> {
        each_addr(addr, TcpStream::connect_addr).await
    }

    async fn connect_addr(addr: SocketAddr) -> io::Result<TcpStream> {
        let sys = mio::net::TcpStream::connect(addr)?;
        TcpStream::connect_mio(sys).await
    }

    /// Waits for a non-blocking connect on `sys` to finish.
    pub(crate) async fn connect_mio(sys: mio::net::TcpStream) -> io::Result<TcpStream> {
        let stream = TcpStream::new(sys)?;
        poll_fn(|cx| stream.io.registration().poll_write_ready(cx)).await?;
        if let Some(e) = stream.io.take_error()? {
            return Err(e);
        }
        Ok(stream)
    }

    pub(crate) fn new(sys: mio::net::TcpStream) -> io::Result<TcpStream> {
        Ok(TcpStream {
            io: PollEvented::new(sys)?,
        })
    }

    /// Wraps a connected standard stream. The stream is switched to
    /// non-blocking mode.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn from_std(stream: std::net::TcpStream) -> io::Result<TcpStream> {
        stream.set_nonblocking(true)?;
        TcpStream::new(mio::net::TcpStream::from_std(stream))
    }

    /// Deregisters the stream and returns it as a standard stream, still in
    /// non-blocking mode.
    pub fn into_std(self) -> io::Result<std::net::TcpStream> {
        let fd = self.io.into_inner()?.into_raw_fd();
        // SAFETY: `fd` was just released by the mio stream that owned it,
        // so the new owner is its only owner.
        Ok(unsafe { std::net::TcpStream::from_raw_fd(fd) })
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.io.local_addr()
    }

    /// The remote address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.io.peer_addr()
    }

    /// Takes the socket's pending error (`SO_ERROR`), if any.
    pub fn take_error(&self) -> io::Result<Option<io::Error>> {
        self.io.take_error()
    }

    /// Whether `TCP_NODELAY` is set.
    pub fn nodelay(&self) -> io::Result<bool> {
        self.io.nodelay()
    }

    /// Sets `TCP_NODELAY`: send small writes at once instead of coalescing.
    pub fn set_nodelay(&self, nodelay: bool) -> io::Result<()> {
        self.io.set_nodelay(nodelay)
    }

    /// The `SO_LINGER` setting.
    pub fn linger(&self) -> io::Result<Option<Duration>> {
        super::socket::linger_of(self.as_fd())
    }

    /// Sets `SO_LINGER`: how long closing waits for unsent data.
    /// `Some(Duration::ZERO)` makes close reset the connection.
    pub fn set_linger(&self, dur: Option<Duration>) -> io::Result<()> {
        super::socket::set_linger_of(self.as_fd(), dur)
    }

    /// The IP time-to-live of outgoing packets.
    pub fn ttl(&self) -> io::Result<u32> {
        self.io.ttl()
    }

    /// Sets the IP time-to-live of outgoing packets.
    pub fn set_ttl(&self, ttl: u32) -> io::Result<()> {
        self.io.set_ttl(ttl)
    }

    /// Waits until the stream is ready for `interest` and returns the
    /// readiness seen.
    pub async fn ready(&self, interest: Interest) -> io::Result<Ready> {
        Ok(self.io.registration().readiness(interest).await?.ready)
    }

    /// Waits until the stream may be readable. A following `try_read` may
    /// still return `WouldBlock` (the readiness was stale).
    pub async fn readable(&self) -> io::Result<()> {
        self.ready(Interest::READABLE).await.map(drop)
    }

    /// Waits until the stream may be writable.
    pub async fn writable(&self) -> io::Result<()> {
        self.ready(Interest::WRITABLE).await.map(drop)
    }

    /// Polls for read readiness. Only the last task to call this (or
    /// `poll_read`) is woken.
    pub fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.io.registration().poll_read_ready(cx).map_ok(drop)
    }

    /// Polls for write readiness. Only the last task to call this (or
    /// `poll_write`) is woken.
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

    /// Writes without waiting: `WouldBlock` if the send buffer is full.
    pub fn try_write(&self, buf: &[u8]) -> io::Result<usize> {
        use std::io::Write;
        self.io
            .registration()
            .try_io(Interest::WRITABLE, || (&*self.io).write(buf))
    }

    /// Vectored [`try_write`](Self::try_write).
    pub fn try_write_vectored(&self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        use std::io::Write;
        self.io
            .registration()
            .try_io(Interest::WRITABLE, || (&*self.io).write_vectored(bufs))
    }

    /// Runs a custom non-blocking operation if the stream looks ready for
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

    /// Reads data without removing it from the receive queue.
    pub async fn peek(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.io
            .registration()
            .async_io(Interest::READABLE, || self.io.peek(buf))
            .await
    }

    /// Polls a [`peek`](Self::peek) into `buf`: the hook for the public
    /// `poll_peek`, which takes the `ReadBuf` of the I/O traits.
    #[allow(dead_code)]
    pub(crate) fn poll_peek(
        &self,
        cx: &mut Context<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        self.io
            .registration()
            .poll_io(cx, Direction::Read, || self.io.peek(buf))
    }

    /// Splits into a read half and a write half borrowing the stream.
    pub fn split(&mut self) -> (ReadHalf<'_>, WriteHalf<'_>) {
        split(self)
    }

    /// Splits into owned halves that can move to different tasks;
    /// [`OwnedReadHalf::reunite`] puts them back together.
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

    /// The hook for `AsyncWrite::poll_shutdown`: shuts the write direction
    /// down, so the peer reads end of stream.
    pub(crate) fn poll_shutdown(&self, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(self.shutdown_std(Shutdown::Write))
    }

    pub(crate) fn shutdown_std(&self, how: Shutdown) -> io::Result<()> {
        match self.io.shutdown(how) {
            // Already disconnected: the write side is shut either way.
            Err(e) if e.kind() == io::ErrorKind::NotConnected => Ok(()),
            other => other,
        }
    }
}

impl PollRead for TcpStream {
    fn poll_read_bytes(&self, cx: &mut Context<'_>, buf: &mut [u8]) -> Poll<io::Result<usize>> {
        self.poll_read(cx, buf)
    }
}

impl PollWrite for TcpStream {
    fn poll_write_bytes(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.poll_write(cx, buf)
    }

    fn poll_shutdown_write(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.poll_shutdown(cx)
    }
}

impl TryFrom<std::net::TcpStream> for TcpStream {
    type Error = io::Error;

    fn try_from(stream: std::net::TcpStream) -> io::Result<TcpStream> {
        TcpStream::from_std(stream)
    }
}

impl AsRawFd for TcpStream {
    fn as_raw_fd(&self) -> RawFd {
        self.io.as_raw_fd()
    }
}

impl AsFd for TcpStream {
    fn as_fd(&self) -> BorrowedFd<'_> {
        // SAFETY: the fd is owned by `self.io` and stays open while `self`
        // is borrowed.
        unsafe { BorrowedFd::borrow_raw(self.as_raw_fd()) }
    }
}
