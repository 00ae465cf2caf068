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
//! * Coordination: [`Barrier`], [`OnceCell`], [`SetOnce`].
//!
//! Every lock-like primitive stands on one fair batch semaphore (FIFO
//! waiters, permits handed out in order, cancellation returns what a waiter
//! was given).

mod barrier;
mod batch_semaphore;
pub mod broadcast;
mod errors;
mod locked;
pub mod mpsc;
mod mutex;
mod notify;
mod once_cell;
pub mod oneshot;
mod rwlock;
mod semaphore;
mod send_error;
mod set_once;
pub mod watch;

pub use barrier::{Barrier, BarrierWaitResult};
pub use errors::{AcquireError, TryAcquireError, TryLockError};
pub use mutex::{MappedMutexGuard, Mutex, MutexGuard, OwnedMappedMutexGuard, OwnedMutexGuard};
pub use notify::{Notified, Notify, OwnedNotified};
pub use once_cell::{OnceCell, SetError};
pub use rwlock::{
    OwnedRwLockMappedWriteGuard, OwnedRwLockReadGuard, OwnedRwLockWriteGuard, RwLock,
    RwLockMappedWriteGuard, RwLockReadGuard, RwLockWriteGuard,
};
pub use semaphore::{OwnedSemaphorePermit, Semaphore, SemaphorePermit};
pub use set_once::{SetOnce, SetOnceError};

/// Named future types, at the path `tokio::sync::futures` uses.
pub mod futures {
    pub use crate::notify::{Notified, OwnedNotified};
}

/// Support for this crate's documentation examples; not part of the API.
#[doc(hidden)]
pub mod __doc {
    pub use rt_core::util::block_on;
}
