//! Unix domain sockets: stream listener and stream, datagrams, the owned
//! stream halves, [`UnixSocket`] for binding before use, peer credentials,
//! and [`AsyncFd`] for any other file descriptor.

mod async_fd;
mod datagram;
mod listener;
mod path;
pub mod pipe;
mod socket;
mod split;
mod split_owned;
mod stream;
mod ucred;

#[allow(deprecated)]
pub use async_fd::AsyncFdTryNewError;
pub use async_fd::{
    AsyncFd, AsyncFdReadyGuard, AsyncFdReadyMutGuard, AsyncFdRegisterError, TryIoError,
};
pub use datagram::UnixDatagram;
pub use listener::UnixListener;
pub use socket::UnixSocket;
pub use split::{ReadHalf, WriteHalf};
pub use split_owned::{OwnedReadHalf, OwnedWriteHalf, ReuniteError};
pub use std::os::unix::net::SocketAddr;
pub use stream::UnixStream;
pub use ucred::UCred;
