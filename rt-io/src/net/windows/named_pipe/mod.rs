//! Windows named pipes driven by the reactor, with tokio's API.
//!
//! A server creates a pipe instance with [`ServerOptions::create`] and
//! waits for a client with [`NamedPipeServer::connect`]; a client opens
//! an instance with [`ClientOptions::open`]. Each instance serves one
//! client at a time: to accept the next one, create a new instance
//! (before handing the connected one to a task, so that a client never
//! finds the name missing) or [`disconnect`](NamedPipeServer::disconnect)
//! this one and connect again.
//!
//! Both ends are mio's `windows::NamedPipe`, registered with the reactor
//! like a socket: mio runs overlapped reads and writes on its own buffers
//! and reports completions through the completion port, so a read or
//! write here is a copy to or from mio's buffer, `WouldBlock` while the
//! overlapped operation is still in flight.

mod client;
mod info;
mod pipe_io;
mod server;

pub use client::{ClientOptions, NamedPipeClient};
pub use info::{PipeEnd, PipeInfo, PipeMode};
pub use server::{NamedPipeServer, ServerOptions};

use std::ffi::OsStr;
use std::os::windows::ffi::OsStrExt;

/// `addr` as the NUL-terminated UTF-16 string the `W` calls take.
fn encode_addr(addr: &OsStr) -> Vec<u16> {
    addr.encode_wide().chain(Some(0)).collect()
}
