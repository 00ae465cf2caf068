//! An asynchronous reader-writer lock.
//!
//! The lock is a batch semaphore holding `max_readers` permits: a reader
//! takes one, a writer takes all of them. Because the semaphore serves
//! waiters strictly in order, a queued writer holds back readers that come
//! after it (write-preferring) and nobody starves (fair).

mod owned_read;
mod owned_write;
mod read;
mod write;

pub use owned_read::OwnedRwLockReadGuard;
pub use owned_write::{OwnedRwLockMappedWriteGuard, OwnedRwLockWriteGuard};
pub use read::RwLockReadGuard;
pub use write::{RwLockMappedWriteGuard, RwLockWriteGuard};

use crate::batch_semaphore as ll;
use crate::errors::TryLockError;
use std::cell::UnsafeCell;
use std::fmt;
use std::sync::Arc;

/// The most readers a lock can admit at once (`u32::MAX >> 3`).
const MAX_READS: u32 = u32::MAX >> 3;

/// An asynchronous reader-writer lock: many readers or one writer.
///
/// Requests are served in the order they were made; a writer waiting in
/// the queue makes later readers wait too, so writers are not starved.
///
/// ```
/// use rt_sync::RwLock;
///
/// # rt_sync::__doc::block_on(async {
/// let lock = RwLock::new(5);
/// {
///     let a = lock.read().await;
///     let b = lock.read().await;
///     assert_eq!(*a + *b, 10);
/// }
/// *lock.write().await += 1;
/// assert_eq!(*lock.read().await, 6);
/// # });
/// ```
pub struct RwLock<T: ?Sized> {
    max_readers: u32,
    semaphore: ll::Semaphore,
    data: UnsafeCell<T>,
}

// SAFETY: the lock moves `T` between threads (`Send`) and shares `&T`
// among readers on several threads (`Sync`).
unsafe impl<T: ?Sized + Send> Send for RwLock<T> {}
// SAFETY: as above.
unsafe impl<T: ?Sized + Send + Sync> Sync for RwLock<T> {}

impl<T> RwLock<T> {
    /// An unlocked lock holding `value`, admitting up to `u32::MAX >> 3`
    /// readers at once.
    pub fn new(value: T) -> RwLock<T> {
        RwLock::with_max_readers(value, MAX_READS)
    }

    /// An unlocked lock admitting at most `max_reads` readers at once.
    ///
    /// # Panics
    ///
    /// Panics if `max_reads` is 0 or more than `u32::MAX >> 3`.
    #[track_caller]
    pub fn with_max_readers(value: T, max_reads: u32) -> RwLock<T> {
        assert!(max_reads != 0, "a RwLock may not be created with 0 readers");
        assert!(
            max_reads <= MAX_READS,
            "a RwLock may not be created with more than {MAX_READS} readers"
        );
        RwLock {
            max_readers: max_reads,
            semaphore: ll::Semaphore::new(max_reads as usize),
            data: UnsafeCell::new(value),
        }
    }

    /// As [`new`](Self::new), usable in a `static`.
    #[cfg(not(loom))]
    pub const fn const_new(value: T) -> RwLock<T> {
        RwLock {
            max_readers: MAX_READS,
            semaphore: ll::Semaphore::const_new(MAX_READS as usize),
            data: UnsafeCell::new(value),
        }
    }

    /// As [`with_max_readers`](Self::with_max_readers), usable in a
    /// `static`.
    #[cfg(not(loom))]
    #[track_caller]
    pub const fn const_with_max_readers(value: T, max_reads: u32) -> RwLock<T> {
        assert!(max_reads != 0, "a RwLock may not be created with 0 readers");
        assert!(max_reads <= MAX_READS, "too many readers for a RwLock");
        RwLock {
            max_readers: max_reads,
            semaphore: ll::Semaphore::const_new(max_reads as usize),
            data: UnsafeCell::new(value),
        }
    }

    /// Takes the data out of the lock.
    pub fn into_inner(self) -> T {
        self.data.into_inner()
    }
}

