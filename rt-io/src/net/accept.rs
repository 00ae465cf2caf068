//! `ListenerIo<L>`: the reactor-driven accept loop that `TcpListener` and
//! `UnixListener` share.

use crate::reactor::{Direction, Interest, PollEvented};
use crate::sys::{AsRaw, IntoRaw, RawSocket};
use std::future::Future;
use std::io;
use std::task::{Context, Poll};

/// A mio listener, and how an accepted connection becomes a registered
/// stream of the matching rt type.
pub(crate) trait AcceptSource: mio::event::Source + AsRaw + IntoRaw {
    /// The rt stream type of an accepted connection.
    type Stream;
    /// The peer address type.
    type Addr;

    /// One non-blocking `accept`, registering the new connection with the
    /// reactor.
    fn accept_stream(&self) -> io::Result<(Self::Stream, Self::Addr)>;
}

impl AcceptSource for mio::net::TcpListener {
    type Stream = super::TcpStream;
    type Addr = std::net::SocketAddr;

    fn accept_stream(&self) -> io::Result<(super::TcpStream, std::net::SocketAddr)> {
        let (sys, addr) = self.accept()?;
        Ok((super::TcpStream::accepted(sys)?, addr))
    }
}

#[cfg(unix)]
impl AcceptSource for mio::net::UnixListener {
    type Stream = super::UnixStream;
    type Addr = super::unix::SocketAddr;

    fn accept_stream(&self) -> io::Result<(super::UnixStream, super::unix::SocketAddr)> {
        let (sys, addr) = self.accept()?;
        Ok((super::UnixStream::accepted(sys)?, addr))
    }
}

/// A listening socket registered with the reactor for readability only.
#[derive(Debug)]
pub(crate) struct ListenerIo<L: AcceptSource> {
    io: PollEvented<L>,
}

impl<L: AcceptSource> ListenerIo<L> {
    #[track_caller]
    pub(crate) fn new(sys: L) -> io::Result<Self> {
        Ok(ListenerIo {
            io: PollEvented::new_with_interest(sys, Interest::READABLE)?,
        })
    }

    /// Waits for and accepts a connection. A failed accept (for example
    /// `EMFILE`) is returned as is and leaves the listener usable.
    /// The registration's future itself, not an `async fn` around it: no
    /// second state machine for each accept to poll through.
    pub(crate) fn accept(&self) -> impl Future<Output = io::Result<(L::Stream, L::Addr)>> + '_ {
        self.io
            .registration()
            .async_io(Interest::READABLE, || self.io.accept_stream())
    }

    pub(crate) fn poll_accept(
        &self,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<(L::Stream, L::Addr)>> {
        self.io
            .registration()
            .poll_io(cx, Direction::Read, || self.io.accept_stream())
    }

    /// The mio listener, for addresses and socket options.
    pub(crate) fn source(&self) -> &L {
        &self.io
    }

    /// Deregisters the listener and releases its descriptor.
    pub(crate) fn into_raw(self) -> io::Result<RawSocket> {
        Ok(self.io.into_inner()?.into_raw())
    }

    pub(crate) fn as_raw(&self) -> RawSocket {
        self.io.as_raw()
    }
}
