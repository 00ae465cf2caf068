//! `TcpSocket`: a TCP socket configured before it becomes a stream or a
//! listener.

use super::listener::TcpListener;
use super::stream::TcpStream;
use crate::net::sim_seam;
use crate::sys::{FromRaw, IntoRaw};
use socket2::{Domain, Protocol, Socket, Type};
use std::io;
use std::net::SocketAddr;
use std::time::Duration;

/// A TCP socket not yet connected or listening: set options, bind, then
/// [`connect`](TcpSocket::connect) or [`listen`](TcpSocket::listen).
///
/// ```
/// use rt_io::net::TcpSocket;
/// # rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build().unwrap().block_on(async {
/// let socket = TcpSocket::new_v4()?;
/// socket.set_reuseaddr(true)?;
/// socket.bind("127.0.0.1:0".parse().unwrap())?;
/// let listener = socket.listen(1024)?;
/// let client = TcpSocket::new_v4()?.connect(listener.local_addr()?).await?;
/// # let _ = client;
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct TcpSocket {
    inner: Socket,
    /// Inside a simulation: the address given to `bind`, which the real
    /// socket never sees (it is an address of the simulated network).
    sim_bound: rt_core::loom::sync::Mutex<Option<SocketAddr>>,
}

impl TcpSocket {
    /// A new IPv4 TCP socket.
    pub fn new_v4() -> io::Result<TcpSocket> {
        TcpSocket::new(Domain::IPV4)
    }

    /// A new IPv6 TCP socket.
    pub fn new_v6() -> io::Result<TcpSocket> {
        TcpSocket::new(Domain::IPV6)
    }

    pub(crate) fn new_for_addr(addr: SocketAddr) -> io::Result<TcpSocket> {
        match addr {
            SocketAddr::V4(_) => TcpSocket::new_v4(),
            SocketAddr::V6(_) => TcpSocket::new_v6(),
        }
    }

    fn new(domain: Domain) -> io::Result<TcpSocket> {
        let inner = Socket::new(domain, Type::STREAM, Some(Protocol::TCP))?;
        inner.set_nonblocking(true)?;
        Ok(TcpSocket {
            inner,
            sim_bound: rt_core::loom::sync::Mutex::new(None),
        })
    }

    /// Sets `SO_REUSEADDR`.
    pub fn set_reuseaddr(&self, reuseaddr: bool) -> io::Result<()> {
        self.inner.set_reuse_address(reuseaddr)
    }

    /// Whether `SO_REUSEADDR` is set.
    pub fn reuseaddr(&self) -> io::Result<bool> {
        self.inner.reuse_address()
    }

    /// Sets `SO_REUSEPORT`. Unix only.
    #[cfg(unix)]
    pub fn set_reuseport(&self, reuseport: bool) -> io::Result<()> {
        self.inner.set_reuse_port(reuseport)
    }

    /// Whether `SO_REUSEPORT` is set. Unix only.
    #[cfg(unix)]
    pub fn reuseport(&self) -> io::Result<bool> {
        self.inner.reuse_port()
    }

    /// Sets the send buffer size (`SO_SNDBUF`).
    pub fn set_send_buffer_size(&self, size: u32) -> io::Result<()> {
        self.inner.set_send_buffer_size(size as usize)
    }

    /// The send buffer size.
    pub fn send_buffer_size(&self) -> io::Result<u32> {
        self.inner.send_buffer_size().map(|n| n as u32)
    }

    /// Sets the receive buffer size (`SO_RCVBUF`).
    pub fn set_recv_buffer_size(&self, size: u32) -> io::Result<()> {
        self.inner.set_recv_buffer_size(size as usize)
    }

    /// The receive buffer size.
    pub fn recv_buffer_size(&self) -> io::Result<u32> {
        self.inner.recv_buffer_size().map(|n| n as u32)
    }

