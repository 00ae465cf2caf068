//! `SocketIo<S>`: a mio socket registered with the reactor, and what every
//! socket type does with it the same way: readiness, `try_io`/`async_io`,
//! the pending error, the descriptor. `connected.rs` adds the byte-stream
//! calls and `datagram.rs` the datagram calls, each as an `impl` block of
//! this one type; `readiness_api!` gives every socket type the public
//! readiness methods.

use crate::reactor::{Direction, Interest, PollEvented, Ready};
use crate::sys::{AsRaw, IntoRaw, RawSocket};
use std::future::Future;
use std::io;
use std::task::{Context, Poll};

/// A mio socket: what [`SocketIo`] needs of it beyond registering.
pub(crate) trait SocketSource: mio::event::Source + AsRaw + IntoRaw {
    /// Takes the pending `SO_ERROR`.
    fn take_error(&self) -> io::Result<Option<io::Error>>;

    /// Runs `call`, a system call on the socket made outside mio's own
    /// methods, the way mio's methods run theirs: on Windows a call that
    /// would block re-arms the socket's readiness poll, without which no
    /// further event would come; on Unix it is just the call.
    fn sys_call<T>(&self, call: impl FnOnce() -> io::Result<T>) -> io::Result<T>;
}

macro_rules! socket_source {
    ($($ty:ty),*) => {$(
        impl SocketSource for $ty {
            fn take_error(&self) -> io::Result<Option<io::Error>> {
                <$ty>::take_error(self)
            }

            #[inline]
            fn sys_call<T>(&self, call: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
                <$ty>::try_io(self, call)
            }
        }
    )*};
}

socket_source!(mio::net::TcpStream, mio::net::UdpSocket);
#[cfg(unix)]
socket_source!(mio::net::UnixStream, mio::net::UnixDatagram);

/// A socket registered with the reactor.
#[derive(Debug)]
pub(crate) struct SocketIo<S: SocketSource> {
    pub(super) io: PollEvented<S>,
}

impl<S: SocketSource> SocketIo<S> {
    /// Registers `sys` for reads and writes.
    #[track_caller]
    pub(crate) fn new(sys: S) -> io::Result<Self> {
        Ok(SocketIo {
            io: PollEvented::new(sys)?,
        })
    }

    /// Marks the socket `ready` before the driver reports it: a fresh
    /// socket pair is writable by construction, and an accepted socket may
    /// already hold data (a false guess costs one `WouldBlock`, which
    /// clears it).
    pub(crate) fn assume_ready(&self, ready: Ready) {
        self.io.registration().add_readiness(ready);
    }

    /// The mio source, for the calls and socket options each type adds.
    pub(crate) fn source(&self) -> &S {
        &self.io
    }

    /// Deregisters the source and releases its descriptor.
    pub(crate) fn into_raw(self) -> io::Result<RawSocket> {
        Ok(self.io.into_inner()?.into_raw())
    }

    pub(crate) fn as_raw(&self) -> RawSocket {
        self.io.as_raw()
    }

    pub(crate) fn take_error(&self) -> io::Result<Option<io::Error>> {
        self.source().take_error()
    }

    pub(crate) async fn ready(&self, interest: Interest) -> io::Result<Ready> {
        Ok(self.io.registration().readiness(interest).await?.ready)
    }

    pub(crate) fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.io.registration().poll_read_ready(cx).map_ok(drop)
    }

    pub(crate) fn poll_write_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.io.registration().poll_write_ready(cx).map_ok(drop)
    }

    pub(crate) fn try_io<R>(
        &self,
        interest: Interest,
        f: impl FnOnce() -> io::Result<R>,
    ) -> io::Result<R> {
        self.io.registration().try_io(interest, f)
    }

    /// The registration's own future, returned rather than awaited: an
    /// `async fn` here would wrap it in one more state machine that every
    /// send and receive polls through.
    pub(crate) fn async_io<'a, R: 'a>(
        &'a self,
        interest: Interest,
        f: impl FnMut() -> io::Result<R> + 'a,
    ) -> impl Future<Output = io::Result<R>> + 'a {
        self.io.registration().async_io(interest, f)
    }

    /// Runs `op` once the socket is readable, waiting again while it
    /// would block.
    pub(crate) fn poll_read_with<R>(
        &self,
        cx: &mut Context<'_>,
        op: impl FnMut() -> io::Result<R>,
    ) -> Poll<io::Result<R>> {
        self.io.registration().poll_io(cx, Direction::Read, op)
    }

    /// Runs `op` once the socket is writable, waiting again while it
    /// would block.
    pub(crate) fn poll_write_with<R>(
        &self,
        cx: &mut Context<'_>,
        op: impl FnMut() -> io::Result<R>,
    ) -> Poll<io::Result<R>> {
        self.io.registration().poll_io(cx, Direction::Write, op)
    }
}

/// Implements the readiness methods for `$socket`, whose `io` field is a [`SocketIo`]; `$noun`
/// names the socket in the docs ("stream", "socket").
macro_rules! readiness_api {
    ($socket:ident, $noun:literal) => {
        impl $socket {
            /// Takes the socket's pending error (`SO_ERROR`), if any.
            pub fn take_error(&self) -> std::io::Result<Option<std::io::Error>> {
                self.io.take_error()
            }

            #[doc = concat!("Waits until the ", $noun, " is ready for `interest` and returns")]
            /// the readiness seen.
            pub async fn ready(
                &self,
                interest: $crate::reactor::Interest,
            ) -> std::io::Result<$crate::reactor::Ready> {
                self.io.ready(interest).await
            }

            #[doc = concat!("Waits until the ", $noun, " may be readable. A following")]
            /// non-blocking read may still return `WouldBlock` (the
            /// readiness was stale).
            pub async fn readable(&self) -> std::io::Result<()> {
                self.ready($crate::reactor::Interest::READABLE)
                    .await
                    .map(drop)
            }

            #[doc = concat!("Waits until the ", $noun, " may be writable.")]
            pub async fn writable(&self) -> std::io::Result<()> {
                self.ready($crate::reactor::Interest::WRITABLE)
                    .await
                    .map(drop)
            }

            #[doc = concat!("Runs a custom non-blocking operation if the ", $noun, " looks")]
            /// ready for `interest`, clearing the readiness if it returns
            /// `WouldBlock`.
            pub fn try_io<R>(
                &self,
                interest: $crate::reactor::Interest,
                f: impl FnOnce() -> std::io::Result<R>,
            ) -> std::io::Result<R> {
                self.io.try_io(interest, f)
            }

            /// Waits for `interest` and runs `f`, again after each
            /// `WouldBlock`.
            pub async fn async_io<R>(
                &self,
                interest: $crate::reactor::Interest,
                f: impl FnMut() -> std::io::Result<R>,
            ) -> std::io::Result<R> {
                self.io.async_io(interest, f).await
            }
        }
    };
}

pub(crate) use readiness_api;
