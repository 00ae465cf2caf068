//! Taking rt-sync's internal locks.
//!
//! The internal locks only guard short bookkeeping sections that never call
//! user code, so a poisoned lock still holds consistent data: poisoning is
//! ignored rather than turned into a second panic.

use rt_core::loom::sync::{Mutex, MutexGuard};

/// Locks `mutex`, ignoring poisoning.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
