//! Runtime ids: one per built runtime, unique for the life of the process.

use crate::loom::counter::Counter;
use std::fmt;
use std::num::NonZeroU64;

/// An opaque id that tells a runtime apart from every other runtime built
/// in this process, running or shut down; see
/// [`Handle::id`](super::Handle::id).
///
/// ```
/// let a = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// let b = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// assert_ne!(a.handle().id(), b.handle().id());
/// assert_eq!(a.handle().id(), a.handle().clone().id());
/// ```
#[derive(Clone, Copy, Debug, Hash, Eq, PartialEq)]
pub struct Id(NonZeroU64);

impl Id {
    /// A fresh id, never handed out before in this process.
    pub(crate) fn next() -> Id {
        // Not part of any concurrent protocol: a plain counter suffices.
        static NEXT: Counter = Counter::new(1);
        Id(NonZeroU64::new(NEXT.next()).expect("runtime id counter wrapped"))
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
