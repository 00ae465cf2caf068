//! Borrowed halves of a `TcpStream`, for reading and writing from two
//! futures of one task at once.

use super::stream::TcpStream;
use std::io;
use std::net::SocketAddr;

crate::net::halves::borrowed_halves!(TcpStream, SocketAddr);

impl ReadHalf<'_> {
    /// See [`TcpStream::peek`].
    pub async fn peek(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.peek(buf).await
    }
}
