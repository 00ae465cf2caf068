//! The borrowed write guards: whole and mapped.

use super::read::RwLockReadGuard;
use crate::batch_semaphore as ll;
use std::fmt;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};

/// Exclusive write access to a [`RwLock`](super::RwLock); unlocks on drop.
#[must_use = "if unused the RwLock will immediately unlock"]
pub struct RwLockWriteGuard<'a, T: ?Sized> {
    permits: u32,
    semaphore: &'a ll::Semaphore,
    data: *mut T,
    _marker: PhantomData<&'a mut T>,
}

/// A [`RwLockWriteGuard`] narrowed to a part of the data; the whole lock
/// stays write-locked until it is dropped.
#[must_use = "if unused the RwLock will immediately unlock"]
pub struct RwLockMappedWriteGuard<'a, T: ?Sized> {
    permits: u32,
    semaphore: &'a ll::Semaphore,
    data: *mut T,
    _marker: PhantomData<&'a mut T>,
}

// SAFETY: the guard is an `&mut T` plus the slots to release; sharing it
// shares `&T`.
unsafe impl<T: ?Sized + Send + Sync> Send for RwLockWriteGuard<'_, T> {}
// SAFETY: as above.
unsafe impl<T: ?Sized + Send + Sync> Sync for RwLockWriteGuard<'_, T> {}
// SAFETY: as above.
unsafe impl<T: ?Sized + Send + Sync> Send for RwLockMappedWriteGuard<'_, T> {}
// SAFETY: as above.
unsafe impl<T: ?Sized + Send + Sync> Sync for RwLockMappedWriteGuard<'_, T> {}

impl<'a, T: ?Sized> RwLockWriteGuard<'a, T> {
    pub(super) fn new(semaphore: &'a ll::Semaphore, permits: u32, data: *mut T) -> Self {
        RwLockWriteGuard {
            permits,
            semaphore,
            data,
            _marker: PhantomData,
        }
    }

    fn into_raw(this: Self) -> (&'a ll::Semaphore, u32, *mut T) {
        let this = ManuallyDrop::new(this);
        (this.semaphore, this.permits, this.data)
    }

    /// Narrows the guard to a part of the data.
    pub fn map<U: ?Sized, F>(this: Self, f: F) -> RwLockMappedWriteGuard<'a, U>
    where
        F: FnOnce(&mut T) -> &mut U,
    {
        RwLockMappedWriteGuard::map(Self::into_mapped(this), f)
    }

    /// As [`map`](Self::map), but gives the guard back if `f` returns
    /// `None`.
    pub fn try_map<U: ?Sized, F>(this: Self, f: F) -> Result<RwLockMappedWriteGuard<'a, U>, Self>
    where
        F: FnOnce(&mut T) -> Option<&mut U>,
    {
        // A mapped guard over the whole data holds the same slots and
        // pointer, so on refusal it turns back into this guard unchanged.
        RwLockMappedWriteGuard::try_map(Self::into_mapped(this), f).map_err(|whole| {
            let (semaphore, permits, data) = RwLockMappedWriteGuard::into_raw(whole);
            RwLockWriteGuard::new(semaphore, permits, data)
        })
    }

