//! `UnixStream`: a connected Unix domain stream socket.

use super::split::{split, ReadHalf, WriteHalf};
use super::split_owned::{split_owned, OwnedReadHalf, OwnedWriteHalf};
use super::SocketAddr;
use crate::net::connected::StreamIo;
use std::io;
use std::os::fd::FromRawFd;
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
    io: StreamIo<mio::net::UnixStream>,
}

impl UnixStream {
    /// Connects to the socket bound at `path` (on Linux, a path starting
    /// with a NUL byte names an abstract socket).
    pub async fn connect<P: AsRef<Path>>(path: P) -> io::Result<UnixStream> {
        let addr = super::path::socket_addr(path.as_ref())?;
        UnixStream::connect_addr(&addr).await
    }

    /// A pair of connected sockets.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn pair() -> io::Result<(UnixStream, UnixStream)> {
        let (a, b) = mio::net::UnixStream::pair()?;
        let (a, b) = (UnixStream::new(a)?, UnixStream::new(b)?);
        // A fresh pair is connected with empty buffers: writable at once.
        a.io.assume_ready(crate::reactor::Ready::WRITABLE);
        b.io.assume_ready(crate::reactor::Ready::WRITABLE);
        Ok((a, b))
    }

    /// Wraps a socket just accepted: it starts out assumed readable and
    /// writable, so that the first read or write tries the socket instead
    /// of waiting for the driver's first event (data may have arrived
    /// before the accept).
    #[track_caller]
    pub(crate) fn accepted(sys: mio::net::UnixStream) -> io::Result<UnixStream> {
        let stream = UnixStream::new(sys)?;
        stream
            .io
            .assume_ready(crate::reactor::Ready::READABLE | crate::reactor::Ready::WRITABLE);
        Ok(stream)
    }

    #[track_caller]
    pub(crate) fn new(sys: mio::net::UnixStream) -> io::Result<UnixStream> {
        Ok(UnixStream {
            io: StreamIo::new(sys)?,
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
        let fd = self.io.into_raw()?;
        // SAFETY: `fd` was just released by the mio socket that owned it.
        Ok(unsafe { std::os::unix::net::UnixStream::from_raw_fd(fd) })
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.io.source().local_addr()
    }

    /// The peer's address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.io.source().peer_addr()
    }

    /// The credentials of the process that called `connect` or `pair` at
    /// the other end.
    pub fn peer_cred(&self) -> io::Result<super::UCred> {
        super::ucred::peer_cred(std::os::fd::AsFd::as_fd(self))
    }

    /// Connects to the socket at `addr`, which may be a path or (on Linux)
    /// an abstract name.
    pub async fn connect_addr(addr: &SocketAddr) -> io::Result<UnixStream> {
        UnixStream::connecting(mio::net::UnixStream::connect_addr(addr)?).await
    }

    /// Waits until `sys`, whose non-blocking connect has started, is
    /// connected.
    pub(super) async fn connecting(sys: mio::net::UnixStream) -> io::Result<UnixStream> {
        Ok(UnixStream {
            io: StreamIo::connect(sys).await?,
        })
    }
}

crate::net::connected::stream_api!(UnixStream);
