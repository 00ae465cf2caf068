//! Child processes on Unix: pipes registered with the reactor
//! (`pipe.rs`), exits reported by `SIGCHLD` (`exit.rs`), and the queue
//! that reaps dropped children (`orphan.rs`).

mod exit;
pub(super) mod orphan;
mod pipe;

pub(super) use exit::ChildProcess;
pub use pipe::{ChildStderr, ChildStdin, ChildStdout};

/// What every spawn does first: collect the orphans that exited, so that
/// no dropped child stays a zombie.
pub(super) fn before_spawn() {
    orphan::reap_orphans_if_idle();
}
