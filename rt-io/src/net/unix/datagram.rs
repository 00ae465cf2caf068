//! `UnixDatagram`: a Unix domain datagram socket. What it shares with
//! `UdpSocket` lives in `net/datagram.rs`; here are its constructors,
//! paths and shutdown.

use super::SocketAddr;
use crate::io::ReadBuf;
use crate::net::datagram::{datagram_api, DatagramIo};
use bytes::BufMut;
use std::io;
use std::net::Shutdown;
use std::os::fd::FromRawFd;
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
    io: DatagramIo<mio::net::UnixDatagram>,
}

impl UnixDatagram {
    /// Binds to `path`, which must not exist yet. On Linux a path starting
    /// with a NUL byte names an abstract socket instead of a file.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn bind<P: AsRef<Path>>(path: P) -> io::Result<UnixDatagram> {
        let addr = super::path::socket_addr(path.as_ref())?;
        UnixDatagram::new(mio::net::UnixDatagram::bind_addr(&addr)?)
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
        let (a, b) = (UnixDatagram::new(a)?, UnixDatagram::new(b)?);
        // Both ends can send at once; `try_send` should not wait for the
        // driver to say so.
        a.io.assume_ready(crate::reactor::Ready::WRITABLE);
        b.io.assume_ready(crate::reactor::Ready::WRITABLE);
        Ok((a, b))
    }

    #[track_caller]
    fn new(sys: mio::net::UnixDatagram) -> io::Result<UnixDatagram> {
        Ok(UnixDatagram {
            io: DatagramIo::new(sys)?,
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
        let fd = self.io.into_raw()?;
        // SAFETY: `fd` was just released by the mio socket that owned it.
        Ok(unsafe { std::os::unix::net::UnixDatagram::from_raw_fd(fd) })
    }

    /// Connects to the socket bound at `path`.
    pub fn connect<P: AsRef<Path>>(&self, path: P) -> io::Result<()> {
        self.io.source().connect(path)
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.io.source().local_addr()
    }

    /// The connected peer's address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.io.source().peer_addr()
    }

    /// Shuts down one or both directions.
    pub fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        self.io.source().shutdown(how)
    }

    /// Polls a send of `buf` to the socket bound at `target`.
    pub fn poll_send_to<P: AsRef<Path>>(
        &self,
        cx: &mut Context<'_>,
        buf: &[u8],
        target: P,
    ) -> Poll<io::Result<usize>> {
        self.io.poll_send_to(cx, buf, target.as_ref())
    }

    /// Sends to the socket bound at `target`.
    pub async fn send_to<P: AsRef<Path>>(&self, buf: &[u8], target: P) -> io::Result<usize> {
        self.io.send_to(buf, target.as_ref()).await
    }

    /// Sends to `target` without waiting.
    pub fn try_send_to<P: AsRef<Path>>(&self, buf: &[u8], target: P) -> io::Result<usize> {
        self.io.try_send_to(buf, target.as_ref())
    }
}

datagram_api!(UnixDatagram, SocketAddr);
