//! `rt-io`: rt's byte-stream layer.
//!
//! [`io`] holds the traits every byte source and sink implements
//! ([`io::AsyncRead`], [`io::AsyncWrite`], [`io::AsyncBufRead`],
//! [`io::AsyncSeek`]), the [`io::ReadBuf`] that readers fill, the extension
//! traits that turn them into `async fn`s, and the utilities built on them:
//! buffering, copying, splitting and in-memory streams. None of this needs a
//! runtime, so a library can depend on it with `default-features = false`.
//!
//! The `net` feature (on by default) is reserved for the mio reactor and the
//! socket types, which will live in a `net` module beside `io`. The `fs`
//! feature (on by default) adds [`fs`], file-system access through the
//! runtime's blocking pool.

pub mod io;

#[cfg(feature = "fs")]
pub mod fs;
