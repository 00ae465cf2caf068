//! `rt-io` will own the mio reactor, TCP/UDP/Unix sockets, and the AsyncRead/AsyncWrite traits with their utilities.
//!
//! The crate is reserved in the workspace and has no public items yet.
