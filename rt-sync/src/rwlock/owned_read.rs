//! The read guard of a lock held through an `Arc`.

use super::RwLock;
use std::fmt;
use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::sync::Arc;

/// Shared read access to an `Arc<RwLock<T>>`, possibly narrowed to a part
/// `U` of the data; releases the read slot on drop.
#[must_use = "if unused the RwLock will immediately unlock"]
pub struct OwnedRwLockReadGuard<T: ?Sized, U: ?Sized = T> {
    lock: Arc<RwLock<T>>,
    data: *const U,
}

// SAFETY: the guard shares `&U` and keeps the lock alive.
unsafe impl<T: ?Sized + Send + Sync, U: ?Sized + Sync> Send for OwnedRwLockReadGuard<T, U> {}
// SAFETY: as above.
unsafe impl<T: ?Sized + Send + Sync, U: ?Sized + Sync> Sync for OwnedRwLockReadGuard<T, U> {}

impl<T: ?Sized> OwnedRwLockReadGuard<T> {
    pub(super) fn new(lock: Arc<RwLock<T>>) -> Self {
        let data = lock.data_ptr() as *const T;
        OwnedRwLockReadGuard { lock, data }
    }
}

impl<T: ?Sized, U: ?Sized> OwnedRwLockReadGuard<T, U> {
    pub(super) fn from_parts(lock: Arc<RwLock<T>>, data: *const U) -> Self {
        OwnedRwLockReadGuard { lock, data }
    }

    fn into_lock(this: Self) -> Arc<RwLock<T>> {
        let this = ManuallyDrop::new(this);
        // SAFETY: `this` is never used or dropped again, so the Arc is moved
        // out exactly once.
        unsafe { std::ptr::read(&this.lock) }
    }

    /// Narrows the guard to a part of the data.
    pub fn map<V: ?Sized, F>(this: Self, f: F) -> OwnedRwLockReadGuard<T, V>
    where
        F: FnOnce(&U) -> &V,
    {
        let data: *const V = f(&*this);
        OwnedRwLockReadGuard::from_parts(Self::into_lock(this), data)
    }

    /// As [`map`](Self::map), but gives the guard back if `f` returns
    /// `None`.
    pub fn try_map<V: ?Sized, F>(this: Self, f: F) -> Result<OwnedRwLockReadGuard<T, V>, Self>
    where
        F: FnOnce(&U) -> Option<&V>,
    {
        let data: *const V = match f(&*this) {
            Some(data) => data,
            None => return Err(this),
        };
        Ok(OwnedRwLockReadGuard::from_parts(
            Self::into_lock(this),
            data,
        ))
    }

    /// The lock this guard reads.
    pub fn rwlock(this: &Self) -> &Arc<RwLock<T>> {
        &this.lock
    }
}

impl<T: ?Sized, U: ?Sized> Deref for OwnedRwLockReadGuard<T, U> {
    type Target = U;
    fn deref(&self) -> &U {
        // SAFETY: the guard holds a read slot, so no writer exists.
        unsafe { &*self.data }
    }
}

impl<T: ?Sized, U: ?Sized> Drop for OwnedRwLockReadGuard<T, U> {
    fn drop(&mut self) {
        self.lock.semaphore().release(1);
    }
}

impl<T: ?Sized, U: ?Sized + fmt::Debug> fmt::Debug for OwnedRwLockReadGuard<T, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: ?Sized, U: ?Sized + fmt::Display> fmt::Display for OwnedRwLockReadGuard<T, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&**self, f)
    }
}
