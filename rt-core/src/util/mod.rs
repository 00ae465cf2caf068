//! Mechanisms shared by every rt crate, written once: the intrusive linked
//! list, the atomic waker slot, the batch of wakers woken outside a lock,
//! the fast per-thread random generator, and the thread-parking
//! [`block_on`].
//!
//! These are public so that rt-sync, rt-time and rt-io can build on them, but
//! they are support API: hidden from the facade's documentation and versioned
//! with rt-core.

mod atomic_waker;
mod block_on;
pub mod linked_list;
pub mod rng;
mod wake_list;

pub use atomic_waker::AtomicWaker;
pub use block_on::block_on;
#[cfg(feature = "rt-multi-thread")]
pub(crate) use block_on::block_on_with_budget;
pub use wake_list::{WakeList, WAKE_BATCH};
