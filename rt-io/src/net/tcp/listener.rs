//! `TcpListener`: a TCP socket accepting connections.

use super::socket::TcpSocket;
use super::stream::TcpStream;
use crate::net::accept::ListenerIo;
use crate::net::addr::{each_addr, ToSocketAddrs};
use crate::net::sim_dispatch::{SimOr, TcpListenerIo};
use crate::net::sim_seam;
use crate::sys::FromRaw;
use std::io;
use std::net::SocketAddr;
use std::task::{Context, Poll};

/// The accept queue length `bind` asks for.
const DEFAULT_BACKLOG: u32 = 1024;

/// A TCP socket server, listening for connections.
///
/// An accept that fails (for example with `EMFILE` when the process is out
/// of file descriptors) returns the error; the listener stays usable, and
/// the pending connection stays queued for a later accept.
///
/// ```
/// use rt_io::net::{TcpListener, TcpStream};
/// # rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build().unwrap().block_on(async {
/// let listener = TcpListener::bind("127.0.0.1:0").await?;
/// let addr = listener.local_addr()?;
/// let client = TcpStream::connect(addr).await?;
/// let (_server, peer) = listener.accept().await?;
/// assert_eq!(peer, client.local_addr()?);
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct TcpListener {
    io: TcpListenerIo,
}

impl TcpListener {
    /// Binds to `addr`, trying each resolved address in order. Port 0 picks
    /// a free port; see [`local_addr`](Self::local_addr).
    pub async fn bind<A: ToSocketAddrs>(addr: A) -> io::Result<TcpListener> {
        each_addr(addr, |addr| async move {
            if let Some(sim) = sim_seam::current() {
                return TcpListener::bind_sim(&sim, addr);
            }
            let socket = TcpSocket::new_for_addr(addr)?;
            if crate::sys::LISTENER_REUSES_ADDRESS {
                socket.set_reuseaddr(true)?;
            }
            socket.bind(addr)?;
            socket.listen(DEFAULT_BACKLOG)
        })
        .await
    }

    #[track_caller]
    pub(crate) fn new(sys: mio::net::TcpListener) -> io::Result<TcpListener> {
        Ok(TcpListener {
            io: SimOr::Real(ListenerIo::new(sys)?),
        })
    }

    /// Listens on `addr` of the simulated network `sim`.
    pub(crate) fn bind_sim(sim: &sim_seam::SimNet, addr: SocketAddr) -> io::Result<TcpListener> {
        Ok(TcpListener {
            io: SimOr::Sim(sim.network().tcp_bind(addr)?),
        })
    }

    /// Accepts a new connection, returning it and the peer's address.
    pub async fn accept(&self) -> io::Result<(TcpStream, SocketAddr)> {
        self.io.accept().await
    }

    /// Polls for a new connection.
    pub fn poll_accept(&self, cx: &mut Context<'_>) -> Poll<io::Result<(TcpStream, SocketAddr)>> {
        self.io.poll_accept(cx)
    }

    /// Wraps a bound standard listener, switching it to non-blocking mode.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn from_std(listener: std::net::TcpListener) -> io::Result<TcpListener> {
        sim_seam::refuse_inside("TcpListener::from_std")?;
        listener.set_nonblocking(true)?;
        TcpListener::new(mio::net::TcpListener::from_std(listener))
    }

    /// Deregisters the listener and returns it as a standard listener,
    /// still in non-blocking mode.
    pub fn into_std(self) -> io::Result<std::net::TcpListener> {
        let raw = self.io.into_raw()?;
        // SAFETY: `raw` was just released by the mio listener that owned it.
        Ok(unsafe { std::net::TcpListener::from_raw(raw) })
    }

    /// The local address the listener is bound to.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.io.local_addr()
    }

    /// The IP time-to-live of accepted connections' packets.
    pub fn ttl(&self) -> io::Result<u32> {
        self.io.source().ttl()
    }

    /// Sets the IP time-to-live.
    pub fn set_ttl(&self, ttl: u32) -> io::Result<()> {
        self.io.source().set_ttl(ttl)
    }
}

impl TryFrom<std::net::TcpListener> for TcpListener {
    type Error = io::Error;

    fn try_from(listener: std::net::TcpListener) -> io::Result<TcpListener> {
        TcpListener::from_std(listener)
    }
}

crate::sys::impl_as_socket!(io: TcpListener);
