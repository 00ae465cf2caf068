//! The simulation behind `rt::net`: rt-io's seam traits implemented by the
//! simulated sockets, and the network a simulation publishes in its
//! runtime's driver handles (`Sim::run`).
//!
//! Each method is the simulated socket's own method of the same name; the
//! host a socket belongs to is the host whose task creates it, as for
//! `rt_sim::net`.

use super::addr::ToSimAddr;
use super::{TcpListener, TcpStream, UdpSocket};
use rt_io::io::ReadBuf;
use rt_io::net::sim_seam::{SimFuture, SimNetwork, SimTcpListener, SimTcpStream, SimUdpSocket};
use std::io;
use std::net::{Shutdown, SocketAddr};
use std::task::{Context, Poll};

/// The simulated network, as `rt::net` sees it.
#[derive(Debug)]
pub(crate) struct Network;

impl SimNetwork for Network {
    fn tcp_bind(&self, addr: SocketAddr) -> io::Result<Box<dyn SimTcpListener>> {
        Ok(Box::new(TcpListener::bind_now(addr)?))
    }

    fn tcp_connect(&self, addr: SocketAddr) -> SimFuture<io::Result<Box<dyn SimTcpStream>>> {
        Box::pin(async move {
            let stream: Box<dyn SimTcpStream> = Box::new(TcpStream::connect(addr).await?);
            Ok(stream)
        })
    }

    fn udp_bind(&self, addr: SocketAddr) -> io::Result<Box<dyn SimUdpSocket>> {
        Ok(Box::new(UdpSocket::bind_now(addr)?))
    }

    fn resolve(&self, host: &str) -> io::Result<Vec<SocketAddr>> {
        Ok(vec![host.to_sim_addr()?])
    }
}

impl SimTcpStream for TcpStream {
    fn poll_read(&self, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        self.poll_read_buf(cx, buf)
    }

    fn poll_peek(&self, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<usize>> {
        TcpStream::poll_peek(self, cx, buf)
    }

    fn poll_write(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.poll_write_bytes(cx, buf)
    }

    fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        TcpStream::poll_read_ready(self, cx)
    }

    fn poll_write_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        TcpStream::poll_write_ready(self, cx)
    }

    fn try_read(&self, buf: &mut [u8]) -> io::Result<usize> {
        TcpStream::try_read(self, buf)
    }

    fn try_write(&self, buf: &[u8]) -> io::Result<usize> {
        TcpStream::try_write(self, buf)
    }

    fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        match how {
            // Nothing more arrives that the reader would not read anyway.
            Shutdown::Read => Ok(()),
            Shutdown::Write | Shutdown::Both => self.shutdown_write(),
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        TcpStream::local_addr(self)
    }

    fn peer_addr(&self) -> io::Result<SocketAddr> {
        TcpStream::peer_addr(self)
    }
}

impl SimTcpListener for TcpListener {
    fn poll_accept(
        &self,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<(Box<dyn SimTcpStream>, SocketAddr)>> {
        TcpListener::poll_accept(self, cx).map_ok(|(stream, peer)| {
            let stream: Box<dyn SimTcpStream> = Box::new(stream);
            (stream, peer)
        })
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        TcpListener::local_addr(self)
    }
}

impl SimUdpSocket for UdpSocket {
    fn poll_send_to(
        &self,
        cx: &mut Context<'_>,
        buf: &[u8],
        target: SocketAddr,
    ) -> Poll<io::Result<usize>> {
        UdpSocket::poll_send_to(self, cx, buf, target)
    }

    fn poll_recv_from(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<SocketAddr>> {
        UdpSocket::poll_recv_from(self, cx, buf)
    }

    fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.poll_recv_ready(cx)
    }

    fn connect(&self, addr: SocketAddr) -> io::Result<()> {
        self.set_peer(addr);
        Ok(())
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        UdpSocket::local_addr(self)
    }

    fn peer_addr(&self) -> io::Result<SocketAddr> {
        UdpSocket::peer_addr(self)
    }
}
