//! `UdpSocket`: a datagram socket on a simulated host.

use super::addr::ToSimAddr;
use super::udp::UdpPort;
use crate::host::expect_current_host;
use crate::world::{current, SimHandle};
use rt_io::io::ReadBuf;
use std::future::poll_fn;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::task::{Context, Poll};

/// A UDP socket, as `rt::net::UdpSocket`.
#[derive(Debug)]
pub struct UdpSocket {
    sim: Arc<SimHandle>,
    host: usize,
    addr: SocketAddr,
    id: u64,
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
        let requested = addr.to_sim_addr()?;
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
        })
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
