//! An asynchronous mutual-exclusion lock and its borrowed guards.
//!
//! The mutex is a batch semaphore with one permit next to the data. The
//! guard holds no permit object: dropping it releases the single permit.
//! The semaphore is never closed, so locking cannot fail.

mod owned;

pub use owned::{OwnedMappedMutexGuard, OwnedMutexGuard};

use crate::batch_semaphore as ll;
use crate::errors::TryLockError;
use std::cell::UnsafeCell;
use std::fmt;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// An asynchronous mutex: `lock().await` waits without blocking the thread.
///
/// Tasks get the lock in the order they asked for it. There is no
/// poisoning: a task that panics while holding the guard simply releases
/// the lock, and the data may be left half-updated.
///
/// Prefer `std::sync::Mutex` when the lock is never held across an
/// `.await`: it is cheaper. This one is for data that must stay locked
/// while the holder awaits (a connection, a file being written).
///
/// ```
/// use rt_sync::Mutex;
/// use std::sync::Arc;
///
/// # rt_sync::__doc::block_on(async {
/// let counter = Arc::new(Mutex::new(0));
/// {
///     let mut guard = counter.lock().await;
///     *guard += 1;
/// }
/// assert_eq!(*counter.lock().await, 1);
/// # });
/// ```
pub struct Mutex<T: ?Sized> {
    semaphore: ll::Semaphore,
    data: UnsafeCell<T>,
}

/// Exclusive access to the data of a [`Mutex`]; unlocks on drop.
#[must_use = "if unused the Mutex will immediately unlock"]
pub struct MutexGuard<'a, T: ?Sized> {
    lock: &'a Mutex<T>,
}

/// A [`MutexGuard`] narrowed to a part of the data by
/// [`MutexGuard::map`]; unlocks the whole mutex on drop.
#[must_use = "if unused the Mutex will immediately unlock"]
pub struct MappedMutexGuard<'a, T: ?Sized> {
    semaphore: &'a ll::Semaphore,
    data: *mut T,
    _marker: PhantomData<&'a mut T>,
}

// SAFETY: the mutex hands out `&mut T` to one holder at a time, so sharing
// the mutex only ever moves access to `T` between threads.
unsafe impl<T: ?Sized + Send> Send for Mutex<T> {}
// SAFETY: as above; `T: Sync` is not needed because no two threads see the
// data at once.
unsafe impl<T: ?Sized + Send> Sync for Mutex<T> {}
// SAFETY: a shared guard gives out `&T`, which needs `T: Sync`.
unsafe impl<T: ?Sized + Send + Sync> Sync for MutexGuard<'_, T> {}
// SAFETY: the mapped guard is a `&mut T` plus a permit to release.
unsafe impl<'a, T: ?Sized + Sync + 'a> Sync for MappedMutexGuard<'a, T> {}
// SAFETY: as above.
unsafe impl<'a, T: ?Sized + Send + 'a> Send for MappedMutexGuard<'a, T> {}

impl<T> Mutex<T> {
    /// An unlocked mutex holding `value`.
    pub fn new(value: T) -> Mutex<T> {
        Mutex {
            semaphore: ll::Semaphore::new(1),
            data: UnsafeCell::new(value),
        }
    }

    /// An unlocked mutex holding `value`, usable in a `static`.
    #[cfg(not(loom))]
    pub const fn const_new(value: T) -> Mutex<T> {
        Mutex {
            semaphore: ll::Semaphore::const_new(1),
            data: UnsafeCell::new(value),
        }
    }

    /// Takes the data out of the mutex.
    pub fn into_inner(self) -> T {
        self.data.into_inner()
    }
}

impl<T: ?Sized> Mutex<T> {
    /// Waits until the lock is free and takes it.
    ///
    /// # Cancel safety
    ///
    /// Waiters get the lock in FIFO order. Dropping this future leaves the
    /// queue, so a cancelled and retried `lock` waits behind everyone who
    /// asked meanwhile.
    pub async fn lock(&self) -> MutexGuard<'_, T> {
        self.acquire().await;
        MutexGuard { lock: self }
    }

    /// Takes the lock from synchronous code, parking the thread until it is
    /// free.
    ///
    /// Must not be called from inside an asynchronous task.
    #[track_caller]
    pub fn blocking_lock(&self) -> MutexGuard<'_, T> {
        rt_core::util::block_on(self.lock())
    }

    /// As [`lock`](Self::lock), for a mutex behind an `Arc`; the guard keeps
    /// the `Arc` alive and so can be moved freely.
    ///
    /// # Cancel safety
    ///
    /// As for [`lock`](Self::lock).
    pub async fn lock_owned(self: Arc<Self>) -> OwnedMutexGuard<T> {
        self.acquire().await;
        OwnedMutexGuard::new(self)
    }

    /// As [`lock_owned`](Self::lock_owned), parking the thread.
    ///
    /// Must not be called from inside an asynchronous task.
    #[track_caller]
    pub fn blocking_lock_owned(self: Arc<Self>) -> OwnedMutexGuard<T> {
        rt_core::util::block_on(self.lock_owned())
    }

    /// Takes the lock if it is free right now.
    pub fn try_lock(&self) -> Result<MutexGuard<'_, T>, TryLockError> {
        match self.semaphore.try_acquire(1) {
            Ok(()) => Ok(MutexGuard { lock: self }),
            Err(_) => Err(TryLockError(())),
        }
    }

    /// As [`try_lock`](Self::try_lock), for a mutex behind an `Arc`.
    pub fn try_lock_owned(self: Arc<Self>) -> Result<OwnedMutexGuard<T>, TryLockError> {
        match self.semaphore.try_acquire(1) {
            Ok(()) => Ok(OwnedMutexGuard::new(self)),
            Err(_) => Err(TryLockError(())),
        }
    }

    /// A mutable reference to the data; no locking is needed because the
    /// `&mut self` borrow proves nobody else holds the mutex.
    pub fn get_mut(&mut self) -> &mut T {
        self.data.get_mut()
    }

    async fn acquire(&self) {
        // The semaphore is private to this mutex and never closed.
        if self.semaphore.acquire(1).await.is_err() {
            unreachable!("a mutex's semaphore is never closed");
        }
    }

    pub(crate) fn unlock(&self) {
        self.semaphore.release(1);
    }

    pub(crate) fn data_ptr(&self) -> *mut T {
        self.data.get()
    }
}

