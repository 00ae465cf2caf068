//! `AbortHandle`: the right to cancel a task, without its output.

use super::raw::RawTask;
use super::Id;
use std::fmt;
use std::panic::{RefUnwindSafe, UnwindSafe};

/// Cancels a task without owning its output; cloneable and shareable.
///
/// Dropping it does nothing to the task.
pub struct AbortHandle {
    raw: RawTask,
}

impl AbortHandle {
    pub(super) fn new(raw: RawTask) -> AbortHandle {
        AbortHandle { raw }
    }

    /// Cancels the task; see [`JoinHandle::abort`](super::JoinHandle::abort).
    pub fn abort(&self) {
        self.raw.remote_abort();
    }

    /// Whether the task has finished.
    pub fn is_finished(&self) -> bool {
        self.raw.header().state.load().is_complete()
    }

    /// The task's id.
    pub fn id(&self) -> Id {
        self.raw.id()
    }
}

impl Clone for AbortHandle {
    fn clone(&self) -> AbortHandle {
        self.raw.ref_inc();
        AbortHandle { raw: self.raw }
    }
}

impl Drop for AbortHandle {
    fn drop(&mut self) {
        self.raw.drop_reference();
    }
}

impl UnwindSafe for AbortHandle {}
impl RefUnwindSafe for AbortHandle {}

impl fmt::Debug for AbortHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AbortHandle")
            .field("id", &self.id())
            .finish()
    }
}