    /// Turns the guard into a mapped guard over the whole data.
    pub fn into_mapped(this: Self) -> RwLockMappedWriteGuard<'a, T> {
        let (semaphore, permits, data) = Self::into_raw(this);
        RwLockMappedWriteGuard {
            permits,
            semaphore,
            data,
            _marker: PhantomData,
        }
    }

    /// Turns write access into read access without unlocking in between:
    /// other readers may join at once, no writer can slip in.
    pub fn downgrade(self) -> RwLockReadGuard<'a, T> {
        // Keep one slot for ourselves and let waiting readers in.
        let whole = self.data as *const T;
        Self::downgrade_to(self, whole)
    }

    /// As [`downgrade`](Self::downgrade), narrowing the read guard to the
    /// part of the data `f` picks.
    ///
    /// `f` runs while write access is still held, so if it panics the
    /// lock is simply released.
    pub fn downgrade_map<U: ?Sized, F>(this: Self, f: F) -> RwLockReadGuard<'a, U>
    where
        F: FnOnce(&T) -> &U,
    {
        let part = f(&*this) as *const U;
        Self::downgrade_to(this, part)
    }

    /// As [`downgrade_map`](Self::downgrade_map), but gives the write
    /// guard back, still write-locked, if `f` returns `None`.
    pub fn try_downgrade_map<U: ?Sized, F>(this: Self, f: F) -> Result<RwLockReadGuard<'a, U>, Self>
    where
        F: FnOnce(&T) -> Option<&U>,
    {
        match f(&*this).map(|part| part as *const U) {
            Some(part) => Ok(Self::downgrade_to(this, part)),
            None => Err(this),
        }
    }

    /// Downgrades to a read guard over `part`, a pointer into the data.
    fn downgrade_to<U: ?Sized>(this: Self, part: *const U) -> RwLockReadGuard<'a, U> {
        let (semaphore, permits, _) = Self::into_raw(this);
        semaphore.release(permits as usize - 1);
        RwLockReadGuard::new(semaphore, part)
    }
}

impl<T: ?Sized> Deref for RwLockWriteGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard holds every slot of the lock.
        unsafe { &*self.data }
    }
}

impl<T: ?Sized> DerefMut for RwLockWriteGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: the guard holds every slot of the lock.
        unsafe { &mut *self.data }
    }
}

impl<T: ?Sized> Drop for RwLockWriteGuard<'_, T> {
    fn drop(&mut self) {
        self.semaphore.release(self.permits as usize);
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for RwLockWriteGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: ?Sized + fmt::Display> fmt::Display for RwLockWriteGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&**self, f)
    }
}

impl<'a, T: ?Sized> RwLockMappedWriteGuard<'a, T> {
    fn into_raw(this: Self) -> (&'a ll::Semaphore, u32, *mut T) {
        let this = ManuallyDrop::new(this);
        (this.semaphore, this.permits, this.data)
    }

    /// Narrows the guard further.
    pub fn map<U: ?Sized, F>(mut this: Self, f: F) -> RwLockMappedWriteGuard<'a, U>
    where
        F: FnOnce(&mut T) -> &mut U,
    {
        let data: *mut U = f(&mut *this);
        let (semaphore, permits, _) = Self::into_raw(this);
        RwLockMappedWriteGuard {
            permits,
            semaphore,
            data,
            _marker: PhantomData,
        }
    }

    /// Narrows the guard further if `f` returns `Some`; otherwise gives the
    /// guard back.
    pub fn try_map<U: ?Sized, F>(
        mut this: Self,
        f: F,
    ) -> Result<RwLockMappedWriteGuard<'a, U>, Self>
    where
        F: FnOnce(&mut T) -> Option<&mut U>,
    {
        let data: *mut U = match f(&mut *this) {
            Some(data) => data,
            None => return Err(this),
        };
        let (semaphore, permits, _) = Self::into_raw(this);
        Ok(RwLockMappedWriteGuard {
            permits,
            semaphore,
            data,
            _marker: PhantomData,
        })
    }
}

impl<T: ?Sized> Deref for RwLockMappedWriteGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard holds every slot of the lock.
        unsafe { &*self.data }
    }
}

impl<T: ?Sized> DerefMut for RwLockMappedWriteGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: the guard holds every slot of the lock.
        unsafe { &mut *self.data }
    }
}

impl<T: ?Sized> Drop for RwLockMappedWriteGuard<'_, T> {
    fn drop(&mut self) {
        self.semaphore.release(self.permits as usize);
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for RwLockMappedWriteGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: ?Sized + fmt::Display> fmt::Display for RwLockMappedWriteGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&**self, f)
    }
}
