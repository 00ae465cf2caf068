//! `TcpStream`: a connected TCP socket driven by the reactor.

use crate::io::ReadBuf;
use crate::net::addr::{each_addr, ToSocketAddrs};
use crate::net::connected::StreamIo;
use crate::net::fill::poll_fill;
use crate::net::sim_dispatch::{SimOr, TcpIo};
use crate::net::sim_seam::{self, SimTcpStream};
use crate::net::tcp::split::{split, ReadHalf, WriteHalf};
use crate::net::tcp::split_owned::{split_owned, OwnedReadHalf, OwnedWriteHalf};
use crate::reactor::Interest;
use crate::sys::FromRaw;
use std::io;
use std::net::SocketAddr;
use std::task::{Context, Poll};
use std::time::Duration;

/// A TCP connection between a local and a remote socket.
///
/// Create one with [`connect`](TcpStream::connect) or by accepting on a
/// [`TcpListener`](crate::net::TcpListener). Reads and writes take `&self`,
/// so a stream can be shared by reference; [`split`](TcpStream::split) and
/// [`into_split`](TcpStream::into_split) give halves for two tasks.
///
/// ```
/// use rt_io::net::{TcpListener, TcpStream};
/// # rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build().unwrap().block_on(async {
/// let listener = TcpListener::bind("127.0.0.1:0").await?;
/// let client = TcpStream::connect(listener.local_addr()?).await?;
/// let (server, _) = listener.accept().await?;
/// client.writable().await?;
/// assert_eq!(client.try_write(b"hi")?, 2);
/// server.readable().await?;
/// let mut buf = [0; 2];
/// assert_eq!(server.try_read(&mut buf)?, 2);
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct TcpStream {
    io: TcpIo,
}

impl TcpStream {
    /// Connects to `addr`, trying each resolved address in order until one
    /// accepts; fails with the last address's error.
    pub async fn connect<A: ToSocketAddrs>(addr: A) -> io::Result<TcpStream> {
        each_addr(addr, TcpStream::connect_addr).await
    }

    async fn connect_addr(addr: SocketAddr) -> io::Result<TcpStream> {
        // Only the simulated connect's boxed future lives across the
        // await, not the network's handle: a smaller state to drop.
        if let Some(connecting) = sim_seam::current().map(|sim| sim.network().tcp_connect(addr)) {
            return Ok(TcpStream::from_sim(connecting.await?));
        }
        let sys = mio::net::TcpStream::connect(addr)?;
        TcpStream::connect_mio(sys).await
    }

    /// Waits for a non-blocking connect on `sys` to finish.
    pub(crate) async fn connect_mio(sys: mio::net::TcpStream) -> io::Result<TcpStream> {
        Ok(TcpStream {
            io: SimOr::Real(StreamIo::connect(sys).await?),
        })
    }

    /// Wraps a socket just accepted: it starts out assumed readable and
    /// writable, so that the first read or write tries the socket instead
    /// of waiting for the driver's first event (data may have arrived
    /// before the accept).
    #[track_caller]
    pub(crate) fn accepted(sys: mio::net::TcpStream) -> io::Result<TcpStream> {
        let stream = TcpStream::new(sys)?;
        stream
            .io
            .assume_ready(crate::reactor::Ready::READABLE | crate::reactor::Ready::WRITABLE);
        Ok(stream)
    }

    #[track_caller]
    pub(crate) fn new(sys: mio::net::TcpStream) -> io::Result<TcpStream> {
        Ok(TcpStream {
            io: SimOr::Real(StreamIo::new(sys)?),
        })
    }

    /// Wraps one end of a simulated connection.
    pub(crate) fn from_sim(stream: Box<dyn SimTcpStream>) -> TcpStream {
        TcpStream {
            io: SimOr::Sim(stream),
        }
    }

