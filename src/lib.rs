//! rt: an asynchronous runtime for Rust.
//!
//! This crate is the facade: it re-exports the workspace's crates under the
//! module paths tokio users know, so that code written for tokio compiles
//! after `use rt as tokio;`.
//!
//! | path | from | what |
//! |------|------|------|
//! | [`runtime`] | rt-core (+ drivers) | `Builder`, `Runtime`, `LocalRuntime`, `Handle`; the multi-thread scheduler with feature `rt-multi-thread` |
//! | [`task`] | rt-core | `spawn`, `JoinHandle`, `JoinSet`, `LocalSet`, `yield_now`, coop budget |
//! | `sync` | rt-sync | `Mutex`, `Semaphore`, `Notify`, `mpsc`, `oneshot`, `watch`, `broadcast` (feature `sync`) |
//! | `net` | rt-io | `TcpListener`, `TcpStream`, `UdpSocket`, Unix sockets (feature `net`) |
//! | `time` | rt-time | `sleep`, `timeout`, `interval`, `Instant` (feature `time`); the paused clock (feature `test-util`) |
//! | `fs` | rt-io | `File`, `OpenOptions`, `read_dir` and the free functions, on the blocking pool (feature `fs`) |
//! | `process` | rt-io | `Command`, `Child` with async pipes, SIGCHLD reaping (feature `process`) |
//! | `signal` | rt-io | `ctrl_c`, `unix::signal` (feature `signal`) |
//! | [`io`] | rt-io | `AsyncRead`, `AsyncWrite`, their extension traits and utilities |
//! | `stream` | rt-stream | `StreamExt`, `StreamMap`, `stream_fn`, wrappers (feature `stream`) |
//! | `codec` | rt-codec | `Decoder`, `Encoder`, `Framed`, codecs (feature `codec`) |
//! | `select!`, `join!`, `try_join!`, `pin!`, `#[main]`, `#[test]` | rt-macros | macros |
//!
//! ```
//! let rt = rt::runtime::Builder::new_current_thread().enable_all().build().unwrap();
//! let sum = rt.block_on(async {
//!     let a = rt::spawn(async { 1 });
//!     let b = rt::spawn(async { 2 });
//!     a.await.unwrap() + b.await.unwrap()
//! });
//! assert_eq!(sum, 3);
//! ```

pub mod runtime;

pub use rt_core::task;
pub use rt_core::task::spawn;
pub use rt_core::task_local;

pub use rt_io::io;

#[cfg(feature = "net")]
pub use rt_io::net;

#[cfg(feature = "fs")]
pub use rt_io::fs;

#[cfg(feature = "signal")]
pub use rt_io::signal;

#[cfg(feature = "process")]
pub use rt_io::process;

#[cfg(feature = "sync")]
pub use rt_sync as sync;

#[cfg(feature = "time")]
pub use rt_time as time;

#[cfg(feature = "codec")]
pub use rt_codec as codec;

#[cfg(feature = "stream")]
pub use rt_stream as stream;

#[doc(hidden)]
pub mod macros;
#[cfg(all(feature = "macros", feature = "rt-multi-thread"))]
pub use rt_macros::{main, test};
#[cfg(all(feature = "macros", not(feature = "rt-multi-thread")))]
pub use rt_macros::{main_rt as main, test_rt as test};
// The same attributes expanding to `::tokio` paths, for compat/tokio to
// export as its `main` and `test`.
#[cfg(all(feature = "macros", feature = "rt-multi-thread"))]
#[doc(hidden)]
pub use rt_macros::{tokio_main, tokio_test};
#[cfg(all(feature = "macros", not(feature = "rt-multi-thread")))]
#[doc(hidden)]
pub use rt_macros::{tokio_main_rt as tokio_main, tokio_test_rt as tokio_test};
