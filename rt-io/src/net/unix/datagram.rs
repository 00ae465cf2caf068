//! `UnixDatagram`: a Unix domain datagram socket.

use super::SocketAddr;
use crate::io::ReadBuf;
use crate::net::fill::{fill_buf_mut, poll_fill};
use crate::reactor::{Direction, Interest, PollEvented, Ready};
use bytes::BufMut;
use std::io;
use std::net::Shutdown;
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd};
use std::path::Path;
use std::task::{Context, Poll};

/// A Unix domain datagram socket.
///
/// ```
/// use rt_io::net::UnixDatagram;
/// # rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build().unwrap().block_on(async {
/// let (a, b) = UnixDatagram::pair()?;
/// a.send(b"one").await?;
/// let mut buf = [0; 8];
/// assert_eq!(b.recv(&mut buf).await?, 3);
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct UnixDatagram {
    io: PollEvented<mio::net::UnixDatagram>,
}

impl UnixDatagram {
    /// Binds to `path`, which must not exist yet.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn bind<P: AsRef<Path>>(path: P) -> io::Result<UnixDatagram> {
        UnixDatagram::new(mio::net::UnixDatagram::bind(path)?)
    }

    /// A socket bound to no address.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn unbound() -> io::Result<UnixDatagram> {
        UnixDatagram::new(mio::net::UnixDatagram::unbound()?)
    }

    /// A pair of connected, unnamed sockets.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn pair() -> io::Result<(UnixDatagram, UnixDatagram)> {
        let (a, b) = mio::net::UnixDatagram::pair()?;
        Ok((UnixDatagram::new(a)?, UnixDatagram::new(b)?))
    }

    fn new(sys: mio::net::UnixDatagram) -> io::Result<UnixDatagram> {
        Ok(UnixDatagram {
            io: PollEvented::new(sys)?,
        })
    }

    /// Wraps a standard socket, switching it to non-blocking mode.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn from_std(socket: std::os::unix::net::UnixDatagram) -> io::Result<UnixDatagram> {
        socket.set_nonblocking(true)?;
        UnixDatagram::new(mio::net::UnixDatagram::from_std(socket))
    }

    /// Deregisters the socket and returns it as a standard socket, still in
    /// non-blocking mode.
    pub fn into_std(self) -> io::Result<std::os::unix::net::UnixDatagram> {
        let fd = self.io.into_inner()?.into_raw_fd();
        // SAFETY: `fd` was just released by the mio socket that owned it.
        Ok(unsafe { std::os::unix::net::UnixDatagram::from_raw_fd(fd) })
    }

    /// Connects to the socket bound at `path`.
    pub fn connect<P: AsRef<Path>>(&self, path: P) -> io::Result<()> {
        self.io.connect(path)
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.io.local_addr()
    }

    /// The connected peer's address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.io.peer_addr()
    }

    /// Takes the pending socket error, if any.
    pub fn take_error(&self) -> io::Result<Option<io::Error>> {
        self.io.take_error()
    }

    /// Shuts down one or both directions.
    pub fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        self.io.shutdown(how)
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
    pub fn poll_recv_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.io.registration().poll_read_ready(cx).map_ok(drop)
    }

    /// Polls for write readiness.
    pub fn poll_send_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.io.registration().poll_write_ready(cx).map_ok(drop)
    }

    /// Sends to the connected peer.
    pub async fn send(&self, buf: &[u8]) -> io::Result<usize> {
        self.io
            .registration()
            .async_io(Interest::WRITABLE, || self.io.send(buf))
            .await
    }

    /// Sends without waiting.
    pub fn try_send(&self, buf: &[u8]) -> io::Result<usize> {
        self.io
            .registration()
            .try_io(Interest::WRITABLE, || self.io.send(buf))
    }

    /// Polls a [`send`](Self::send).
    pub fn poll_send(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.io
            .registration()
            .poll_io(cx, Direction::Write, || self.io.send(buf))
    }

    /// Receives one datagram from the connected peer.
    pub async fn recv(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.io
            .registration()
            .async_io(Interest::READABLE, || self.io.recv(buf))
            .await
    }

    /// Receives without waiting.
    pub fn try_recv(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.io
            .registration()
            .try_io(Interest::READABLE, || self.io.recv(buf))
    }

    /// Receives one datagram from the connected peer into the spare room
    /// of `buf`, which advances by the datagram's length.
    pub async fn recv_buf<B: BufMut>(&self, buf: &mut B) -> io::Result<usize> {
        self.io
            .registration()
            .async_io(Interest::READABLE, || {
                fill_buf_mut(buf, |b| self.io.recv(b).map(|n| (n, n)))
            })
            .await
    }

    /// [`recv_buf`](Self::recv_buf) without waiting.
    pub fn try_recv_buf<B: BufMut>(&self, buf: &mut B) -> io::Result<usize> {
        self.io.registration().try_io(Interest::READABLE, || {
            fill_buf_mut(buf, |b| self.io.recv(b).map(|n| (n, n)))
        })
    }

    /// Receives one datagram into the spare room of `buf` and returns its
    /// length and sender.
    pub async fn recv_buf_from<B: BufMut>(&self, buf: &mut B) -> io::Result<(usize, SocketAddr)> {
        self.io
            .registration()
            .async_io(Interest::READABLE, || {
                fill_buf_mut(buf, |b| {
                    self.io.recv_from(b).map(|(n, from)| (n, (n, from)))
                })
            })
            .await
    }

    /// [`recv_buf_from`](Self::recv_buf_from) without waiting.
    pub fn try_recv_buf_from<B: BufMut>(&self, buf: &mut B) -> io::Result<(usize, SocketAddr)> {
        self.io.registration().try_io(Interest::READABLE, || {
            fill_buf_mut(buf, |b| {
                self.io.recv_from(b).map(|(n, from)| (n, (n, from)))
            })
        })
    }

    /// Polls a [`recv`](Self::recv) into the unfilled part of `buf`, which
    /// advances by the datagram's length. Only the last task to poll a
    /// receive is woken.
    pub fn poll_recv(&self, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        poll_fill(buf, |b| {
            self.io
                .registration()
                .poll_io(cx, Direction::Read, || self.io.recv(b).map(|n| (n, ())))
        })
    }

    /// Polls a [`recv_from`](Self::recv_from) into the unfilled part of
    /// `buf`; returns the sender's address.
    pub fn poll_recv_from(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<SocketAddr>> {
        poll_fill(buf, |b| {
            self.io
                .registration()
                .poll_io(cx, Direction::Read, || self.io.recv_from(b))
        })
    }

    /// Polls a send of `buf` to the socket bound at `target`.
    pub fn poll_send_to<P: AsRef<Path>>(
        &self,
        cx: &mut Context<'_>,
        buf: &[u8],
        target: P,
    ) -> Poll<io::Result<usize>> {
        let target = target.as_ref();
        self.io
            .registration()
            .poll_io(cx, Direction::Write, || self.io.send_to(buf, target))
    }

    /// Sends to the socket bound at `target`.
    pub async fn send_to<P: AsRef<Path>>(&self, buf: &[u8], target: P) -> io::Result<usize> {
        let target = target.as_ref();
        self.io
            .registration()
            .async_io(Interest::WRITABLE, || self.io.send_to(buf, target))
            .await
    }

    /// Sends to `target` without waiting.
    pub fn try_send_to<P: AsRef<Path>>(&self, buf: &[u8], target: P) -> io::Result<usize> {
        self.io
            .registration()
            .try_io(Interest::WRITABLE, || self.io.send_to(buf, target))
    }

    /// Receives one datagram and its sender's address.
    pub async fn recv_from(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        self.io
            .registration()
            .async_io(Interest::READABLE, || self.io.recv_from(buf))
            .await
    }

    /// Receives one datagram and its sender without waiting.
    pub fn try_recv_from(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        self.io
            .registration()
            .try_io(Interest::READABLE, || self.io.recv_from(buf))
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
}

crate::net::fd::impl_as_fd!(UnixDatagram);
