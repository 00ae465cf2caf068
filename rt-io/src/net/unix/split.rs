//! Borrowed halves of a `UnixStream`, for reading and writing from two
//! futures of one task at once.

use super::stream::UnixStream;
use super::SocketAddr;

crate::net::halves::borrowed_halves!(UnixStream, SocketAddr);
