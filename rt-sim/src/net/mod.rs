//! The simulated network: TCP connections and UDP datagrams between the
//! hosts' addresses, and the names that resolve to them.
//!
//! The public types mirror `rt::net`'s (`TcpListener`, `TcpStream`,
//! `UdpSocket`, `lookup_host`), with the same `poll_*` methods and the
//! `AsyncRead`/`AsyncWrite` traits, so that `rt::net` can dispatch to them
//! when it runs inside a simulation.

mod addr;
pub(crate) mod seam;
pub(crate) mod tcp;
mod tcp_listener;
mod tcp_stream;
pub(crate) mod udp;
mod udp_socket;

pub use addr::{lookup_host, ToSimAddr};
pub use tcp_listener::TcpListener;
pub use tcp_stream::TcpStream;
pub use udp_socket::UdpSocket;

use crate::host::HostId;
use crate::world::World;

/// `host` crashed: every socket it had is reset or closed.
pub(crate) fn reset_host(world: &mut World, host: HostId) {
    world.tcp_reset_host(host);
    world.udp_reset_host(host);
}
