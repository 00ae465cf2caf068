//! Per-thread runtime context: which runtime `spawn` talks to, which
//! scheduler (if any) this thread is driving, and the guard against
//! blocking inside a runtime.
//!
//! The thread-local itself exists only with the `rt` feature (`current`).
//! Without it no runtime can be entered, so lookups report a missing
//! context and blocking is always allowed; the error type and the blocking
//! check keep one signature in both builds.

#[cfg(feature = "rt")]
mod current;

#[cfg(feature = "rt-multi-thread")]
pub(crate) use current::exit_runtime;
#[cfg(feature = "rt")]
pub(crate) use current::{
    disallow_block_in_place, enter_runtime, runtime_entered, set_current, set_scheduler,
    try_set_current, with_current, with_scheduler, EnterRuntime, SetCurrentGuard,
};

use std::fmt;

/// Error returned by [`Handle::try_current`](super::Handle::try_current)
/// outside a runtime.
pub struct TryCurrentError {
    thread_local_destroyed: bool,
}

impl TryCurrentError {
    /// The error of a lookup on a thread that entered no runtime.
    #[cfg(not(feature = "rt"))]
    pub(crate) fn missing_context() -> TryCurrentError {
        TryCurrentError {
            thread_local_destroyed: false,
        }
    }

    /// Whether the call failed because no runtime was entered.
    pub fn is_missing_context(&self) -> bool {
        !self.thread_local_destroyed
    }

    /// Whether the call failed because the thread-local context was already
    /// destroyed (the thread is exiting).
    pub fn is_thread_local_destroyed(&self) -> bool {
        self.thread_local_destroyed
    }
}

const NO_RUNTIME: &str =
    "there is no reactor running, must be called from the context of an rt runtime";
const THREAD_LOCAL_DESTROYED: &str = "The rt context thread-local variable has been destroyed.";

impl fmt::Display for TryCurrentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.thread_local_destroyed {
            THREAD_LOCAL_DESTROYED
        } else {
            NO_RUNTIME
        })
    }
}

impl fmt::Debug for TryCurrentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TryCurrentError")
            .field("is_missing_context", &self.is_missing_context())
            .finish()
    }
}

impl std::error::Error for TryCurrentError {}

/// Panics with a clear message if this thread is driving a runtime: the
/// `blocking_*` methods of rt-sync and friends call this before blocking.
#[track_caller]
pub fn assert_can_block() {
    #[cfg(feature = "rt")]
    if let EnterRuntime::Entered { .. } = runtime_entered() {
        panic!(
            "Cannot block the current thread from within a runtime. This happens because a \
             function attempted to block the current thread while the thread is being used to \
             drive asynchronous tasks."
        );
    }
}
