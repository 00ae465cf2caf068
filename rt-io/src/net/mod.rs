//! Networking: TCP, UDP and Unix domain sockets (Windows named pipes in
//! `windows::named_pipe`) driven by the reactor.
//!
//! Every type here registers with the reactor of the runtime it is created
//! in. Creating one outside a runtime, or in one built without I/O, panics
//! with a message saying which; using one after its runtime shut down
//! returns an error.

mod accept;
mod addr;
mod async_io;
mod connected;
mod datagram;
mod fill;
mod halves;
mod sim_dispatch;
pub mod sim_seam;
pub(crate) mod socket_io;
mod sockopt;
mod stream_io;
pub mod tcp;
mod udp;
#[cfg(unix)]
pub mod unix;
#[cfg(windows)]
pub mod windows;

pub use addr::{lookup_host, ToSocketAddrs};
pub use tcp::{TcpListener, TcpSocket, TcpStream};
pub use udp::UdpSocket;
#[cfg(unix)]
pub use unix::{UnixDatagram, UnixListener, UnixSocket, UnixStream};
