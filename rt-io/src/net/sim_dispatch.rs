//! `SimOr`: a socket's I/O, either its real reactor-driven socket or the
//! simulation's (see `sim_seam.rs`), chosen once when the socket is made.
//!
//! Each wrapper below has the methods of the `SocketIo` it wraps under the
//! same names, so the shared macros (`stream_api!`, `datagram_api!`,
//! `readiness_api!`) call them unchanged; each is one `match`. What only
//! a real socket has (its descriptor, socket options through `source()`)
//! is reached through `Deref`, which panics on a simulated socket saying
//! so; the calls that return a `Result` and name themselves fail with an
//! error instead (`sim_seam::escapes`).

use super::accept::{AcceptSource, ListenerIo};
use super::connected::StreamIo;
use super::datagram::DatagramIo;
use super::fill::fill_buf_mut;
use super::sim_seam::{escapes, SimTcpListener, SimTcpStream, SimUdpSocket};
use super::socket_io::{SocketIo, SocketSource};
use super::TcpStream;
use crate::io::ReadBuf;
use crate::reactor::{Interest, Ready};
use crate::sys::RawSocket;
use bytes::BufMut;
use std::future::{poll_fn, Future};
use std::io;
use std::mem::MaybeUninit;
use std::net::{Shutdown, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

/// A socket's I/O: the real socket `R` or a simulated one `S`.
#[derive(Debug)]
pub(crate) enum SimOr<R, S: ?Sized> {
    Real(R),
    Sim(Box<S>),
}

impl<R, S: ?Sized> std::ops::Deref for SimOr<R, S> {
    type Target = R;

    #[track_caller]
    fn deref(&self) -> &R {
        match self {
            SimOr::Real(real) => real,
            SimOr::Sim(_) => panic!(
                "rt::net: socket options and descriptors are not available on a simulated socket"
            ),
        }
    }
}

/// The descriptor of the real socket a [`SimOr`] may hold.
pub(crate) trait Descriptor {
    fn raw(&self) -> RawSocket;
    fn into_owned_raw(self) -> io::Result<RawSocket>;
}

impl<S: SocketSource> Descriptor for SocketIo<S> {
    fn raw(&self) -> RawSocket {
        self.as_raw()
    }

    fn into_owned_raw(self) -> io::Result<RawSocket> {
        self.into_raw()
    }
}

impl<L: AcceptSource> Descriptor for ListenerIo<L> {
    fn raw(&self) -> RawSocket {
        self.as_raw()
    }

    fn into_owned_raw(self) -> io::Result<RawSocket> {
        self.into_raw()
    }
}

impl<R: Descriptor, S: ?Sized> SimOr<R, S> {
    /// # Panics
    ///
    /// On a simulated socket, which has no descriptor.
    #[track_caller]
    pub(crate) fn as_raw(&self) -> RawSocket {
        match self {
            SimOr::Real(io) => io.raw(),
            SimOr::Sim(_) => {
                panic!("rt::net: as_raw_fd/as_fd: a simulated socket has no descriptor")
            }
        }
    }

    /// Fails on a simulated socket, naming `into_std`, the call that wants
    /// the descriptor.
    pub(crate) fn into_raw(self) -> io::Result<RawSocket> {
        match self {
            SimOr::Real(io) => io.into_owned_raw(),
            SimOr::Sim(_) => Err(escapes("into_std")),
        }
    }
}

pin_project_lite::pin_project! {
    /// The future of an async call on a [`SimOr`]: the real socket's own
    /// future, or the simulated one's. A plain future rather than an
    /// `async` block around the real one: the real future is polled with
    /// nothing but this `match` in between, not from inside a second
    /// state machine.
    #[project = EitherProj]
    pub(crate) enum Either<R, S> {
        Real { #[pin] fut: R },
        Sim { #[pin] fut: S },
    }
}

impl<R: Future, S: Future<Output = R::Output>> Future for Either<R, S> {
    type Output = R::Output;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<R::Output> {
        match self.project() {
            EitherProj::Real { fut } => fut.poll(cx),
            EitherProj::Sim { fut } => poll_out_of_line(fut, cx),
        }
    }
}

/// Polls a simulated socket's future in a function of its own, so that
/// the code of the simulated side does not weigh on the inlining of the
/// real side's future into its caller.
#[cold]
#[inline(never)]
fn poll_out_of_line<F: Future>(fut: Pin<&mut F>, cx: &mut Context<'_>) -> Poll<F::Output> {
    fut.poll(cx)
}

/// A datagram's length and sender.
type Received = (usize, SocketAddr);
/// An accepted connection and its peer.
type Accepted = (TcpStream, SocketAddr);

pub(crate) type TcpIo = SimOr<StreamIo<mio::net::TcpStream>, dyn SimTcpStream>;
pub(crate) type UdpIo = SimOr<DatagramIo<mio::net::UdpSocket>, dyn SimUdpSocket>;

/// Runs a simulated socket's poll once, without waiting: `WouldBlock` when
/// it is not ready (a simulated socket wakes the tasks that poll it; a
/// `try_` call registers nothing).
fn try_now<T>(poll: impl FnOnce(&mut Context<'_>) -> Poll<io::Result<T>>) -> io::Result<T> {
    struct Ignore;
    impl Wake for Ignore {
        fn wake(self: Arc<Self>) {}
    }
    let waker = Waker::from(Arc::new(Ignore));
    match poll(&mut Context::from_waker(&waker)) {
        Poll::Ready(result) => result,
        Poll::Pending => Err(io::ErrorKind::WouldBlock.into()),
    }
}

/// Readiness of a simulated socket for `interest`, from its read and write
/// readiness.
fn poll_sim_ready(
    cx: &mut Context<'_>,
    interest: Interest,
    read: impl FnOnce(&mut Context<'_>) -> Poll<io::Result<()>>,
    write: impl FnOnce(&mut Context<'_>) -> Poll<io::Result<()>>,
) -> Poll<io::Result<Ready>> {
    let mut ready = Ready::EMPTY;
    if interest.is_readable() {
        if let Poll::Ready(result) = read(cx) {
            result?;
            ready |= Ready::READABLE;
        }
    }
    if interest.is_writable() {
        if let Poll::Ready(result) = write(cx) {
            result?;
            ready |= Ready::WRITABLE;
        }
    }
    if ready == Ready::EMPTY {
        Poll::Pending
    } else {
        Poll::Ready(Ok(ready))
    }
}

/// What every socket does the same way on either side: readiness,
/// `try_io`/`async_io`, the pending error and the descriptor.
macro_rules! sim_or_common {
    ($io:ty) => {
        impl $io {
            pub(crate) fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                match self {
                    SimOr::Real(io) => io.poll_read_ready(cx),
                    SimOr::Sim(sim) => sim.poll_read_ready(cx),
                }
            }

            pub(crate) fn poll_write_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                match self {
                    SimOr::Real(io) => io.poll_write_ready(cx),
                    SimOr::Sim(sim) => sim.poll_write_ready(cx),
                }
            }

            pub(crate) fn take_error(&self) -> io::Result<Option<io::Error>> {
                match self {
                    SimOr::Real(io) => io.take_error(),
                    SimOr::Sim(_) => Ok(None),
                }
            }

            pub(crate) fn ready(
                &self,
                interest: Interest,
            ) -> Either<
                impl Future<Output = io::Result<Ready>> + '_,
                impl Future<Output = io::Result<Ready>> + '_,
            > {
                match self {
                    SimOr::Real(io) => Either::Real {
                        fut: io.ready(interest),
                    },
                    SimOr::Sim(sim) => Either::Sim {
                        fut: poll_fn(move |cx| {
                            poll_sim_ready(
                                cx,
                                interest,
                                |cx| sim.poll_read_ready(cx),
                                |cx| sim.poll_write_ready(cx),
                            )
                        }),
                    },
                }
            }

            /// On a simulated socket `f` runs at once: it can only act
            /// through the socket's own calls, which are simulated.
            pub(crate) fn try_io<R>(
                &self,
                interest: Interest,
                f: impl FnOnce() -> io::Result<R>,
            ) -> io::Result<R> {
                match self {
                    SimOr::Real(io) => io.try_io(interest, f),
                    SimOr::Sim(_) => f(),
                }
            }

            pub(crate) fn async_io<'a, R: 'a>(
                &'a self,
                interest: Interest,
                mut f: impl FnMut() -> io::Result<R> + 'a,
            ) -> Either<
                impl Future<Output = io::Result<R>> + 'a,
                impl Future<Output = io::Result<R>> + 'a,
            > {
                match self {
                    SimOr::Real(io) => Either::Real {
                        fut: io.async_io(interest, f),
                    },
                    SimOr::Sim(_) => Either::Sim {
                        fut: async move {
                            loop {
                                self.ready(interest).await?;
                                match f() {
                                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                                        rt_core::task::yield_now().await
                                    }
                                    other => return other,
                                }
                            }
                        },
                    },
                }
            }
        }
    };
}

sim_or_common!(TcpIo);
sim_or_common!(UdpIo);

impl TcpIo {
    pub(crate) fn try_read(&self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            SimOr::Real(io) => io.try_read(buf),
            SimOr::Sim(sim) => sim.try_read(buf),
        }
    }

    pub(crate) fn try_read_vectored(&self, bufs: &mut [io::IoSliceMut<'_>]) -> io::Result<usize> {
        match self {
            SimOr::Real(io) => io.try_read_vectored(bufs),
            SimOr::Sim(sim) => match bufs.iter_mut().find(|b| !b.is_empty()) {
                Some(buf) => sim.try_read(buf),
                None => Ok(0),
            },
        }
    }

    pub(crate) fn try_read_buf<B: BufMut>(&self, buf: &mut B) -> io::Result<usize> {
        match self {
            SimOr::Real(io) => io.try_read_buf(buf),
            SimOr::Sim(sim) => fill_buf_mut(buf, |b| sim.try_read(b).map(|n| (n, n))),
        }
    }

    pub(crate) fn try_write(&self, buf: &[u8]) -> io::Result<usize> {
        match self {
            SimOr::Real(io) => io.try_write(buf),
            SimOr::Sim(sim) => sim.try_write(buf),
        }
    }

    pub(crate) fn try_write_vectored(&self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        match self {
            SimOr::Real(io) => io.try_write_vectored(bufs),
            SimOr::Sim(sim) => match bufs.iter().find(|b| !b.is_empty()) {
                Some(buf) => sim.try_write(buf),
                None => Ok(0),
            },
        }
    }

    #[inline]
    pub(crate) fn poll_read(
        &self,
        cx: &mut Context<'_>,
        buf: &mut [MaybeUninit<u8>],
    ) -> Poll<io::Result<usize>> {
        match self {
            SimOr::Real(io) => io.poll_read(cx, buf),
            SimOr::Sim(sim) => sim_poll_read(&**sim, cx, buf),
        }
    }

    #[inline]
    pub(crate) fn poll_write(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match self {
            SimOr::Real(io) => io.poll_write(cx, buf),
            SimOr::Sim(sim) => sim_poll_write(&**sim, cx, buf),
        }
    }

    pub(crate) fn poll_write_vectored(
        &self,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self {
            SimOr::Real(io) => io.poll_write_vectored(cx, bufs),
            SimOr::Sim(sim) => match bufs.iter().find(|b| !b.is_empty()) {
                Some(buf) => sim.poll_write(cx, buf),
                None => Poll::Ready(Ok(0)),
            },
        }
    }

    pub(crate) fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        match self {
            SimOr::Real(io) => io.shutdown(how),
            SimOr::Sim(sim) => sim.shutdown(how),
        }
    }

    pub(crate) fn poll_peek(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Option<Poll<io::Result<usize>>> {
        match self {
            SimOr::Real(_) => None,
            SimOr::Sim(sim) => Some(sim.poll_peek(cx, buf)),
        }
    }
}

/// The simulated side of [`TcpIo::poll_read`], out of line for the same
/// reason as [`poll_out_of_line`]: a read is the one call of a stream that
/// every byte passes through, and its real side is inlined into the
/// caller's `poll_read`.
#[cold]
#[inline(never)]
fn sim_poll_read(
    sim: &dyn SimTcpStream,
    cx: &mut Context<'_>,
    buf: &mut [MaybeUninit<u8>],
) -> Poll<io::Result<usize>> {
    let mut buf = ReadBuf::uninit(buf);
    sim.poll_read(cx, &mut buf).map_ok(|()| buf.filled().len())
}

/// The simulated side of [`TcpIo::poll_write`], out of line like
/// [`sim_poll_read`].
#[cold]
#[inline(never)]
fn sim_poll_write(
    sim: &dyn SimTcpStream,
    cx: &mut Context<'_>,
    buf: &[u8],
) -> Poll<io::Result<usize>> {
    sim.poll_write(cx, buf)
}

impl UdpIo {
    #[inline]
    pub(crate) fn send<'a>(
        &'a self,
        buf: &'a [u8],
    ) -> Either<
        impl Future<Output = io::Result<usize>> + 'a,
        impl Future<Output = io::Result<usize>> + 'a,
    > {
        match self {
            SimOr::Real(io) => Either::Real { fut: io.send(buf) },
            SimOr::Sim(_) => Either::Sim {
                fut: poll_fn(move |cx| self.poll_send(cx, buf)),
            },
        }
    }

    pub(crate) fn poll_send(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match self {
            SimOr::Real(io) => io.poll_send(cx, buf),
            SimOr::Sim(sim) => match sim.peer_addr() {
                Ok(peer) => sim.poll_send_to(cx, buf, peer),
                Err(e) => Poll::Ready(Err(e)),
            },
        }
    }

    pub(crate) fn try_send(&self, buf: &[u8]) -> io::Result<usize> {
        match self {
            // The real socket's own `try_send`: polling would replace the
            // waker of a task that waits in `send`.
            SimOr::Real(io) => io.try_send(buf),
            SimOr::Sim(_) => try_now(|cx| self.poll_send(cx, buf)),
        }
    }

    #[inline]
    pub(crate) fn send_to<'a>(
        &'a self,
        buf: &'a [u8],
        target: &'a SocketAddr,
    ) -> Either<
        impl Future<Output = io::Result<usize>> + 'a,
        impl Future<Output = io::Result<usize>> + 'a,
    > {
        match self {
            SimOr::Real(io) => Either::Real {
                fut: io.send_to(buf, target),
            },
            SimOr::Sim(sim) => Either::Sim {
                fut: poll_fn(move |cx| sim.poll_send_to(cx, buf, *target)),
            },
        }
    }

    pub(crate) fn poll_send_to(
        &self,
        cx: &mut Context<'_>,
        buf: &[u8],
        target: &SocketAddr,
    ) -> Poll<io::Result<usize>> {
        match self {
            SimOr::Real(io) => io.poll_send_to(cx, buf, target),
            SimOr::Sim(sim) => sim.poll_send_to(cx, buf, *target),
        }
    }

    pub(crate) fn try_send_to(&self, buf: &[u8], target: &SocketAddr) -> io::Result<usize> {
        match self {
            SimOr::Real(io) => io.try_send_to(buf, target),
            SimOr::Sim(sim) => try_now(|cx| sim.poll_send_to(cx, buf, *target)),
        }
    }

    pub(crate) fn poll_recv_from(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<SocketAddr>> {
        match self {
            SimOr::Real(io) => io.poll_recv_from(cx, buf),
            SimOr::Sim(sim) => sim.poll_recv_from(cx, buf),
        }
    }

    pub(crate) fn poll_recv(
        &self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self {
            SimOr::Real(io) => io.poll_recv(cx, buf),
            SimOr::Sim(sim) => {
                sim.peer_addr()?;
                sim.poll_recv_from(cx, buf).map_ok(drop)
            }
        }
    }

    #[inline]
    pub(crate) fn recv<'a>(
        &'a self,
        buf: &'a mut [u8],
    ) -> Either<
        impl Future<Output = io::Result<usize>> + 'a,
        impl Future<Output = io::Result<usize>> + 'a,
    > {
        match self {
            SimOr::Real(io) => Either::Real { fut: io.recv(buf) },
            SimOr::Sim(_) => Either::Sim {
                fut: async move {
                    let mut buf = ReadBuf::new(buf);
                    poll_fn(|cx| self.poll_recv(cx, &mut buf)).await?;
                    Ok(buf.filled().len())
                },
            },
        }
    }

    pub(crate) fn try_recv(&self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            SimOr::Real(io) => io.try_recv(buf),
            SimOr::Sim(_) => {
                let mut buf = ReadBuf::new(buf);
                try_now(|cx| self.poll_recv(cx, &mut buf))?;
                Ok(buf.filled().len())
            }
        }
    }

    #[inline]
    pub(crate) fn recv_from<'a>(
        &'a self,
        buf: &'a mut [u8],
    ) -> Either<
        impl Future<Output = io::Result<Received>> + 'a,
        impl Future<Output = io::Result<Received>> + 'a,
    > {
        match self {
            SimOr::Real(io) => Either::Real {
                fut: io.recv_from(buf),
            },
            SimOr::Sim(sim) => Either::Sim {
                fut: async move {
                    let mut buf = ReadBuf::new(buf);
                    let from = poll_fn(|cx| sim.poll_recv_from(cx, &mut buf)).await?;
                    Ok((buf.filled().len(), from))
                },
            },
        }
    }

    pub(crate) fn try_recv_from(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        match self {
            SimOr::Real(io) => io.try_recv_from(buf),
            SimOr::Sim(sim) => {
                let mut buf = ReadBuf::new(buf);
                let from = try_now(|cx| sim.poll_recv_from(cx, &mut buf))?;
                Ok((buf.filled().len(), from))
            }
        }
    }

    pub(crate) fn recv_buf<'a, B: BufMut>(
        &'a self,
        buf: &'a mut B,
    ) -> Either<
        impl Future<Output = io::Result<usize>> + 'a,
        impl Future<Output = io::Result<usize>> + 'a,
    > {
        match self {
            SimOr::Real(io) => Either::Real {
                fut: io.recv_buf(buf),
            },
            SimOr::Sim(_) => Either::Sim {
                fut: async move {
                    self.ready(Interest::READABLE).await?;
                    self.try_recv_buf(buf)
                },
            },
        }
    }

    pub(crate) fn try_recv_buf<B: BufMut>(&self, buf: &mut B) -> io::Result<usize> {
        match self {
            SimOr::Real(io) => io.try_recv_buf(buf),
            SimOr::Sim(_) => fill_buf_mut(buf, |b| self.try_recv(b).map(|n| (n, n))),
        }
    }

    pub(crate) fn recv_buf_from<'a, B: BufMut>(
        &'a self,
        buf: &'a mut B,
    ) -> Either<
        impl Future<Output = io::Result<Received>> + 'a,
        impl Future<Output = io::Result<Received>> + 'a,
    > {
        match self {
            SimOr::Real(io) => Either::Real {
                fut: io.recv_buf_from(buf),
            },
            SimOr::Sim(_) => Either::Sim {
                fut: async move {
                    self.ready(Interest::READABLE).await?;
                    self.try_recv_buf_from(buf)
                },
            },
        }
    }

    pub(crate) fn try_recv_buf_from<B: BufMut>(
        &self,
        buf: &mut B,
    ) -> io::Result<(usize, SocketAddr)> {
        match self {
            SimOr::Real(io) => io.try_recv_buf_from(buf),
            SimOr::Sim(_) => fill_buf_mut(buf, |b| {
                self.try_recv_from(b).map(|(n, from)| (n, (n, from)))
            }),
        }
    }

    pub(crate) fn sim(&self) -> Option<&dyn SimUdpSocket> {
        match self {
            SimOr::Real(_) => None,
            SimOr::Sim(sim) => Some(&**sim),
        }
    }
}

pub(crate) type TcpListenerIo = SimOr<ListenerIo<mio::net::TcpListener>, dyn SimTcpListener>;

impl TcpListenerIo {
    #[inline]
    pub(crate) fn accept(
        &self,
    ) -> Either<
        impl Future<Output = io::Result<Accepted>> + '_,
        impl Future<Output = io::Result<Accepted>> + '_,
    > {
        match self {
            SimOr::Real(io) => Either::Real { fut: io.accept() },
            SimOr::Sim(_) => Either::Sim {
                fut: poll_fn(move |cx| self.poll_accept(cx)),
            },
        }
    }

    pub(crate) fn poll_accept(
        &self,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<(TcpStream, SocketAddr)>> {
        match self {
            SimOr::Real(io) => io.poll_accept(cx),
            SimOr::Sim(sim) => sim
                .poll_accept(cx)
                .map_ok(|(stream, peer)| (TcpStream::from_sim(stream), peer)),
        }
    }

    pub(crate) fn local_addr(&self) -> io::Result<SocketAddr> {
        match self {
            SimOr::Real(io) => io.source().local_addr(),
            SimOr::Sim(sim) => sim.local_addr(),
        }
    }
}
