//! `UdpSocket`: datagrams over UDP, driven by the reactor. What it shares
//! with `UnixDatagram` lives in `net/datagram.rs`; here are its
//! constructors, peeking, address resolution and socket options.

use crate::io::ReadBuf;
use crate::net::addr::{each_addr, resolve, ToSocketAddrs};
use crate::net::datagram::{datagram_api, DatagramIo};
use crate::net::fill::poll_fill;
use crate::net::sim_dispatch::{SimOr, UdpIo};
use crate::net::sim_seam;
use crate::reactor::Interest;
use crate::sys::FromRaw;
use bytes::BufMut;
use std::io;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::task::{Context, Poll};

/// A UDP socket.
///
/// Unconnected, it sends to and receives from any address
/// ([`send_to`](Self::send_to), [`recv_from`](Self::recv_from)); after
/// [`connect`](Self::connect), [`send`](Self::send) and [`recv`](Self::recv)
/// talk to one peer. All operations take `&self`, so one socket can be
/// shared (for example in an `Arc`) by a sending and a receiving task.
///
/// ```
/// use rt_io::net::UdpSocket;
/// # rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build().unwrap().block_on(async {
/// let a = UdpSocket::bind("127.0.0.1:0").await?;
/// let b = UdpSocket::bind("127.0.0.1:0").await?;
/// a.send_to(b"hello", b.local_addr()?).await?;
/// let mut buf = [0; 16];
/// let (n, from) = b.recv_from(&mut buf).await?;
/// assert_eq!((&buf[..n], from), (&b"hello"[..], a.local_addr()?));
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct UdpSocket {
    io: UdpIo,
}

impl UdpSocket {
    /// Binds to `addr`, trying each resolved address in order.
    pub async fn bind<A: ToSocketAddrs>(addr: A) -> io::Result<UdpSocket> {
        each_addr(addr, |addr| async move {
            if let Some(sim) = sim_seam::current() {
                return Ok(UdpSocket {
                    io: SimOr::Sim(sim.network().udp_bind(addr)?),
                });
            }
            UdpSocket::new(mio::net::UdpSocket::bind(addr)?)
        })
        .await
    }

    #[track_caller]
    fn new(sys: mio::net::UdpSocket) -> io::Result<UdpSocket> {
        Ok(UdpSocket {
            io: SimOr::Real(DatagramIo::new(sys)?),
        })
    }

