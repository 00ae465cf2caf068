//! TCP: the listener, the stream and the stream's halves.

mod listener;
mod socket;
pub(crate) mod split;
pub(crate) mod split_owned;
mod stream;

pub use listener::TcpListener;
pub use socket::TcpSocket;
pub use split::{ReadHalf, WriteHalf};
pub use split_owned::{OwnedReadHalf, OwnedWriteHalf, ReuniteError};
pub use stream::TcpStream;