impl<T: Default> Default for Mutex<T> {
    fn default() -> Self {
        Mutex::new(T::default())
    }
}

impl<T> From<T> for Mutex<T> {
    fn from(value: T) -> Self {
        Mutex::new(value)
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for Mutex<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Mutex");
        match self.try_lock() {
            Ok(guard) => d.field("data", &&*guard),
            Err(_) => d.field("data", &format_args!("<locked>")),
        };
        d.finish()
    }
}

impl<'a, T: ?Sized> MutexGuard<'a, T> {
    /// Narrows the guard to a part of the data. The whole mutex stays
    /// locked until the returned guard is dropped.
    ///
    /// This is an associated function (`MutexGuard::map(guard, ..)`) so it
    /// does not shadow a method of `T`.
    pub fn map<U: ?Sized, F>(this: Self, f: F) -> MappedMutexGuard<'a, U>
    where
        F: FnOnce(&mut T) -> &mut U,
    {
        MappedMutexGuard::map(Self::into_whole_mapped(this), f)
    }

    /// As [`map`](Self::map), but `f` may decline by returning `None`, in
    /// which case the original guard comes back.
    pub fn try_map<U: ?Sized, F>(this: Self, f: F) -> Result<MappedMutexGuard<'a, U>, Self>
    where
        F: FnOnce(&mut T) -> Option<&mut U>,
    {
        let lock = this.lock;
        MappedMutexGuard::try_map(Self::into_whole_mapped(this), f).map_err(|whole| {
            // The permit passes back, unreleased, to a plain guard.
            std::mem::forget(whole);
            MutexGuard { lock }
        })
    }

    /// The same lock held as a mapped guard over the whole data.
    fn into_whole_mapped(this: Self) -> MappedMutexGuard<'a, T> {
        let lock: &'a Mutex<T> = ManuallyDrop::new(this).lock;
        MappedMutexGuard {
            semaphore: &lock.semaphore,
            data: lock.data_ptr(),
            _marker: PhantomData,
        }
    }

    /// The mutex this guard locks.
    pub fn mutex(this: &Self) -> &'a Mutex<T> {
        this.lock
    }
}

impl<T: ?Sized> Deref for MutexGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard holds the mutex's only permit.
        unsafe { &*self.lock.data_ptr() }
    }
}

impl<T: ?Sized> DerefMut for MutexGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: the guard holds the mutex's only permit.
        unsafe { &mut *self.lock.data_ptr() }
    }
}

impl<T: ?Sized> Drop for MutexGuard<'_, T> {
    fn drop(&mut self) {
        self.lock.unlock();
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for MutexGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: ?Sized + fmt::Display> fmt::Display for MutexGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&**self, f)
    }
}

impl<'a, T: ?Sized> MappedMutexGuard<'a, T> {
    /// Narrows the guard further.
    pub fn map<U: ?Sized, F>(mut this: Self, f: F) -> MappedMutexGuard<'a, U>
    where
        F: FnOnce(&mut T) -> &mut U,
    {
        let data: *mut U = f(&mut *this);
        let semaphore = ManuallyDrop::new(this).semaphore;
        MappedMutexGuard {
            semaphore,
            data,
            _marker: PhantomData,
        }
    }

    /// Narrows the guard further if `f` returns `Some`; otherwise gives the
    /// guard back.
    pub fn try_map<U: ?Sized, F>(mut this: Self, f: F) -> Result<MappedMutexGuard<'a, U>, Self>
    where
        F: FnOnce(&mut T) -> Option<&mut U>,
    {
        let data: *mut U = match f(&mut *this) {
            Some(data) => data,
            None => return Err(this),
        };
        let semaphore = ManuallyDrop::new(this).semaphore;
        Ok(MappedMutexGuard {
            semaphore,
            data,
            _marker: PhantomData,
        })
    }
}

impl<T: ?Sized> Deref for MappedMutexGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: `data` points into the locked mutex, whose permit we hold.
        unsafe { &*self.data }
    }
}

impl<T: ?Sized> DerefMut for MappedMutexGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`.
        unsafe { &mut *self.data }
    }
}

impl<T: ?Sized> Drop for MappedMutexGuard<'_, T> {
    fn drop(&mut self) {
        self.semaphore.release(1);
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for MappedMutexGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: ?Sized + fmt::Display> fmt::Display for MappedMutexGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&**self, f)
    }
}
