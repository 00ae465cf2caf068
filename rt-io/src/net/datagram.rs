//! `DatagramIo<S>`: the reactor-driven datagram socket that `UdpSocket` and
//! `UnixDatagram` are both built on, and the macro that gives each of them
//! the public methods they share.
//!
//! The two datagram types differ in how they are created, in the address
//! types, and in a few UDP-only calls (peeking, multicast options);
//! readiness, sends and receives are the same code over a different mio
//! source, so that code lives here once, as `connected.rs` does for the
//! stream types.

use crate::io::ReadBuf;
use crate::net::fill::{fill_buf_mut, poll_fill};
use crate::net::socket_io::{SocketIo, SocketSource};
use crate::reactor::Interest;
use bytes::BufMut;
use std::future::Future;
use std::io;
#[cfg(unix)]
use std::path::Path;
use std::task::{Context, Poll};

/// A mio datagram source: the calls `DatagramIo` makes on it.
pub(crate) trait DatagramSource: SocketSource {
    /// The address a datagram comes from.
    type Addr;
    /// What a datagram may be sent to.
    type Target: ?Sized;
    /// Sends to the connected peer.
    fn send(&self, buf: &[u8]) -> io::Result<usize>;
    /// Sends to `target`.
    fn send_to(&self, buf: &[u8], target: &Self::Target) -> io::Result<usize>;
    /// Receives one datagram from the connected peer.
    fn recv(&self, buf: &mut [u8]) -> io::Result<usize>;
    /// Receives one datagram and its sender.
    fn recv_from(&self, buf: &mut [u8]) -> io::Result<(usize, Self::Addr)>;
}

impl DatagramSource for mio::net::UdpSocket {
    type Addr = std::net::SocketAddr;
    type Target = std::net::SocketAddr;

    fn send(&self, buf: &[u8]) -> io::Result<usize> {
        mio::net::UdpSocket::send(self, buf)
    }

    fn send_to(&self, buf: &[u8], target: &std::net::SocketAddr) -> io::Result<usize> {
        mio::net::UdpSocket::send_to(self, buf, *target)
    }

    fn recv(&self, buf: &mut [u8]) -> io::Result<usize> {
        mio::net::UdpSocket::recv(self, buf)
    }

    fn recv_from(&self, buf: &mut [u8]) -> io::Result<(usize, std::net::SocketAddr)> {
        mio::net::UdpSocket::recv_from(self, buf)
    }
}

#[cfg(unix)]
impl DatagramSource for mio::net::UnixDatagram {
    type Addr = std::os::unix::net::SocketAddr;
    type Target = Path;

    fn send(&self, buf: &[u8]) -> io::Result<usize> {
        mio::net::UnixDatagram::send(self, buf)
    }

    fn send_to(&self, buf: &[u8], target: &Path) -> io::Result<usize> {
        mio::net::UnixDatagram::send_to(self, buf, target)
    }

    fn recv(&self, buf: &mut [u8]) -> io::Result<usize> {
        mio::net::UnixDatagram::recv(self, buf)
    }

    fn recv_from(&self, buf: &mut [u8]) -> io::Result<(usize, std::os::unix::net::SocketAddr)> {
        mio::net::UnixDatagram::recv_from(self, buf)
    }
}

/// A datagram socket registered with the reactor.
pub(crate) type DatagramIo<S> = SocketIo<S>;

impl<S: DatagramSource> SocketIo<S> {
    pub(crate) fn send<'a>(
        &'a self,
        buf: &'a [u8],
    ) -> impl Future<Output = io::Result<usize>> + 'a {
        self.async_io(Interest::WRITABLE, move || self.source().send(buf))
    }

    pub(crate) fn poll_send(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.poll_write_with(cx, || self.source().send(buf))
    }

    pub(crate) fn try_send(&self, buf: &[u8]) -> io::Result<usize> {
        self.try_io(Interest::WRITABLE, || self.source().send(buf))
    }

    pub(crate) fn send_to<'a>(
        &'a self,
        buf: &'a [u8],
        target: &'a S::Target,
    ) -> impl Future<Output = io::Result<usize>> + 'a {
        self.async_io(Interest::WRITABLE, move || {
            self.source().send_to(buf, target)
        })
    }

    pub(crate) fn poll_send_to(
        &self,
        cx: &mut Context<'_>,
        buf: &[u8],
        target: &S::Target,
    ) -> Poll<io::Result<usize>> {
        self.poll_write_with(cx, || self.source().send_to(buf, target))
    }

    pub(crate) fn try_send_to(&self, buf: &[u8], target: &S::Target) -> io::Result<usize> {
        self.try_io(Interest::WRITABLE, || self.source().send_to(buf, target))
    }

    pub(crate) fn recv<'a>(
        &'a self,
        buf: &'a mut [u8],
    ) -> impl Future<Output = io::Result<usize>> + 'a {
        self.async_io(Interest::READABLE, move || self.source().recv(buf))
    }

    pub(crate) fn try_recv(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.try_io(Interest::READABLE, || self.source().recv(buf))
    }

    pub(crate) fn poll_recv(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        poll_fill(buf, |b| {
            self.poll_read_with(cx, || self.source().recv(b).map(|n| (n, ())))
        })
    }

    pub(crate) fn recv_from<'a>(
        &'a self,
        buf: &'a mut [u8],
    ) -> impl Future<Output = io::Result<(usize, S::Addr)>> + 'a {
        self.async_io(Interest::READABLE, move || self.source().recv_from(buf))
    }

    pub(crate) fn try_recv_from(&self, buf: &mut [u8]) -> io::Result<(usize, S::Addr)> {
        self.try_io(Interest::READABLE, || self.source().recv_from(buf))
    }

    pub(crate) fn poll_recv_from(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<S::Addr>> {
        poll_fill(buf, |b| {
            self.poll_read_with(cx, || self.source().recv_from(b))
        })
    }

    pub(crate) async fn recv_buf<B: BufMut>(&self, buf: &mut B) -> io::Result<usize> {
        self.async_io(Interest::READABLE, || self.recv_into(buf))
            .await
    }

    pub(crate) fn try_recv_buf<B: BufMut>(&self, buf: &mut B) -> io::Result<usize> {
        self.try_io(Interest::READABLE, || self.recv_into(buf))
    }

    pub(crate) async fn recv_buf_from<B: BufMut>(
        &self,
        buf: &mut B,
    ) -> io::Result<(usize, S::Addr)> {
        self.async_io(Interest::READABLE, || self.recv_from_into(buf))
            .await
    }

    pub(crate) fn try_recv_buf_from<B: BufMut>(&self, buf: &mut B) -> io::Result<(usize, S::Addr)> {
        self.try_io(Interest::READABLE, || self.recv_from_into(buf))
    }

    /// One non-blocking receive into the spare room of `buf`.
    fn recv_into<B: BufMut>(&self, buf: &mut B) -> io::Result<usize> {
        fill_buf_mut(buf, |b| self.source().recv(b).map(|n| (n, n)))
    }

    /// One non-blocking receive, with its sender, into the spare room of
    /// `buf`.
    fn recv_from_into<B: BufMut>(&self, buf: &mut B) -> io::Result<(usize, S::Addr)> {
        fill_buf_mut(buf, |b| {
            self.source().recv_from(b).map(|(n, from)| (n, (n, from)))
        })
    }
}