    /// Wraps a bound standard socket, switching it to non-blocking mode.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn from_std(socket: std::net::UdpSocket) -> io::Result<UdpSocket> {
        sim_seam::refuse_inside("UdpSocket::from_std")?;
        socket.set_nonblocking(true)?;
        UdpSocket::new(mio::net::UdpSocket::from_std(socket))
    }

    /// Deregisters the socket and returns it as a standard socket, still in
    /// non-blocking mode.
    pub fn into_std(self) -> io::Result<std::net::UdpSocket> {
        let raw = self.io.into_raw()?;
        // SAFETY: `raw` was just released by the mio socket that owned it.
        Ok(unsafe { std::net::UdpSocket::from_raw(raw) })
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        if let Some(sim) = self.io.sim() {
            return sim.local_addr();
        }
        self.sys().local_addr()
    }

    /// The connected peer's address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        if let Some(sim) = self.io.sim() {
            return sim.peer_addr();
        }
        self.sys().peer_addr()
    }

    /// Connects to the first resolved address that the OS accepts: `send`
    /// and `recv` then use that peer, and datagrams from others are dropped.
    pub async fn connect<A: ToSocketAddrs>(&self, addr: A) -> io::Result<()> {
        each_addr(addr, |addr| async move {
            if let Some(sim) = self.io.sim() {
                return sim.connect(addr);
            }
            self.sys().connect(addr)
        })
        .await
    }

    /// Polls a [`peek`](Self::peek) into the unfilled part of `buf`: the
    /// datagram stays queued.
    pub fn poll_peek(&self, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        poll_fill(buf, |b| {
            self.io
                .poll_read_with(cx, || self.sys().peek(b).map(|n| (n, ())))
        })
    }

    /// Polls a [`peek_from`](Self::peek_from) into the unfilled part of
    /// `buf`; returns the sender's address and leaves the datagram queued.
    pub fn poll_peek_from(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<SocketAddr>> {
        poll_fill(buf, |b| {
            self.io.poll_read_with(cx, || self.sys().peek_from(b))
        })
    }

    /// Reads the next datagram from the connected peer without removing it
    /// from the queue.
    pub async fn peek(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.io
            .async_io(Interest::READABLE, || self.sys().peek(buf))
            .await
    }

    /// [`peek`](Self::peek) without waiting.
    pub fn try_peek(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.io.try_io(Interest::READABLE, || self.sys().peek(buf))
    }

    /// Reads the next datagram and its sender without removing it.
    pub async fn peek_from(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        self.io
            .async_io(Interest::READABLE, || self.sys().peek_from(buf))
            .await
    }

    /// [`peek_from`](Self::peek_from) without waiting.
    pub fn try_peek_from(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        self.io
            .try_io(Interest::READABLE, || self.sys().peek_from(buf))
    }

    /// Waits for a datagram and returns its sender's address, leaving the
    /// datagram queued.
    pub async fn peek_sender(&self) -> io::Result<SocketAddr> {
        self.io
            .async_io(Interest::READABLE, || self.peek_sender_now())
            .await
    }

    /// Polls a [`peek_sender`](Self::peek_sender).
    pub fn poll_peek_sender(&self, cx: &mut Context<'_>) -> Poll<io::Result<SocketAddr>> {
        self.io.poll_read_with(cx, || self.peek_sender_now())
    }

    /// [`peek_sender`](Self::peek_sender) without waiting: `WouldBlock` if
    /// no datagram is queued.
    pub fn try_peek_sender(&self) -> io::Result<SocketAddr> {
        self.io
            .try_io(Interest::READABLE, || self.peek_sender_now())
    }

    /// One non-blocking peek at the next datagram's sender (socket2 peeks
    /// with an empty buffer and reads only the address).
    fn peek_sender_now(&self) -> io::Result<SocketAddr> {
        let sys = self.sys();
        let addr = sys.try_io(|| socket2::SockRef::from(sys).peek_sender())?;
        addr.as_socket().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                "the sender is not an IP address",
            )
        })
    }

    /// Sends `buf` to the first address `target` resolves to.
    pub async fn send_to<A: ToSocketAddrs>(&self, buf: &[u8], target: A) -> io::Result<usize> {
        let target = resolve(target).await?.into_iter().next().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "no addresses to send data to")
        })?;
        self.io.send_to(buf, &target).await
    }

    /// Polls a send of `buf` to `target`.
    pub fn poll_send_to(
        &self,
        cx: &mut Context<'_>,
        buf: &[u8],
        target: SocketAddr,
    ) -> Poll<io::Result<usize>> {
        self.io.poll_send_to(cx, buf, &target)
    }

    /// Sends to `target` without waiting.
    pub fn try_send_to(&self, buf: &[u8], target: SocketAddr) -> io::Result<usize> {
        self.io.try_send_to(buf, &target)
    }

    /// The mio socket, for the UDP-only calls.
    fn sys(&self) -> &mio::net::UdpSocket {
        self.io.source()
    }

    /// Whether `SO_BROADCAST` is set.
    pub fn broadcast(&self) -> io::Result<bool> {
        self.sys().broadcast()
    }

    /// Sets `SO_BROADCAST`: allow sending to a broadcast address.
    pub fn set_broadcast(&self, on: bool) -> io::Result<()> {
        self.sys().set_broadcast(on)
    }

    /// Whether IPv4 multicast sent here loops back to local sockets.
    pub fn multicast_loop_v4(&self) -> io::Result<bool> {
        self.sys().multicast_loop_v4()
    }

    /// Sets `IP_MULTICAST_LOOP`.
    pub fn set_multicast_loop_v4(&self, on: bool) -> io::Result<()> {
        self.sys().set_multicast_loop_v4(on)
    }

    /// The IPv4 multicast time-to-live.
    pub fn multicast_ttl_v4(&self) -> io::Result<u32> {
        self.sys().multicast_ttl_v4()
    }

    /// Sets `IP_MULTICAST_TTL`.
    pub fn set_multicast_ttl_v4(&self, ttl: u32) -> io::Result<()> {
        self.sys().set_multicast_ttl_v4(ttl)
    }

    /// Whether IPv6 multicast sent here loops back to local sockets.
    pub fn multicast_loop_v6(&self) -> io::Result<bool> {
        self.sys().multicast_loop_v6()
    }

    /// Sets `IPV6_MULTICAST_LOOP`.
    pub fn set_multicast_loop_v6(&self, on: bool) -> io::Result<()> {
        self.sys().set_multicast_loop_v6(on)
    }

    /// The IP time-to-live of outgoing packets.
    pub fn ttl(&self) -> io::Result<u32> {
        self.sys().ttl()
    }

    /// Sets the IP time-to-live.
    pub fn set_ttl(&self, ttl: u32) -> io::Result<()> {
        self.sys().set_ttl(ttl)
    }

    /// Joins the IPv4 multicast group `multiaddr` on the interface with
    /// address `interface` (`0.0.0.0` lets the OS choose).
    pub fn join_multicast_v4(&self, multiaddr: Ipv4Addr, interface: Ipv4Addr) -> io::Result<()> {
        self.sys().join_multicast_v4(&multiaddr, &interface)
    }

    /// Leaves an IPv4 multicast group.
    pub fn leave_multicast_v4(&self, multiaddr: Ipv4Addr, interface: Ipv4Addr) -> io::Result<()> {
        self.sys().leave_multicast_v4(&multiaddr, &interface)
    }

    /// Joins the IPv6 multicast group `multiaddr` on interface index
    /// `interface` (0 lets the OS choose).
    pub fn join_multicast_v6(&self, multiaddr: &Ipv6Addr, interface: u32) -> io::Result<()> {
        self.sys().join_multicast_v6(multiaddr, interface)
    }

    /// Leaves an IPv6 multicast group.
    pub fn leave_multicast_v6(&self, multiaddr: &Ipv6Addr, interface: u32) -> io::Result<()> {
        self.sys().leave_multicast_v6(multiaddr, interface)
    }
}

datagram_api!(UdpSocket, SocketAddr);
crate::net::sockopt::ip_options!(UdpSocket);

impl TryFrom<std::net::UdpSocket> for UdpSocket {
    type Error = io::Error;

    fn try_from(socket: std::net::UdpSocket) -> io::Result<UdpSocket> {
        UdpSocket::from_std(socket)
    }
}
