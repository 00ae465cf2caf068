//! Task ids: unique for the life of the process, and the "current task"
//! that `task::id()` reports.

use crate::loom::counter::Counter;
use std::cell::Cell;
use std::fmt;
use std::num::NonZeroU64;

/// An opaque id that tells a task apart from every other task spawned in
/// this process, alive or finished.
///
/// Ids are not reused, but their numeric order says nothing about spawn order
/// across runtimes.
#[derive(Clone, Copy, Debug, Hash, Eq, PartialEq, Ord, PartialOrd)]
pub struct Id(pub(crate) NonZeroU64);

crate::loom::thread_local! {
    static CURRENT: Cell<Option<Id>> = const { Cell::new(None) };
}

impl Id {
    pub(crate) fn next() -> Id {
        // Not part of any concurrent protocol: a plain counter suffices.
        // Under loom it restarts with each execution (see `crate::loom`).
        static NEXT: Counter = Counter::new(1);
        let n = NEXT.next();
        Id(NonZeroU64::new(n).expect("task id counter wrapped"))
    }

    /// The id as a number (for logs and dumps).
    pub fn as_u64(&self) -> u64 {
        self.0.get()
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The id of the task being polled on this thread.
///
/// # Panics
///
/// Outside a task. Use [`try_id`] to ask without panicking.
///
/// ```
/// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// let handle = rt.spawn(async { rt_core::task::id() });
/// let id = handle.id();
/// assert_eq!(rt.block_on(handle).unwrap(), id);
/// ```
#[track_caller]
pub fn id() -> Id {
    try_id().expect("Can't get a task id when not inside a task")
}

/// The id of the task being polled on this thread, or `None` outside a task.
pub fn try_id() -> Option<Id> {
    CURRENT.with(|c| c.get())
}

/// Sets the current task id for the guard's life (polls and the drops of a
/// task's future or output).
pub(crate) struct CurrentTaskGuard(Option<Id>);

impl CurrentTaskGuard {
    #[inline]
    pub(crate) fn enter(id: Id) -> CurrentTaskGuard {
        CurrentTaskGuard(CURRENT.with(|c| c.replace(Some(id))))
    }
}

impl Drop for CurrentTaskGuard {
    #[inline]
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.0));
    }
}
