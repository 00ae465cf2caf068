//! `rt-io`: the mio reactor, TCP/UDP/Unix sockets, and the AsyncRead/AsyncWrite traits with their utilities.
//!
//! With the `net` feature (on by default): [`net`] holds the socket types,
//! and `reactor` the I/O driver a runtime builder installs with
//! `reactor::base_driver()`.

#[cfg(feature = "net")]
pub mod net;
#[cfg(feature = "net")]
#[doc(hidden)]
pub mod reactor;

#[cfg(feature = "net")]
pub use reactor::{Interest, Ready};
