//! `UdpSocket`: a datagram socket on a simulated host.

use super::addr::ToSimAddr;
use super::udp::UdpPort;
use crate::host::expect_current_host;
use crate::world::{current, SimHandle};
use rt_io::io::ReadBuf;
use std::future::poll_fn;
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

/// A UDP socket, as `rt::net::UdpSocket`.
#[derive(Debug)]
pub struct UdpSocket {
    sim: Arc<SimHandle>,
    host: usize,
    addr: SocketAddr,
    id: u64,
    /// The one peer after [`connect`](UdpSocket::connect).
    peer: Mutex<Option<SocketAddr>>,
}

fn gone() -> io::Error {
    io::Error::new(io::ErrorKind::NotConnected, "the socket's host crashed")
}

impl UdpSocket {
    /// Binds `addr` on the current host (an unspecified or loopback IP
    /// means the host's own address; port 0 picks a free port).
    ///
    /// # Panics
    ///
    /// Outside a host's task in a simulation.
    pub async fn bind(addr: impl ToSimAddr) -> io::Result<UdpSocket> {
        UdpSocket::bind_now(addr.to_sim_addr()?)
    }

    /// [`bind`](Self::bind), which never waits.
    pub(crate) fn bind_now(requested: SocketAddr) -> io::Result<UdpSocket> {
        let host = expect_current_host();
        let sim = current();
        let (addr, id) = sim.with(|w| {
            let addr = w.local_addr_for(host, requested, |w, a| w.udp.ports.contains_key(&a))?;
            let id = w.udp.next_id;
            w.udp.next_id += 1;
            w.udp.ports.insert(
                addr,
                UdpPort {
                    id,
                    host,
                    queue: Default::default(),
                    waker: None,
                },
            );
            io::Result::Ok((addr, id))
        })?;
        Ok(UdpSocket {
            sim,
            host,
            addr,
            id,
            peer: Mutex::new(None),
        })
    }

    /// Ready when a datagram is queued (from the connected peer, once
    /// connected), or the socket's host crashed.
    pub fn poll_recv_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.sim.with(|w| {
            let Some(port) = w.udp.ports.get_mut(&self.addr).filter(|p| p.id == self.id) else {
                return Poll::Ready(Err(gone()));
            };
            let peer = self.peer();
            if port
                .queue
                .iter()
                .any(|(from, _)| peer.is_none() || peer == Some(*from))
            {
                return Poll::Ready(Ok(()));
            }
            port.waker = Some(cx.waker().clone());
            Poll::Pending
        })
    }

    /// Sets the one peer that [`send`](Self::send) sends to and
    /// [`recv`](Self::recv) receives from; datagrams from anyone else are
    /// dropped from then on.
    pub async fn connect(&self, addr: impl ToSimAddr) -> io::Result<()> {
        self.set_peer(addr.to_sim_addr()?);
        Ok(())
    }

    pub(crate) fn set_peer(&self, addr: SocketAddr) {
        *self.peer.lock().unwrap_or_else(|p| p.into_inner()) = Some(addr);
    }

    /// The peer set by [`connect`](Self::connect).
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.peer().ok_or_else(|| {
            io::Error::new(io::ErrorKind::NotConnected, "the socket is not connected")
        })
    }

    fn peer(&self) -> Option<SocketAddr> {
        *self.peer.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sends `buf` to the connected peer.
    pub fn poll_send(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match self.peer_addr() {
            Ok(peer) => self.poll_send_to(cx, buf, peer),
            Err(error) => Poll::Ready(Err(error)),
        }
    }

    /// Sends `buf` to the connected peer.
    pub async fn send(&self, buf: &[u8]) -> io::Result<usize> {
        poll_fn(|cx| self.poll_send(cx, buf)).await
    }

    /// Receives the next datagram from the connected peer into `buf`.
    pub fn poll_recv(&self, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        self.peer_addr()?;
        self.poll_recv_from(cx, buf).map_ok(|_| ())
    }

    /// Receives the next datagram from the connected peer; its length.
    pub async fn recv(&self, buf: &mut [u8]) -> io::Result<usize> {
        let mut buf = ReadBuf::new(buf);
        poll_fn(|cx| self.poll_recv(cx, &mut buf)).await?;
        Ok(buf.filled().len())
    }

    /// The bound address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        Ok(self.addr)
    }

    /// Sends `buf` to `target`; a datagram is never refused, only lost.
    pub fn poll_send_to(
        &self,
        _cx: &mut Context<'_>,
        buf: &[u8],
        target: SocketAddr,
    ) -> Poll<io::Result<usize>> {
        Poll::Ready(self.sim.with(|w| {
            if !w.udp.ports.get(&self.addr).is_some_and(|p| p.id == self.id) {
                return Err(gone());
            }
            w.udp_send(self.host, self.addr, target, buf);
            Ok(buf.len())
        }))
    }

    /// Sends `buf` to `target`.
    pub async fn send_to(&self, buf: &[u8], target: impl ToSimAddr) -> io::Result<usize> {
        let target = target.to_sim_addr()?;
        poll_fn(|cx| self.poll_send_to(cx, buf, target)).await
    }

    /// Receives the next datagram into `buf` (the rest of a longer one is
    /// discarded) and gives its sender.
    pub fn poll_recv_from(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<SocketAddr>> {
        self.sim.with(|w| {
            let Some(port) = w.udp.ports.get_mut(&self.addr).filter(|p| p.id == self.id) else {
                return Poll::Ready(Err(gone()));
            };
            let peer = self.peer();
            // A connected socket drops what comes from anyone else.
            while let Some((from, _)) = port.queue.front() {
                if peer.is_none() || peer == Some(*from) {
                    break;
                }
                port.queue.pop_front();
            }
            match port.queue.pop_front() {
                Some((from, data)) => {
                    let n = data.len().min(buf.remaining());
                    buf.put_slice(&data[..n]);
                    Poll::Ready(Ok(from))
                }
                None => {
                    port.waker = Some(cx.waker().clone());
                    Poll::Pending
                }
            }
        })
    }

    /// Receives the next datagram: its length and its sender.
    pub async fn recv_from(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        let mut buf = ReadBuf::new(buf);
        let from = poll_fn(|cx| self.poll_recv_from(cx, &mut buf)).await?;
        Ok((buf.filled().len(), from))
    }
}

impl Drop for UdpSocket {
    fn drop(&mut self) {
        self.sim.with(|w| {
            if w.udp.ports.get(&self.addr).is_some_and(|p| p.id == self.id) {
                w.udp.ports.remove(&self.addr);
            }
        });
    }
}
