//! Per-runtime choices about what spawning does, for runtimes that must
//! stay deterministic (a simulation): a hook that sees every task spawned,
//! and where `spawn_blocking` runs its closure.
//!
//! Both are fixed when the runtime is built and read from its
//! configuration: nothing here is process-wide, and a runtime that sets
//! neither pays one branch per spawn.

use crate::task::AbortHandle;
use std::sync::Arc;

/// Where [`spawn_blocking`](crate::task::spawn_blocking) runs its closure
/// ([`Builder::blocking_policy`](super::Builder::blocking_policy)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum BlockingPolicy {
    /// On the blocking pool's threads (the default).
    #[default]
    Pool,
    /// As a task of the runtime, on the runtime's own thread, when the
    /// scheduler polls that task. Its order against the other tasks is
    /// then the scheduler's, so a seeded current-thread runtime stays
    /// deterministic; the price is that the closure stalls every other
    /// task of the worker while it runs. A simulation (rt-sim) chooses
    /// this.
    Inline,
}

/// The hook of [`Builder::on_spawn`](super::Builder::on_spawn).
pub(crate) type SpawnHook = Arc<dyn Fn(&AbortHandle) + Send + Sync>;
