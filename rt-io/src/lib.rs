//! `rt-io`: rt's byte-stream layer and its sockets.
//!
//! [`io`] holds the traits every byte source and sink implements
//! ([`io::AsyncRead`], [`io::AsyncWrite`], [`io::AsyncBufRead`],
//! [`io::AsyncSeek`]), the [`io::ReadBuf`] that readers fill, the extension
//! traits that turn them into `async fn`s, and the utilities built on them:
//! buffering, copying, splitting and in-memory streams. None of this needs a
//! runtime, so a library can depend on it with `default-features = false`.
//!
//! With the `net` feature (on by default): [`net`] holds the socket types,
//! and `reactor` the I/O driver a runtime builder installs with
//! `reactor::base_driver()`. The `fs` feature (on by default) adds [`fs`],
//! file-system access through the runtime's blocking pool. The `signal`
//! feature (on by default) adds [`signal`]: `ctrl_c` and Unix signal
//! streams. The `process` feature (on by default, needs `net` and
//! `signal`) adds [`process`]: child processes whose pipes the reactor
//! drives and whose exit `SIGCHLD` reports. `net` and `fs` use rt-core's
//! runtime (`spawn_blocking`) and turn on its `rt` feature; the traits and
//! utilities of [`io`] do not. The `uring` feature (Linux; needs `net` and
//! `fs`) adds an io_uring driver beside the reactor, which a runtime picks
//! with `reactor::base_driver_for`, and on which file operations are ring
//! submissions instead of blocking-pool hops.
//!
//! rt-io runs on Unix and on Windows. What differs between the two lives in
//! one module, `sys` (as mio's does); what exists on one platform only is
//! compiled there only, as in tokio: Unix domain sockets, `AsyncFd` and
//! Unix signals on Unix; console control events on Windows.

#[cfg(feature = "fs")]
pub mod fs;
pub mod io;
#[cfg(feature = "net")]
pub mod net;
#[cfg(feature = "process")]
pub mod process;
#[cfg(feature = "net")]
#[doc(hidden)]
pub mod reactor;
#[cfg(feature = "signal")]
pub mod signal;
#[cfg(any(feature = "net", feature = "fs"))]
mod sys;
#[cfg(all(target_os = "linux", feature = "uring"))]
mod uring;

#[cfg(feature = "net")]
pub use reactor::{Interest, Ready};
