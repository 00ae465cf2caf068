//! Child processes on Windows: exits reported by the system's wait thread
//! pool (`exit.rs`), and pipes served by the blocking pool (`pipe.rs`), as
//! tokio's are: the anonymous pipes std creates for a child cannot be
//! registered with an I/O completion port. A dropped child needs no
//! reaping on Windows; closing its handle releases it.

mod exit;
mod pipe;

pub(crate) use exit::ChildProcess;
pub use pipe::{ChildStderr, ChildStdin, ChildStdout};

/// Nothing to do before a spawn on Windows (no zombies to collect).
pub(super) fn before_spawn() {}
