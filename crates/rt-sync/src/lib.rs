//! `rt-sync`: synchronization primitives for asynchronous code.
//!
//! Everything here works on any executor: the primitives only store and
//! wake [`Waker`](std::task::Waker)s, start no threads and need no I/O
//! driver. Inside an rt runtime they also take part in the cooperative
//! budget (`rt_core::task::coop`), so a task that always finds a ready
//! channel still yields now and then.
//!
//! * Locks: [`Mutex`], [`RwLock`], [`Semaphore`]; signalling: [`Notify`].
//! * Channels: [`oneshot`], [`mpsc`], [`watch`], [`broadcast`].
//!
//! Every lock-like primitive stands on one fair batch semaphore (FIFO
//! waiters, permits handed out in order, cancellation returns what a waiter
//! was given).

mod batch_semaphore;
pub mod broadcast;
mod errors;
mod locked;
pub mod mpsc;
mod mutex;
mod notify;
pub mod oneshot;
mod park;
mod rwlock;
mod semaphore;
mod wake_list;
pub mod watch;

pub use errors::{AcquireError, TryAcquireError, TryLockError};
pub use mutex::{MappedMutexGuard, Mutex, MutexGuard, OwnedMappedMutexGuard, OwnedMutexGuard};
pub use notify::{Notified, Notify};
pub use rwlock::{
    OwnedRwLockMappedWriteGuard, OwnedRwLockReadGuard, OwnedRwLockWriteGuard, RwLock,
    RwLockMappedWriteGuard, RwLockReadGuard, RwLockWriteGuard,
};
pub use semaphore::{OwnedSemaphorePermit, Semaphore, SemaphorePermit};

/// Support for this crate's documentation examples; not part of the API.
#[doc(hidden)]
pub mod __doc {
    pub use crate::park::block_on;
}