    /// Wraps a connected standard stream. The stream is switched to
    /// non-blocking mode.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn from_std(stream: std::net::TcpStream) -> io::Result<TcpStream> {
        sim_seam::refuse_inside("TcpStream::from_std")?;
        stream.set_nonblocking(true)?;
        TcpStream::new(mio::net::TcpStream::from_std(stream))
    }

    /// Deregisters the stream and returns it as a standard stream, still in
    /// non-blocking mode.
    pub fn into_std(self) -> io::Result<std::net::TcpStream> {
        let raw = self.io.into_raw()?;
        // SAFETY: `raw` was just released by the mio stream that owned it,
        // so the new owner is its only owner.
        Ok(unsafe { std::net::TcpStream::from_raw(raw) })
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        if let SimOr::Sim(sim) = &self.io {
            return sim.local_addr();
        }
        self.io.source().local_addr()
    }

    /// The remote address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        if let SimOr::Sim(sim) = &self.io {
            return sim.peer_addr();
        }
        self.io.source().peer_addr()
    }

    /// Whether `TCP_NODELAY` is set.
    pub fn nodelay(&self) -> io::Result<bool> {
        // A simulated stream sends each write at once.
        if let SimOr::Sim(_) = &self.io {
            return Ok(true);
        }
        self.io.source().nodelay()
    }

    /// Sets `TCP_NODELAY`: send small writes at once instead of coalescing.
    pub fn set_nodelay(&self, nodelay: bool) -> io::Result<()> {
        if let SimOr::Sim(_) = &self.io {
            return Ok(());
        }
        self.io.source().set_nodelay(nodelay)
    }

    /// The `SO_LINGER` setting.
    pub fn linger(&self) -> io::Result<Option<Duration>> {
        socket2::SockRef::from(self).linger()
    }

    /// Sets `SO_LINGER`: how long closing waits for unsent data.
    /// `Some(Duration::ZERO)` makes close reset the connection.
    pub fn set_linger(&self, dur: Option<Duration>) -> io::Result<()> {
        socket2::SockRef::from(self).set_linger(dur)
    }

    /// Sets `SO_LINGER` to zero: dropping the stream then resets the
    /// connection at once instead of sending what is left.
    pub fn set_zero_linger(&self) -> io::Result<()> {
        socket2::SockRef::from(self).set_linger(Some(Duration::ZERO))
    }

    /// Whether `TCP_QUICKACK` is on (acknowledgements sent at once rather
    /// than delayed). Linux resets it on its own; read it back to know.
    #[cfg(any(target_os = "linux", target_os = "android", target_os = "fuchsia"))]
    pub fn quickack(&self) -> io::Result<bool> {
        socket2::SockRef::from(self).tcp_quickack()
    }

    /// Sets `TCP_QUICKACK`.
    #[cfg(any(target_os = "linux", target_os = "android", target_os = "fuchsia"))]
    pub fn set_quickack(&self, quickack: bool) -> io::Result<()> {
        socket2::SockRef::from(self).set_tcp_quickack(quickack)
    }

    /// The IP time-to-live of outgoing packets.
    pub fn ttl(&self) -> io::Result<u32> {
        self.io.source().ttl()
    }

    /// Sets the IP time-to-live of outgoing packets.
    pub fn set_ttl(&self, ttl: u32) -> io::Result<()> {
        self.io.source().set_ttl(ttl)
    }

    /// Reads data without removing it from the receive queue.
    pub async fn peek(&self, buf: &mut [u8]) -> io::Result<usize> {
        if let SimOr::Sim(_) = &self.io {
            let mut buf = ReadBuf::new(buf);
            return std::future::poll_fn(|cx| self.poll_peek(cx, &mut buf)).await;
        }
        self.io
            .async_io(Interest::READABLE, || self.io.source().peek(buf))
            .await
    }

    /// Polls a [`peek`](Self::peek) into the unfilled part of `buf`,
    /// advancing it by the count peeked, which is also returned. Only the
    /// last task to poll a read on this stream is woken.
    pub fn poll_peek(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<usize>> {
        if let Some(peeked) = self.io.poll_peek(cx, buf) {
            return peeked;
        }
        poll_fill(buf, |unfilled| {
            self.io
                .poll_read_with(cx, || self.io.source().peek(unfilled))
                .map_ok(|n| (n, n))
        })
    }
}

crate::net::connected::stream_api!(TcpStream);

impl TryFrom<std::net::TcpStream> for TcpStream {
    type Error = io::Error;

    fn try_from(stream: std::net::TcpStream) -> io::Result<TcpStream> {
        TcpStream::from_std(stream)
    }
}
