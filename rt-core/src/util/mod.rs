//! Mechanisms shared by every rt crate, written once: the intrusive linked
//! list, the atomic waker slot, the batch of wakers woken outside a lock,
//! and the fast per-thread random generator.
//!
//! These are public so that rt-sync, rt-time and rt-io can build on them, but
//! they are support API: hidden from the facade's documentation and versioned
//! with rt-core.

mod atomic_waker;
pub mod linked_list;
pub mod rng;
mod wake_list;

pub use atomic_waker::AtomicWaker;
pub use wake_list::{WakeList, WAKE_BATCH};
