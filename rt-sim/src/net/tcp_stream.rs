//! `TcpStream`: one end of a simulated TCP connection.

use super::addr::ToSimAddr;
use super::tcp::{ConnId, EndState, Packet, CLIENT};
use crate::host::expect_current_host;
use crate::world::{current, SimHandle};
use rt_io::io::{AsyncRead, AsyncWrite, ReadBuf};
use std::future::poll_fn;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// A TCP connection, as `rt::net::TcpStream`: an ordered byte stream each
/// way, read and written through `AsyncRead` and `AsyncWrite`.
#[derive(Debug)]
pub struct TcpStream {
    sim: Arc<SimHandle>,
    conn: ConnId,
    end: usize,
    local: SocketAddr,
    peer: SocketAddr,
}

fn reset() -> io::Error {
    io::Error::new(io::ErrorKind::ConnectionReset, "connection reset by peer")
}

impl TcpStream {
    pub(crate) fn from_end(
        sim: Arc<SimHandle>,
        conn: ConnId,
        end: usize,
        local: SocketAddr,
        peer: SocketAddr,
    ) -> TcpStream {
        TcpStream {
            sim,
            conn,
            end,
            local,
            peer,
        }
    }

    /// Connects from the current host to `addr`: refused when nothing
    /// listens there, waiting while a partition cuts the way.
    ///
    /// # Panics
    ///
    /// Outside a host's task in a simulation.
    pub async fn connect(addr: impl ToSimAddr) -> io::Result<TcpStream> {
        let remote = addr.to_sim_addr()?;
        let host = expect_current_host();
        let sim = current();
        let stream = sim.with(|w| {
            let Some(peer) = w.host_of(host, remote.ip()) else {
                return Err(io::Error::new(
                    io::ErrorKind::ConnectionRefused,
                    format!("no simulated host has the address {}", remote.ip()),
                ));
            };
            let remote = SocketAddr::new(w.hosts[peer].ip, remote.port());
            let local = w.local_addr_for(host, "0.0.0.0:0".parse().unwrap(), |w, a| {
                w.tcp.listeners.contains_key(&a)
            })?;
            let conn = w.tcp_open(host, local, peer, remote);
            Ok(TcpStream::from_end(
                sim.clone(),
                conn,
                CLIENT,
                local,
                remote,
            ))
        })?;
        poll_fn(|cx| stream.poll_connected(cx)).await?;
        Ok(stream)
    }

