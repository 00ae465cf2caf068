//! The borrowed read guard.

use crate::batch_semaphore as ll;
use std::fmt;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ops::Deref;

/// Shared read access to a [`RwLock`](super::RwLock) (or a part of its
/// data, after [`map`](Self::map)); releases the read slot on drop.
#[must_use = "if unused the RwLock will immediately unlock"]
pub struct RwLockReadGuard<'a, T: ?Sized> {
    semaphore: &'a ll::Semaphore,
    data: *const T,
    _marker: PhantomData<&'a T>,
}

// SAFETY: the guard is a `&T` plus a slot to release.
unsafe impl<T: ?Sized + Sync> Send for RwLockReadGuard<'_, T> {}
// SAFETY: as above.
unsafe impl<T: ?Sized + Sync> Sync for RwLockReadGuard<'_, T> {}

impl<'a, T: ?Sized> RwLockReadGuard<'a, T> {
    pub(super) fn new(semaphore: &'a ll::Semaphore, data: *const T) -> Self {
        RwLockReadGuard {
            semaphore,
            data,
            _marker: PhantomData,
        }
    }

    /// Narrows the guard to a part of the data; the read slot is kept.
    pub fn map<U: ?Sized, F>(this: Self, f: F) -> RwLockReadGuard<'a, U>
    where
        F: FnOnce(&T) -> &U,
    {
        let data: *const U = f(&*this);
        let this = ManuallyDrop::new(this);
        RwLockReadGuard::new(this.semaphore, data)
    }

    /// As [`map`](Self::map), but gives the guard back if `f` returns
    /// `None`.
    pub fn try_map<U: ?Sized, F>(this: Self, f: F) -> Result<RwLockReadGuard<'a, U>, Self>
    where
        F: FnOnce(&T) -> Option<&U>,
    {
        let data: *const U = match f(&*this) {
            Some(data) => data,
            None => return Err(this),
        };
        let this = ManuallyDrop::new(this);
        Ok(RwLockReadGuard::new(this.semaphore, data))
    }
}

impl<T: ?Sized> Deref for RwLockReadGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard holds a read slot, so no writer exists.
        unsafe { &*self.data }
    }
}

impl<T: ?Sized> Drop for RwLockReadGuard<'_, T> {
    fn drop(&mut self) {
        self.semaphore.release(1);
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for RwLockReadGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: ?Sized + fmt::Display> fmt::Display for RwLockReadGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&**self, f)
    }
}
