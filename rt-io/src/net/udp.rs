//! `UdpSocket`: datagrams over UDP, driven by the reactor.

use crate::io::ReadBuf;
use crate::net::addr::{each_addr, resolve, ToSocketAddrs};
use crate::net::fill::{fill_buf_mut, poll_fill};
use crate::reactor::{Direction, Interest, PollEvented, Ready};
use bytes::BufMut;
use std::io;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd};
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
    io: PollEvented<mio::net::UdpSocket>,
}

impl UdpSocket {
    /// Binds to `addr`, trying each resolved address in order.
    pub async fn bind<A: ToSocketAddrs>(addr: A) -> io::Result<UdpSocket> {
        each_addr(addr, |addr| async move {
            UdpSocket::new(mio::net::UdpSocket::bind(addr)?)
        })
        .await
    }

    fn new(sys: mio::net::UdpSocket) -> io::Result<UdpSocket> {
        Ok(UdpSocket {
            io: PollEvented::new(sys)?,
        })
    }

    /// Wraps a bound standard socket, switching it to non-blocking mode.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn from_std(socket: std::net::UdpSocket) -> io::Result<UdpSocket> {
        socket.set_nonblocking(true)?;
        UdpSocket::new(mio::net::UdpSocket::from_std(socket))
    }

    /// Deregisters the socket and returns it as a standard socket, still in
    /// non-blocking mode.
    pub fn into_std(self) -> io::Result<std::net::UdpSocket> {
        let fd = self.io.into_inner()?.into_raw_fd();
        // SAFETY: `fd` was just released by the mio socket that owned it.
        Ok(unsafe { std::net::UdpSocket::from_raw_fd(fd) })
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.io.local_addr()
    }

    /// The connected peer's address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.io.peer_addr()
    }

    /// Connects to the first resolved address that the OS accepts: `send`
    /// and `recv` then use that peer, and datagrams from others are dropped.
    pub async fn connect<A: ToSocketAddrs>(&self, addr: A) -> io::Result<()> {
        each_addr(addr, |addr| async move { self.io.connect(addr) }).await
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

    /// Sends to the connected peer; returns the bytes sent.
    pub async fn send(&self, buf: &[u8]) -> io::Result<usize> {
        self.io
            .registration()
            .async_io(Interest::WRITABLE, || self.io.send(buf))
            .await
    }

    /// Polls a [`send`](Self::send).
    pub fn poll_send(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.io
            .registration()
            .poll_io(cx, Direction::Write, || self.io.send(buf))
    }

    /// Sends without waiting: `WouldBlock` if not writable.
    pub fn try_send(&self, buf: &[u8]) -> io::Result<usize> {
        self.io
            .registration()
            .try_io(Interest::WRITABLE, || self.io.send(buf))
    }

    /// Receives one datagram from the connected peer into `buf`; excess
    /// bytes of a longer datagram are discarded.
    pub async fn recv(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.io
            .registration()
            .async_io(Interest::READABLE, || self.io.recv(buf))
            .await
    }

    /// Polls a [`recv`](Self::recv) into the unfilled part of `buf`, which
    /// advances by the datagram's length. Only the last task to poll a
    /// receive is woken.
    pub fn poll_recv(&self, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        poll_fill(buf, |b| {
            self.poll_read_op(cx, || self.io.recv(b).map(|n| (n, ())))
        })
    }

    /// Polls a [`recv_from`](Self::recv_from) into the unfilled part of
    /// `buf`; returns the sender's address.
    pub fn poll_recv_from(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<SocketAddr>> {
        poll_fill(buf, |b| self.poll_read_op(cx, || self.io.recv_from(b)))
    }

    /// Polls a [`peek`](Self::peek) into the unfilled part of `buf`: the
    /// datagram stays queued.
    pub fn poll_peek(&self, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        poll_fill(buf, |b| {
            self.poll_read_op(cx, || self.io.peek(b).map(|n| (n, ())))
        })
    }

    /// Polls a [`peek_from`](Self::peek_from) into the unfilled part of
    /// `buf`; returns the sender's address and leaves the datagram queued.
    pub fn poll_peek_from(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<SocketAddr>> {
        poll_fill(buf, |b| self.poll_read_op(cx, || self.io.peek_from(b)))
    }

    /// Runs `op` once readable, waiting again while it would block.
    fn poll_read_op<R>(
        &self,
        cx: &mut Context<'_>,
        op: impl FnMut() -> io::Result<R>,
    ) -> Poll<io::Result<R>> {
        self.io.registration().poll_io(cx, Direction::Read, op)
    }

    /// Reads the next datagram from the connected peer without removing it
    /// from the queue.
    pub async fn peek(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.io
            .registration()
            .async_io(Interest::READABLE, || self.io.peek(buf))
            .await
    }

    /// [`peek`](Self::peek) without waiting.
    pub fn try_peek(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.io
            .registration()
            .try_io(Interest::READABLE, || self.io.peek(buf))
    }

    /// Receives without waiting: `WouldBlock` if no datagram is queued.
    pub fn try_recv(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.io
            .registration()
            .try_io(Interest::READABLE, || self.io.recv(buf))
    }

    /// Receives one datagram from the connected peer into the spare room
    /// of `buf`, which advances by the datagram's length (a longer one is
    /// cut to the room of one chunk).
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

    /// Sends `buf` to the first address `target` resolves to.
    pub async fn send_to<A: ToSocketAddrs>(&self, buf: &[u8], target: A) -> io::Result<usize> {
        let target = resolve(target).await?.into_iter().next().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "no addresses to send data to")
        })?;
        self.io
            .registration()
            .async_io(Interest::WRITABLE, || self.io.send_to(buf, target))
            .await
    }

    /// Polls a send of `buf` to `target`.
    pub fn poll_send_to(
        &self,
        cx: &mut Context<'_>,
        buf: &[u8],
        target: SocketAddr,
    ) -> Poll<io::Result<usize>> {
        self.io
            .registration()
            .poll_io(cx, Direction::Write, || self.io.send_to(buf, target))
    }

    /// Sends to `target` without waiting.
    pub fn try_send_to(&self, buf: &[u8], target: SocketAddr) -> io::Result<usize> {
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

    /// Receives one datagram without waiting.
    pub fn try_recv_from(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        self.io
            .registration()
            .try_io(Interest::READABLE, || self.io.recv_from(buf))
    }

    /// Reads the next datagram and its sender without removing it.
    pub async fn peek_from(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        self.io
            .registration()
            .async_io(Interest::READABLE, || self.io.peek_from(buf))
            .await
    }

    /// [`peek_from`](Self::peek_from) without waiting.
    pub fn try_peek_from(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        self.io
            .registration()
            .try_io(Interest::READABLE, || self.io.peek_from(buf))
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

    /// Whether `SO_BROADCAST` is set.
    pub fn broadcast(&self) -> io::Result<bool> {
        self.io.broadcast()
    }

    /// Sets `SO_BROADCAST`: allow sending to a broadcast address.
    pub fn set_broadcast(&self, on: bool) -> io::Result<()> {
        self.io.set_broadcast(on)
    }

    /// Whether IPv4 multicast sent here loops back to local sockets.
    pub fn multicast_loop_v4(&self) -> io::Result<bool> {
        self.io.multicast_loop_v4()
    }

    /// Sets `IP_MULTICAST_LOOP`.
    pub fn set_multicast_loop_v4(&self, on: bool) -> io::Result<()> {
        self.io.set_multicast_loop_v4(on)
    }

    /// The IPv4 multicast time-to-live.
    pub fn multicast_ttl_v4(&self) -> io::Result<u32> {
        self.io.multicast_ttl_v4()
    }

    /// Sets `IP_MULTICAST_TTL`.
    pub fn set_multicast_ttl_v4(&self, ttl: u32) -> io::Result<()> {
        self.io.set_multicast_ttl_v4(ttl)
    }

    /// Whether IPv6 multicast sent here loops back to local sockets.
    pub fn multicast_loop_v6(&self) -> io::Result<bool> {
        self.io.multicast_loop_v6()
    }

    /// Sets `IPV6_MULTICAST_LOOP`.
    pub fn set_multicast_loop_v6(&self, on: bool) -> io::Result<()> {
        self.io.set_multicast_loop_v6(on)
    }

    /// The IP time-to-live of outgoing packets.
    pub fn ttl(&self) -> io::Result<u32> {
        self.io.ttl()
    }

    /// Sets the IP time-to-live.
    pub fn set_ttl(&self, ttl: u32) -> io::Result<()> {
        self.io.set_ttl(ttl)
    }

    /// Joins the IPv4 multicast group `multiaddr` on the interface with
    /// address `interface` (`0.0.0.0` lets the OS choose).
    pub fn join_multicast_v4(&self, multiaddr: Ipv4Addr, interface: Ipv4Addr) -> io::Result<()> {
        self.io.join_multicast_v4(&multiaddr, &interface)
    }

    /// Leaves an IPv4 multicast group.
    pub fn leave_multicast_v4(&self, multiaddr: Ipv4Addr, interface: Ipv4Addr) -> io::Result<()> {
        self.io.leave_multicast_v4(&multiaddr, &interface)
    }

    /// Joins the IPv6 multicast group `multiaddr` on interface index
    /// `interface` (0 lets the OS choose).
    pub fn join_multicast_v6(&self, multiaddr: &Ipv6Addr, interface: u32) -> io::Result<()> {
        self.io.join_multicast_v6(multiaddr, interface)
    }

    /// Leaves an IPv6 multicast group.
    pub fn leave_multicast_v6(&self, multiaddr: &Ipv6Addr, interface: u32) -> io::Result<()> {
        self.io.leave_multicast_v6(multiaddr, interface)
    }

    /// Takes the pending socket error, if any.
    pub fn take_error(&self) -> io::Result<Option<io::Error>> {
        self.io.take_error()
    }
}

impl TryFrom<std::net::UdpSocket> for UdpSocket {
    type Error = io::Error;

    fn try_from(socket: std::net::UdpSocket) -> io::Result<UdpSocket> {
        UdpSocket::from_std(socket)
    }
}

crate::net::fd::impl_as_fd!(UdpSocket);
