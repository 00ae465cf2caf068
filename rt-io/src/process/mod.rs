//! Child processes (feature `process`, Unix only): [`Command`] configures
//! and spawns a program, [`Child`] is the running process, and
//! [`ChildStdin`], [`ChildStdout`], [`ChildStderr`] are its piped standard
//! streams.
//!
//! The module owns three mechanisms:
//!
//! * **Pipes.** A piped stream is switched to non-blocking mode and
//!   registered with the runtime's reactor like a socket, so reading and
//!   writing wait for readiness instead of blocking a worker.
//! * **Exit.** Waiting for a child listens to `SIGCHLD` through
//!   [`signal`](crate::signal) and polls the child with a non-blocking
//!   `waitpid` each time the signal arrives. The listener is created before
//!   the first check, so an exit between the check and the wait is never
//!   missed.
//! * **Orphans.** A [`Child`] dropped before its exit was collected (with or
//!   without [`kill_on_drop`](Command::kill_on_drop)) is moved to a
//!   process-wide orphan queue. A reaper thread, started with the first
//!   orphan, collects every exited orphan each time `SIGCHLD` arrives, and
//!   every spawn, wait and `try_wait` collects them too, so no dropped child
//!   stays a zombie.
//!
//! Spawning needs a runtime with I/O enabled, like creating a socket; it
//! panics with the same message otherwise.
//!
//! ```
//! use rt_io::process::Command;
//!
//! # fn main() -> std::io::Result<()> {
//! let rt = rt_core::runtime::Builder::new_current_thread()
//!     .base_driver(rt_io::reactor::base_driver())
//!     .build()?;
//! rt.block_on(async {
//!     let output = Command::new("echo").arg("hello").output().await?;
//!     assert!(output.status.success());
//!     assert_eq!(output.stdout, b"hello\n");
//!     Ok(())
//! })
//! # }
//! ```

mod child;
mod command;
mod join;
#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as imp;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

pub use child::Child;
pub use command::Command;
pub use imp::{ChildStderr, ChildStdin, ChildStdout};
#[cfg(unix)]
#[doc(hidden)]
pub use unix::orphan::reap_orphans;