    /// Sets `SO_KEEPALIVE`.
    pub fn set_keepalive(&self, keepalive: bool) -> io::Result<()> {
        self.inner.set_keepalive(keepalive)
    }

    /// Whether `SO_KEEPALIVE` is set.
    pub fn keepalive(&self) -> io::Result<bool> {
        self.inner.keepalive()
    }

    /// Sets `SO_LINGER`.
    pub fn set_linger(&self, dur: Option<Duration>) -> io::Result<()> {
        self.inner.set_linger(dur)
    }

    /// Sets `SO_LINGER` to zero: closing the socket then resets the
    /// connection at once instead of sending what is left.
    pub fn set_zero_linger(&self) -> io::Result<()> {
        self.inner.set_linger(Some(Duration::ZERO))
    }

    /// The `SO_LINGER` setting.
    pub fn linger(&self) -> io::Result<Option<Duration>> {
        self.inner.linger()
    }

    /// Sets `TCP_NODELAY`.
    pub fn set_nodelay(&self, nodelay: bool) -> io::Result<()> {
        self.inner.set_tcp_nodelay(nodelay)
    }

    /// Whether `TCP_NODELAY` is set.
    pub fn nodelay(&self) -> io::Result<bool> {
        self.inner.tcp_nodelay()
    }

    /// The address the socket is bound to.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner
            .local_addr()?
            .as_socket()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "socket has no IP address"))
    }

    /// Takes the pending socket error, if any.
    pub fn take_error(&self) -> io::Result<Option<io::Error>> {
        self.inner.take_error()
    }

    /// Binds to `addr`.
    pub fn bind(&self, addr: SocketAddr) -> io::Result<()> {
        if sim_seam::current().is_some() {
            *self.sim_bound.lock().unwrap_or_else(|p| p.into_inner()) = Some(addr);
            return Ok(());
        }
        self.inner.bind(&addr.into())
    }

    /// Connects to `addr` and waits for the handshake.
    pub async fn connect(self, addr: SocketAddr) -> io::Result<TcpStream> {
        if let Some(sim) = sim_seam::current() {
            // The simulation picks the local address.
            let stream = sim.network().tcp_connect(addr).await?;
            return Ok(TcpStream::from_sim(stream));
        }
        match self.inner.connect(&addr.into()) {
            Ok(()) => {}
            Err(e) if crate::sys::connect_in_progress(&e) => {}
            Err(e) => return Err(e),
        }
        let raw = self.inner.into_raw();
        // SAFETY: `raw` was just released by the socket that owned it.
        let sys = unsafe { mio::net::TcpStream::from_raw(raw) };
        TcpStream::connect_mio(sys).await
    }

    /// Starts listening with a queue of `backlog` pending connections.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn listen(self, backlog: u32) -> io::Result<TcpListener> {
        if let Some(sim) = sim_seam::current() {
            let bound = *self.sim_bound.lock().unwrap_or_else(|p| p.into_inner());
            let addr = bound.unwrap_or_else(|| SocketAddr::from(([0, 0, 0, 0], 0)));
            return TcpListener::bind_sim(&sim, addr);
        }
        let backlog = backlog.min(i32::MAX as u32) as i32;
        self.inner.listen(backlog)?;
        let raw = self.inner.into_raw();
        // SAFETY: `raw` was just released by the socket that owned it.
        let sys = unsafe { mio::net::TcpListener::from_raw(raw) };
        TcpListener::new(sys)
    }

    /// Wraps a standard stream's socket, for setting options on it.
    pub fn from_std_stream(stream: std::net::TcpStream) -> TcpSocket {
        TcpSocket {
            inner: Socket::from(stream),
            sim_bound: rt_core::loom::sync::Mutex::new(None),
        }
    }
}

crate::net::sockopt::ip_options!(TcpSocket);

crate::sys::impl_raw_socket!(inner: TcpSocket, sim_bound: rt_core::loom::sync::Mutex::new(None));
