//! Owned halves of a `TcpStream` sharing it through an `Arc`, so that a
//! reader task and a writer task can each hold one.

use super::stream::TcpStream;
use std::io;
use std::net::SocketAddr;

crate::net::halves::owned_halves!(TcpStream, SocketAddr);

impl OwnedReadHalf {
    /// See [`TcpStream::peek`].
    pub async fn peek(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.peek(buf).await
    }
}
