//! Owned halves of a `UnixStream` sharing it through an `Arc`, so that a
//! reader task and a writer task can each hold one.

use super::stream::UnixStream;
use super::SocketAddr;

crate::net::halves::owned_halves!(UnixStream, SocketAddr);