impl<T: ?Sized> RwLock<T> {
    /// Waits for shared read access.
    ///
    /// # Cancel safety
    ///
    /// Requests are served in FIFO order; cancelling loses the place in
    /// the queue.
    pub async fn read(&self) -> RwLockReadGuard<'_, T> {
        self.acquire(1).await;
        RwLockReadGuard::new(&self.semaphore, self.data.get())
    }

    /// As [`read`](Self::read), parking the thread.
    ///
    /// Must not be called from inside an asynchronous task.
    #[track_caller]
    pub fn blocking_read(&self) -> RwLockReadGuard<'_, T> {
        rt_core::util::block_on(self.read())
    }

    /// Read access if no writer holds or waits for the lock right now.
    pub fn try_read(&self) -> Result<RwLockReadGuard<'_, T>, TryLockError> {
        self.try_acquire(1)?;
        Ok(RwLockReadGuard::new(&self.semaphore, self.data.get()))
    }

    /// As [`read`](Self::read), for a lock behind an `Arc`.
    ///
    /// # Cancel safety
    ///
    /// As for [`read`](Self::read).
    pub async fn read_owned(self: Arc<Self>) -> OwnedRwLockReadGuard<T> {
        self.acquire(1).await;
        OwnedRwLockReadGuard::new(self)
    }

    /// As [`try_read`](Self::try_read), for a lock behind an `Arc`.
    pub fn try_read_owned(self: Arc<Self>) -> Result<OwnedRwLockReadGuard<T>, TryLockError> {
        self.try_acquire(1)?;
        Ok(OwnedRwLockReadGuard::new(self))
    }

    /// Waits for exclusive write access.
    ///
    /// # Cancel safety
    ///
    /// Requests are served in FIFO order; cancelling loses the place in
    /// the queue (and returns read slots already assigned to this writer).
    pub async fn write(&self) -> RwLockWriteGuard<'_, T> {
        self.acquire(self.max_readers).await;
        RwLockWriteGuard::new(&self.semaphore, self.max_readers, self.data.get())
    }

    /// As [`write`](Self::write), parking the thread.
    ///
    /// Must not be called from inside an asynchronous task.
    #[track_caller]
    pub fn blocking_write(&self) -> RwLockWriteGuard<'_, T> {
        rt_core::util::block_on(self.write())
    }

    /// Write access if nobody holds or waits for the lock right now.
    pub fn try_write(&self) -> Result<RwLockWriteGuard<'_, T>, TryLockError> {
        self.try_acquire(self.max_readers)?;
        Ok(RwLockWriteGuard::new(
            &self.semaphore,
            self.max_readers,
            self.data.get(),
        ))
    }

    /// As [`write`](Self::write), for a lock behind an `Arc`.
    ///
    /// # Cancel safety
    ///
    /// As for [`write`](Self::write).
    pub async fn write_owned(self: Arc<Self>) -> OwnedRwLockWriteGuard<T> {
        self.acquire(self.max_readers).await;
        OwnedRwLockWriteGuard::new(self)
    }

    /// As [`try_write`](Self::try_write), for a lock behind an `Arc`.
    pub fn try_write_owned(self: Arc<Self>) -> Result<OwnedRwLockWriteGuard<T>, TryLockError> {
        self.try_acquire(self.max_readers)?;
        Ok(OwnedRwLockWriteGuard::new(self))
    }

    /// A mutable reference to the data; the `&mut self` borrow proves
    /// nobody holds the lock.
    pub fn get_mut(&mut self) -> &mut T {
        self.data.get_mut()
    }

    async fn acquire(&self, permits: u32) {
        // The semaphore is private to this lock and never closed.
        if self.semaphore.acquire(permits as usize).await.is_err() {
            unreachable!("a RwLock's semaphore is never closed");
        }
    }

    fn try_acquire(&self, permits: u32) -> Result<(), TryLockError> {
        self.semaphore
            .try_acquire(permits as usize)
            .map_err(|_| TryLockError(()))
    }

    pub(crate) fn max_readers(&self) -> u32 {
        self.max_readers
    }

    pub(crate) fn semaphore(&self) -> &ll::Semaphore {
        &self.semaphore
    }

    pub(crate) fn data_ptr(&self) -> *mut T {
        self.data.get()
    }
}

impl<T: Default> Default for RwLock<T> {
    fn default() -> Self {
        RwLock::new(T::default())
    }
}

impl<T> From<T> for RwLock<T> {
    fn from(value: T) -> Self {
        RwLock::new(value)
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for RwLock<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("RwLock");
        match self.try_read() {
            Ok(guard) => d.field("data", &&*guard),
            Err(_) => d.field("data", &format_args!("<locked>")),
        };
        d.finish()
    }
}
