//! `TcpListener`: a listening socket on a simulated host.

use super::addr::ToSimAddr;
use super::tcp::{Listener, SERVER};
use super::TcpStream;
use crate::host::expect_current_host;
use crate::world::{current, SimHandle};
use std::future::poll_fn;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::task::{Context, Poll};

/// A TCP socket that accepts connections, as `rt::net::TcpListener`.
#[derive(Debug)]
pub struct TcpListener {
    sim: Arc<SimHandle>,
    addr: SocketAddr,
    id: u64,
}

impl TcpListener {
    /// Listens on `addr` of the current host (an unspecified or loopback
    /// IP means the host's own address; port 0 picks a free port).
    ///
    /// # Panics
    ///
    /// Outside a host's task in a simulation.
    pub async fn bind(addr: impl ToSimAddr) -> io::Result<TcpListener> {
        TcpListener::bind_now(addr.to_sim_addr()?)
    }

    /// [`bind`](Self::bind), which never waits.
    pub(crate) fn bind_now(requested: SocketAddr) -> io::Result<TcpListener> {
        let host = expect_current_host();
        let sim = current();
        let (addr, id) = sim.with(|w| {
            let addr =
                w.local_addr_for(host, requested, |w, a| w.tcp.listeners.contains_key(&a))?;
            let id = w.tcp.next_listener;
            w.tcp.next_listener += 1;
            w.tcp.listeners.insert(
                addr,
                Listener {
                    id,
                    host,
                    backlog: Default::default(),
                    waker: None,
                },
            );
            w.record(format!("tcp listen {addr}"));
            io::Result::Ok((addr, id))
        })?;
        Ok(TcpListener { sim, addr, id })
    }

    /// Takes the next accepted connection, or registers the task to be
    /// woken when one arrives.
    pub fn poll_accept(&self, cx: &mut Context<'_>) -> Poll<io::Result<(TcpStream, SocketAddr)>> {
        let taken = self.sim.with(|w| {
            let Some(listener) = w
                .tcp
                .listeners
                .get_mut(&self.addr)
                .filter(|l| l.id == self.id)
            else {
                return Err(io::Error::new(
                    io::ErrorKind::NotConnected,
                    "the listener's host crashed",
                ));
            };
            match listener.backlog.pop_front() {
                Some(conn) => {
                    let peer = w.tcp.conns[&conn].ends[1 - SERVER].addr;
                    Ok(Some((conn, peer)))
                }
                None => {
                    listener.waker = Some(cx.waker().clone());
                    Ok(None)
                }
            }
        });
        match taken {
            Ok(Some((conn, peer))) => Poll::Ready(Ok((
                TcpStream::from_end(self.sim.clone(), conn, SERVER, self.addr, peer),
                peer,
            ))),
            Ok(None) => Poll::Pending,
            Err(error) => Poll::Ready(Err(error)),
        }
    }

    /// Waits for the next connection.
    pub async fn accept(&self) -> io::Result<(TcpStream, SocketAddr)> {
        poll_fn(|cx| self.poll_accept(cx)).await
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        Ok(self.addr)
    }
}

impl Drop for TcpListener {
    fn drop(&mut self) {
        self.sim.with(|w| {
            if w.tcp
                .listeners
                .get(&self.addr)
                .is_some_and(|l| l.id == self.id)
            {
                let listener = w.tcp.listeners.remove(&self.addr).expect("looked up above");
                w.record(format!("tcp unlisten {}", self.addr));
                w.tcp_forget_backlog(listener);
            }
        });
    }
}
