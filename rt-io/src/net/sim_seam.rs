//! The seam through which a simulation takes `rt::net` over.
//!
//! A simulation (the `rt-sim` crate) runs on a runtime without a reactor.
//! Its base driver publishes a [`SimNet`] in the driver handles; the
//! socket types look for it only when a socket is created (`bind`,
//! `connect`, `listen`, a name lookup), and then hold either their real
//! mio socket or the simulation's socket. Every later call on the socket
//! is one `match` on that choice (`sim_dispatch.rs`): outside a
//! simulation the sockets pay one branch per call and one handle lookup
//! per socket created, nothing else.
//!
//! The dependency runs this way (rt-sim depends on rt-io) so that rt-io
//! knows nothing of the simulation's model: only these traits.

use crate::io::ReadBuf;
use std::fmt;
use std::future::Future;
use std::io;
use std::net::{Shutdown, SocketAddr};
use std::panic::{RefUnwindSafe, UnwindSafe};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// A boxed future, as the seam's async calls return it: `Sync` too, since
/// the futures of `rt::net` that hold it (`TcpStream::connect`'s) are, as
/// tokio's.
pub type SimFuture<T> = Pin<Box<dyn Future<Output = T> + Send + Sync>>;

/// A simulated network, as a simulation provides it to `rt::net`.
/// Addresses reach it resolved (by [`resolve`](SimNetwork::resolve) when
/// they name a host); the network decides which simulated host a call is
/// made from.
pub trait SimNetwork: Send + Sync + 'static {
    /// Listens on `addr` (what `TcpListener::bind` and
    /// `TcpSocket::listen` do).
    fn tcp_bind(&self, addr: SocketAddr) -> io::Result<Box<dyn SimTcpListener>>;
    /// Connects to `addr`, waiting for the handshake.
    fn tcp_connect(&self, addr: SocketAddr) -> SimFuture<io::Result<Box<dyn SimTcpStream>>>;
    /// Binds a datagram socket on `addr`.
    fn udp_bind(&self, addr: SocketAddr) -> io::Result<Box<dyn SimUdpSocket>>;
    /// Resolves `host:port` among the simulation's hosts, without leaving
    /// the simulation.
    fn resolve(&self, host: &str) -> io::Result<Vec<SocketAddr>>;
}

/// One end of a simulated TCP connection: the calls `TcpStream` makes.
pub trait SimTcpStream: Send + Sync + UnwindSafe + RefUnwindSafe + fmt::Debug {
    /// Reads into `buf`; nothing read is the end of the stream.
    fn poll_read(&self, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>>;
    /// Copies into `buf` what a read would take, leaving it there.
    fn poll_peek(&self, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<usize>>;
    /// Writes from `buf` once there is room.
    fn poll_write(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>>;
    /// Ready when a read would not wait.
    fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>>;
    /// Ready when a write would not wait.
    fn poll_write_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>>;
    /// Reads without waiting: `WouldBlock` when nothing has arrived.
    fn try_read(&self, buf: &mut [u8]) -> io::Result<usize>;
    /// Writes without waiting: `WouldBlock` when there is no room.
    fn try_write(&self, buf: &[u8]) -> io::Result<usize>;
    /// Shuts a direction down (the write side sends the peer an end of
    /// stream).
    fn shutdown(&self, how: Shutdown) -> io::Result<()>;
    /// This end's address.
    fn local_addr(&self) -> io::Result<SocketAddr>;
    /// The other end's address.
    fn peer_addr(&self) -> io::Result<SocketAddr>;
}

/// A simulated listening socket: the calls `TcpListener` makes.
pub trait SimTcpListener: Send + Sync + UnwindSafe + RefUnwindSafe + fmt::Debug {
    /// Takes the next connection, or registers to be woken.
    #[allow(clippy::type_complexity)]
    fn poll_accept(
        &self,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<(Box<dyn SimTcpStream>, SocketAddr)>>;
    /// The address it listens on.
    fn local_addr(&self) -> io::Result<SocketAddr>;
}

/// A simulated datagram socket: the calls `UdpSocket` makes.
pub trait SimUdpSocket: Send + Sync + UnwindSafe + RefUnwindSafe + fmt::Debug {
    /// Sends `buf` to `target`.
    fn poll_send_to(
        &self,
        cx: &mut Context<'_>,
        buf: &[u8],
        target: SocketAddr,
    ) -> Poll<io::Result<usize>>;
    /// Receives the next datagram into `buf`, giving its sender.
    fn poll_recv_from(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<SocketAddr>>;
    /// Ready when a datagram is queued.
    fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>>;
    /// Ready when a send would not wait (a datagram is never held back).
    fn poll_write_ready(&self, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    /// Sets the one peer of `send` and `recv`.
    fn connect(&self, addr: SocketAddr) -> io::Result<()>;
    /// The bound address.
    fn local_addr(&self) -> io::Result<SocketAddr>;
    /// The connected peer.
    fn peer_addr(&self) -> io::Result<SocketAddr>;
}

/// The handle a simulation publishes in its runtime's driver handles.
pub struct SimNet {
    network: Arc<dyn SimNetwork>,
}

impl SimNet {
    /// Wraps `network` for publishing (`DriverHandles::insert`).
    pub fn new(network: Arc<dyn SimNetwork>) -> SimNet {
        SimNet { network }
    }

    pub(crate) fn network(&self) -> &dyn SimNetwork {
        &*self.network
    }
}

impl fmt::Debug for SimNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SimNet").finish_non_exhaustive()
    }
}

/// The current runtime's simulated network, if it runs a simulation. The
/// one lookup a socket makes when it is created.
#[inline]
pub(crate) fn current() -> Option<Arc<SimNet>> {
    rt_core::runtime::try_current_driver_handle::<SimNet>()
        .ok()
        .flatten()
}

/// The error of a call that would leave the simulation: `call` names it.
pub(crate) fn escapes(call: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        format!("{call} would leave the simulation: it is not available on a simulated socket"),
    )
}

/// Fails with [`escapes`] when the current runtime runs a simulation: for
/// the calls that bring a real socket in (`from_std`).
pub(crate) fn refuse_inside(call: &str) -> io::Result<()> {
    match current() {
        Some(_) => Err(escapes(call)),
        None => Ok(()),
    }
}