/// The public methods `UdpSocket` and `UnixDatagram` share, each a thin
/// call into the type's `io: DatagramIo<_>` field, together with the
/// readiness methods of every socket and the descriptor traits. `$addr` is the type's sender address.
macro_rules! datagram_api {
    ($socket:ident, $addr:ty) => {
        impl $socket {
            /// Polls for read readiness.
            pub fn poll_recv_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                self.io.poll_read_ready(cx)
            }

            /// Polls for write readiness.
            pub fn poll_send_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                self.io.poll_write_ready(cx)
            }

            /// Sends to the connected peer; returns the bytes sent.
            pub async fn send(&self, buf: &[u8]) -> io::Result<usize> {
                self.io.send(buf).await
            }

            /// Polls a [`send`](Self::send).
            pub fn poll_send(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
                self.io.poll_send(cx, buf)
            }

            /// Sends without waiting: `WouldBlock` if not writable.
            pub fn try_send(&self, buf: &[u8]) -> io::Result<usize> {
                self.io.try_send(buf)
            }

            /// Receives one datagram from the connected peer into `buf`;
            /// excess bytes of a longer datagram are discarded.
            pub async fn recv(&self, buf: &mut [u8]) -> io::Result<usize> {
                self.io.recv(buf).await
            }

            /// Receives without waiting: `WouldBlock` if no datagram is
            /// queued.
            pub fn try_recv(&self, buf: &mut [u8]) -> io::Result<usize> {
                self.io.try_recv(buf)
            }

            /// Polls a [`recv`](Self::recv) into the unfilled part of `buf`,
            /// which advances by the datagram's length. Only the last task
            /// to poll a receive is woken.
            pub fn poll_recv(
                &self,
                cx: &mut Context<'_>,
                buf: &mut ReadBuf<'_>,
            ) -> Poll<io::Result<()>> {
                self.io.poll_recv(cx, buf)
            }

            /// Receives one datagram and its sender's address.
            pub async fn recv_from(&self, buf: &mut [u8]) -> io::Result<(usize, $addr)> {
                self.io.recv_from(buf).await
            }

            /// Receives one datagram and its sender without waiting.
            pub fn try_recv_from(&self, buf: &mut [u8]) -> io::Result<(usize, $addr)> {
                self.io.try_recv_from(buf)
            }

            /// Polls a [`recv_from`](Self::recv_from) into the unfilled part
            /// of `buf`; returns the sender's address.
            pub fn poll_recv_from(
                &self,
                cx: &mut Context<'_>,
                buf: &mut ReadBuf<'_>,
            ) -> Poll<io::Result<$addr>> {
                self.io.poll_recv_from(cx, buf)
            }

            /// Receives one datagram from the connected peer into the spare
            /// room of `buf`, which advances by the datagram's length (a
            /// longer one is cut to the room of one chunk).
            pub async fn recv_buf<B: BufMut>(&self, buf: &mut B) -> io::Result<usize> {
                self.io.recv_buf(buf).await
            }

            /// [`recv_buf`](Self::recv_buf) without waiting.
            pub fn try_recv_buf<B: BufMut>(&self, buf: &mut B) -> io::Result<usize> {
                self.io.try_recv_buf(buf)
            }

            /// Receives one datagram into the spare room of `buf` and
            /// returns its length and sender.
            pub async fn recv_buf_from<B: BufMut>(
                &self,
                buf: &mut B,
            ) -> io::Result<(usize, $addr)> {
                self.io.recv_buf_from(buf).await
            }

            /// [`recv_buf_from`](Self::recv_buf_from) without waiting.
            pub fn try_recv_buf_from<B: BufMut>(&self, buf: &mut B) -> io::Result<(usize, $addr)> {
                self.io.try_recv_buf_from(buf)
            }
        }

        crate::net::socket_io::readiness_api!($socket, "socket");
        crate::sys::impl_as_socket!(io: $socket);
    };
}

pub(crate) use datagram_api;
