//! [`UnixSocket`]: a Unix domain socket configured (bound) before it
//! becomes a listener, a connected stream or a datagram socket.

use super::{UnixDatagram, UnixListener, UnixStream};
use socket2::{Domain, SockAddr, Socket, Type};
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, IntoRawFd, OwnedFd, RawFd};
use std::path::Path;

/// A Unix domain socket that is neither listening nor connected yet:
/// create it for streams or datagrams, [`bind`](Self::bind) it, then turn
/// it into a [`UnixListener`], a [`UnixStream`] or a [`UnixDatagram`].
///
/// ```
/// use rt_io::net::UnixSocket;
/// # rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build().unwrap().block_on(async {
/// let dir = std::env::temp_dir().join(format!("rt-doc-unix-socket-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("s.sock");
/// let socket = UnixSocket::new_stream()?;
/// socket.bind(&path)?;
/// let listener = socket.listen(16)?;
/// let client = UnixSocket::new_stream()?.connect(&path).await?;
/// let (_server, _) = listener.accept().await?;
/// # drop(client);
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct UnixSocket {
    inner: Socket,
}

impl UnixSocket {
    /// A new datagram socket (`SOCK_DGRAM`).
    pub fn new_datagram() -> io::Result<UnixSocket> {
        UnixSocket::new(Type::DGRAM)
    }

    /// A new stream socket (`SOCK_STREAM`).
    pub fn new_stream() -> io::Result<UnixSocket> {
        UnixSocket::new(Type::STREAM)
    }

    fn new(ty: Type) -> io::Result<UnixSocket> {
        let inner = Socket::new(Domain::UNIX, ty, None)?;
        inner.set_nonblocking(true)?;
        Ok(UnixSocket { inner })
    }

    fn is_datagram(&self) -> io::Result<bool> {
        Ok(self.inner.r#type()? == Type::DGRAM)
    }

    /// Binds the socket to the file system path `path`.
    pub fn bind(&self, path: impl AsRef<Path>) -> io::Result<()> {
        self.inner.bind(&SockAddr::unix(path)?)
    }

    /// Starts listening with a queue of `backlog` pending connections.
    ///
    /// # Errors
    ///
    /// A datagram socket cannot listen; otherwise the OS's error.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn listen(self, backlog: u32) -> io::Result<UnixListener> {
        if self.is_datagram()? {
            return Err(io::Error::other(
                "listen cannot be called on a datagram socket",
            ));
        }
        self.inner
            .listen(i32::try_from(backlog).unwrap_or(i32::MAX))?;
        UnixListener::from_std(OwnedFd::from(self.inner).into())
    }

    /// Connects to the socket bound at `path` and waits until the
    /// connection is established.
    ///
    /// # Errors
    ///
    /// A datagram socket cannot connect this way (use
    /// [`datagram`](Self::datagram), then `UnixDatagram::connect`);
    /// otherwise the OS's error.
    pub async fn connect(self, path: impl AsRef<Path>) -> io::Result<UnixStream> {
        if self.is_datagram()? {
            return Err(io::Error::other(
                "connect cannot be called on a datagram socket",
            ));
        }
        match self.inner.connect(&SockAddr::unix(path)?) {
            Ok(()) => {}
            Err(e) if e.raw_os_error() == Some(libc::EINPROGRESS) => {}
            Err(e) => return Err(e),
        }
        let fd = self.inner.into_raw_fd();
        // SAFETY: `fd` was just released by the socket that owned it.
        let sys = unsafe { mio::net::UnixStream::from_raw_fd(fd) };
        UnixStream::connecting(sys).await
    }

    /// Turns a datagram socket into a [`UnixDatagram`].
    ///
    /// # Errors
    ///
    /// A stream socket cannot become a datagram socket.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn datagram(self) -> io::Result<UnixDatagram> {
        if !self.is_datagram()? {
            return Err(io::Error::other(
                "datagram cannot be called on a stream socket",
            ));
        }
        UnixDatagram::from_std(OwnedFd::from(self.inner).into())
    }
}

impl AsRawFd for UnixSocket {
    fn as_raw_fd(&self) -> RawFd {
        self.inner.as_raw_fd()
    }
}

impl AsFd for UnixSocket {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.inner.as_fd()
    }
}

impl FromRawFd for UnixSocket {
    /// # Safety
    ///
    /// `fd` must be an open Unix domain socket that the caller owns.
    unsafe fn from_raw_fd(fd: RawFd) -> UnixSocket {
        // SAFETY: the caller hands over ownership of an open socket.
        let inner = unsafe { Socket::from_raw_fd(fd) };
        UnixSocket { inner }
    }
}

impl IntoRawFd for UnixSocket {
    fn into_raw_fd(self) -> RawFd {
        self.inner.into_raw_fd()
    }
}