    fn poll_connected(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.sim.with(|w| {
            let end = &mut w.tcp.conns.get_mut(&self.conn).expect("connecting").ends[self.end];
            match end.state {
                EndState::Connecting => {
                    end.read_waker = Some(cx.waker().clone());
                    Poll::Pending
                }
                EndState::Open => Poll::Ready(Ok(())),
                EndState::Refused => Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::ConnectionRefused,
                    format!("connection to {} refused", self.peer),
                ))),
                EndState::Reset | EndState::Closed => Poll::Ready(Err(reset())),
            }
        })
    }

    /// This end's address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        Ok(self.local)
    }

    /// The other end's address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        Ok(self.peer)
    }

    /// Copies what has arrived into `buf`, taking it from the stream when
    /// `take`; `Ok` with nothing copied is the end of the stream (the peer
    /// shut its side down). Registers `cx`'s waker when nothing is there.
    fn read_with(
        &self,
        cx: Option<&mut Context<'_>>,
        buf: &mut ReadBuf<'_>,
        take: bool,
    ) -> Poll<io::Result<()>> {
        self.sim.with(|w| {
            let Some(c) = w.tcp.conns.get_mut(&self.conn) else {
                return Poll::Ready(Err(reset()));
            };
            let (mine, theirs) = split(&mut c.ends, self.end);
            if mine.state == EndState::Reset || mine.state == EndState::Closed {
                return Poll::Ready(Err(reset()));
            }
            if !mine.recv.is_empty() {
                let n = mine.recv.len().min(buf.remaining());
                let (front, back) = mine.recv.as_slices();
                let from_front = n.min(front.len());
                buf.put_slice(&front[..from_front]);
                buf.put_slice(&back[..n - from_front]);
                if take && n > 0 {
                    mine.recv.drain(..n);
                    w.deferred.wake.extend(theirs.write_waker.take());
                }
                return Poll::Ready(Ok(()));
            }
            if mine.fin_received {
                return Poll::Ready(Ok(()));
            }
            if let Some(cx) = cx {
                mine.read_waker = Some(cx.waker().clone());
            }
            Poll::Pending
        })
    }

    /// Writes as much of `data` as the connection's buffer has room for.
    /// Registers `cx`'s waker when there is no room.
    fn write_with(&self, cx: Option<&mut Context<'_>>, data: &[u8]) -> Poll<io::Result<usize>> {
        self.sim.with(|w| {
            let capacity = w.config.tcp_buffer;
            let Some(c) = w.tcp.conns.get_mut(&self.conn) else {
                return Poll::Ready(Err(reset()));
            };
            let (mine, theirs) = split(&mut c.ends, self.end);
            if mine.state != EndState::Open {
                return Poll::Ready(Err(reset()));
            }
            if mine.fin_sent {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::BrokenPipe,
                    "the stream was shut down for writing",
                )));
            }
            let room = capacity.saturating_sub(mine.in_flight + theirs.recv.len());
            if room == 0 {
                if let Some(cx) = cx {
                    mine.write_waker = Some(cx.waker().clone());
                }
                return Poll::Pending;
            }
            let n = room.min(data.len());
            if n > 0 {
                w.tcp_send(self.conn, self.end, Packet::Data(data[..n].to_vec()));
            }
            Poll::Ready(Ok(n))
        })
    }

    /// Copies what has arrived into `buf` without taking it.
    pub fn poll_peek(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<usize>> {
        let before = buf.filled().len();
        self.read_with(Some(cx), buf, false)
            .map_ok(|()| buf.filled().len() - before)
    }

    /// Waits for data and copies it into `buf` without taking it.
    pub async fn peek(&self, buf: &mut [u8]) -> io::Result<usize> {
        let mut buf = ReadBuf::new(buf);
        poll_fn(|cx| self.poll_peek(cx, &mut buf)).await
    }

    /// Ready when a read would not wait: data, the end of the stream or an
    /// error is there.
    pub fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.read_with(Some(cx), &mut ReadBuf::new(&mut []), false)
            .map(|_| Ok(()))
    }

    /// Ready when a write would not wait: there is room, or an error.
    pub fn poll_write_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.write_with(Some(cx), &[]).map(|_| Ok(()))
    }

    /// Waits until [`try_read`](Self::try_read) would not fail with
    /// `WouldBlock`.
    pub async fn readable(&self) -> io::Result<()> {
        poll_fn(|cx| self.poll_read_ready(cx)).await
    }

    /// Waits until [`try_write`](Self::try_write) would not fail with
    /// `WouldBlock`.
    pub async fn writable(&self) -> io::Result<()> {
        poll_fn(|cx| self.poll_write_ready(cx)).await
    }

    /// Reads what has arrived without waiting: `WouldBlock` when nothing has.
    pub fn try_read(&self, buf: &mut [u8]) -> io::Result<usize> {
        let mut buf = ReadBuf::new(buf);
        match self.read_with(None, &mut buf, true) {
            Poll::Ready(result) => result.map(|()| buf.filled().len()),
            Poll::Pending => Err(io::ErrorKind::WouldBlock.into()),
        }
    }

    /// Writes what fits without waiting: `WouldBlock` when nothing does.
    pub fn try_write(&self, buf: &[u8]) -> io::Result<usize> {
        match self.write_with(None, buf) {
            Poll::Ready(result) => result,
            Poll::Pending => Err(io::ErrorKind::WouldBlock.into()),
        }
    }

    /// The hook for `AsyncRead::poll_read`.
    pub(crate) fn poll_read_buf(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.read_with(Some(cx), buf, true)
    }

    /// The hook for `AsyncWrite::poll_write`.
    pub(crate) fn poll_write_bytes(
        &self,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.write_with(Some(cx), buf)
    }

    /// Shuts the write direction down: the peer reads the end of the
    /// stream.
    pub(crate) fn shutdown_write(&self) -> io::Result<()> {
        match self.poll_shutdown_priv() {
            Poll::Ready(result) => result,
            Poll::Pending => Ok(()),
        }
    }

    fn poll_shutdown_priv(&self) -> Poll<io::Result<()>> {
        self.sim.with(|w| {
            let Some(c) = w.tcp.conns.get_mut(&self.conn) else {
                return Poll::Ready(Err(reset()));
            };
            let mine = &mut c.ends[self.end];
            match mine.state {
                EndState::Open if !mine.fin_sent => {
                    mine.fin_sent = true;
                    w.tcp_send(self.conn, self.end, Packet::Fin);
                    Poll::Ready(Ok(()))
                }
                EndState::Open => Poll::Ready(Ok(())),
                _ => Poll::Ready(Err(reset())),
            }
        })
    }
}

/// This end and the other, both borrowed mutably.
fn split<T>(ends: &mut [T; 2], mine: usize) -> (&mut T, &mut T) {
    let [a, b] = ends;
    if mine == 0 {
        (a, b)
    } else {
        (b, a)
    }
}

impl AsyncRead for TcpStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.poll_read_buf(cx, buf)
    }
}

impl AsyncWrite for TcpStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_write_bytes(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.poll_shutdown_priv()
    }
}

impl Drop for TcpStream {
    fn drop(&mut self) {
        self.sim.with(|w| w.tcp_release(self.conn, self.end));
    }
}
