//! Guards of a mutex held through an `Arc`, which own their lock and so
//! have no lifetime.

use super::Mutex;
use std::fmt;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// Exclusive access to the data of an `Arc<Mutex<T>>`; unlocks on drop.
#[must_use = "if unused the Mutex will immediately unlock"]
pub struct OwnedMutexGuard<T: ?Sized> {
    lock: Arc<Mutex<T>>,
}

/// An [`OwnedMutexGuard`] narrowed to a part `U` of the data.
#[must_use = "if unused the Mutex will immediately unlock"]
pub struct OwnedMappedMutexGuard<T: ?Sized, U: ?Sized = T> {
    data: *mut U,
    lock: Arc<Mutex<T>>,
}

// SAFETY: a shared guard gives out `&T`, which needs `T: Sync`.
unsafe impl<T: ?Sized + Send + Sync> Sync for OwnedMutexGuard<T> {}
// SAFETY: the mapped guard is an `&mut U` into data owned by the mutex.
unsafe impl<T: ?Sized + Send, U: ?Sized + Send> Send for OwnedMappedMutexGuard<T, U> {}
// SAFETY: as above; shared access needs both `Sync`.
unsafe impl<T: ?Sized + Send + Sync, U: ?Sized + Send + Sync> Sync for OwnedMappedMutexGuard<T, U> {}

impl<T: ?Sized> OwnedMutexGuard<T> {
    pub(super) fn new(lock: Arc<Mutex<T>>) -> Self {
        OwnedMutexGuard { lock }
    }

    fn into_lock(self) -> Arc<Mutex<T>> {
        let this = ManuallyDrop::new(self);
        // SAFETY: `this` is never used or dropped again, so the Arc is moved
        // out exactly once.
        unsafe { std::ptr::read(&this.lock) }
    }

    /// Narrows the guard to a part of the data; the mutex stays locked.
    pub fn map<U: ?Sized, F>(this: Self, f: F) -> OwnedMappedMutexGuard<T, U>
    where
        F: FnOnce(&mut T) -> &mut U,
    {
        OwnedMappedMutexGuard::map(Self::into_whole_mapped(this), f)
    }

    /// As [`map`](Self::map), but gives the guard back if `f` returns
    /// `None`.
    pub fn try_map<U: ?Sized, F>(this: Self, f: F) -> Result<OwnedMappedMutexGuard<T, U>, Self>
    where
        F: FnOnce(&mut T) -> Option<&mut U>,
    {
        OwnedMappedMutexGuard::try_map(Self::into_whole_mapped(this), f).map_err(|whole| {
            // The permit passes back, unreleased, to a plain guard.
            let (_, lock) = whole.into_parts();
            OwnedMutexGuard { lock }
        })
    }

    /// The same lock held as a mapped guard over the whole data.
    fn into_whole_mapped(this: Self) -> OwnedMappedMutexGuard<T> {
        let lock = this.into_lock();
        OwnedMappedMutexGuard {
            data: lock.data_ptr(),
            lock,
        }
    }

    /// The mutex this guard locks.
    pub fn mutex(this: &Self) -> &Arc<Mutex<T>> {
        &this.lock
    }
}

impl<T: ?Sized> Deref for OwnedMutexGuard<T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard holds the mutex's only permit.
        unsafe { &*self.lock.data_ptr() }
    }
}

impl<T: ?Sized> DerefMut for OwnedMutexGuard<T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: the guard holds the mutex's only permit.
        unsafe { &mut *self.lock.data_ptr() }
    }
}

impl<T: ?Sized> Drop for OwnedMutexGuard<T> {
    fn drop(&mut self) {
        self.lock.unlock();
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for OwnedMutexGuard<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: ?Sized + fmt::Display> fmt::Display for OwnedMutexGuard<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&**self, f)
    }
}

impl<T: ?Sized, U: ?Sized> OwnedMappedMutexGuard<T, U> {
    fn into_parts(self) -> (*mut U, Arc<Mutex<T>>) {
        let this = ManuallyDrop::new(self);
        // SAFETY: `this` is never used or dropped again, so the Arc is moved
        // out exactly once.
        (this.data, unsafe { std::ptr::read(&this.lock) })
    }

    /// Narrows the guard further.
    pub fn map<S: ?Sized, F>(mut this: Self, f: F) -> OwnedMappedMutexGuard<T, S>
    where
        F: FnOnce(&mut U) -> &mut S,
    {
        let data: *mut S = f(&mut *this);
        let (_, lock) = this.into_parts();
        OwnedMappedMutexGuard { data, lock }
    }

    /// Narrows the guard further if `f` returns `Some`; otherwise gives the
    /// guard back.
    pub fn try_map<S: ?Sized, F>(mut this: Self, f: F) -> Result<OwnedMappedMutexGuard<T, S>, Self>
    where
        F: FnOnce(&mut U) -> Option<&mut S>,
    {
        let data: *mut S = match f(&mut *this) {
            Some(data) => data,
            None => return Err(this),
        };
        let (_, lock) = this.into_parts();
        Ok(OwnedMappedMutexGuard { data, lock })
    }

    /// The mutex this guard locks.
    pub fn mutex(this: &Self) -> &Arc<Mutex<T>> {
        &this.lock
    }
}

impl<T: ?Sized, U: ?Sized> Deref for OwnedMappedMutexGuard<T, U> {
    type Target = U;
    fn deref(&self) -> &U {
        // SAFETY: `data` points into the locked mutex, whose permit we hold.
        unsafe { &*self.data }
    }
}

impl<T: ?Sized, U: ?Sized> DerefMut for OwnedMappedMutexGuard<T, U> {
    fn deref_mut(&mut self) -> &mut U {
        // SAFETY: as in `deref`.
        unsafe { &mut *self.data }
    }
}

impl<T: ?Sized, U: ?Sized> Drop for OwnedMappedMutexGuard<T, U> {
    fn drop(&mut self) {
        self.lock.unlock();
    }
}

impl<T: ?Sized, U: ?Sized + fmt::Debug> fmt::Debug for OwnedMappedMutexGuard<T, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: ?Sized, U: ?Sized + fmt::Display> fmt::Display for OwnedMappedMutexGuard<T, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&**self, f)
    }
}
