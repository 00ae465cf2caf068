//! `UnixListener`: a Unix domain socket accepting connections.

use super::stream::UnixStream;
use super::SocketAddr;
use crate::net::accept::ListenerIo;
use std::io;
use std::os::fd::FromRawFd;
use std::path::Path;
use std::task::{Context, Poll};

/// A Unix domain socket server, listening for connections.
///
/// ```
/// use rt_io::net::{UnixListener, UnixStream};
/// # rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build().unwrap().block_on(async {
/// let dir = std::env::temp_dir().join(format!("rt-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("listener.sock");
/// let _ = std::fs::remove_file(&path);
/// let listener = UnixListener::bind(&path)?;
/// let _client = UnixStream::connect(&path).await?;
/// let (_server, _addr) = listener.accept().await?;
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct UnixListener {
    io: ListenerIo<mio::net::UnixListener>,
}

impl UnixListener {
    /// Binds to `path`, which must not exist yet. On Linux a path starting
    /// with a NUL byte names an abstract socket instead of a file.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn bind<P: AsRef<Path>>(path: P) -> io::Result<UnixListener> {
        let addr = super::path::socket_addr(path.as_ref())?;
        UnixListener::bind_addr(&addr)
    }

    /// Binds to `addr`, which may be a path or (on Linux) an abstract
    /// name.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn bind_addr(addr: &SocketAddr) -> io::Result<UnixListener> {
        UnixListener::new(mio::net::UnixListener::bind_addr(addr)?)
    }

    #[track_caller]
    fn new(sys: mio::net::UnixListener) -> io::Result<UnixListener> {
        Ok(UnixListener {
            io: ListenerIo::new(sys)?,
        })
    }

    /// Wraps a bound standard listener, switching it to non-blocking mode.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn from_std(listener: std::os::unix::net::UnixListener) -> io::Result<UnixListener> {
        listener.set_nonblocking(true)?;
        UnixListener::new(mio::net::UnixListener::from_std(listener))
    }

    /// Deregisters the listener and returns it as a standard listener,
    /// still in non-blocking mode.
    pub fn into_std(self) -> io::Result<std::os::unix::net::UnixListener> {
        let fd = self.io.into_raw()?;
        // SAFETY: `fd` was just released by the mio listener that owned it.
        Ok(unsafe { std::os::unix::net::UnixListener::from_raw_fd(fd) })
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.io.source().local_addr()
    }

    /// Takes the pending socket error, if any.
    pub fn take_error(&self) -> io::Result<Option<io::Error>> {
        self.io.source().take_error()
    }

    /// Accepts a connection.
    pub async fn accept(&self) -> io::Result<(UnixStream, SocketAddr)> {
        self.io.accept().await
    }

    /// Polls for a connection.
    pub fn poll_accept(&self, cx: &mut Context<'_>) -> Poll<io::Result<(UnixStream, SocketAddr)>> {
        self.io.poll_accept(cx)
    }
}

crate::sys::impl_as_socket!(io: UnixListener);
