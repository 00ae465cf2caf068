//! The write guards of a lock held through an `Arc`: whole and mapped.

use super::owned_read::OwnedRwLockReadGuard;
use super::RwLock;
use std::fmt;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// Exclusive write access to an `Arc<RwLock<T>>`; unlocks on drop.
#[must_use = "if unused the RwLock will immediately unlock"]
pub struct OwnedRwLockWriteGuard<T: ?Sized> {
    lock: Arc<RwLock<T>>,
    data: *mut T,
}

/// An [`OwnedRwLockWriteGuard`] narrowed to a part `U` of the data.
#[must_use = "if unused the RwLock will immediately unlock"]
pub struct OwnedRwLockMappedWriteGuard<T: ?Sized, U: ?Sized = T> {
    lock: Arc<RwLock<T>>,
    data: *mut U,
}

// SAFETY: the guard is an `&mut T` that keeps the lock alive.
unsafe impl<T: ?Sized + Send + Sync> Send for OwnedRwLockWriteGuard<T> {}
// SAFETY: as above.
unsafe impl<T: ?Sized + Send + Sync> Sync for OwnedRwLockWriteGuard<T> {}
// SAFETY: as above, for the part `U`.
unsafe impl<T: ?Sized + Send + Sync, U: ?Sized + Send + Sync> Send
    for OwnedRwLockMappedWriteGuard<T, U>
{
}
// SAFETY: as above.
unsafe impl<T: ?Sized + Send + Sync, U: ?Sized + Send + Sync> Sync
    for OwnedRwLockMappedWriteGuard<T, U>
{
}

fn take_lock<G, T: ?Sized>(guard: G, lock: impl FnOnce(&G) -> &Arc<RwLock<T>>) -> Arc<RwLock<T>> {
    let guard = ManuallyDrop::new(guard);
    // SAFETY: `guard` is never used or dropped again, so the Arc is moved
    // out exactly once.
    unsafe { std::ptr::read(lock(&guard)) }
}

impl<T: ?Sized> OwnedRwLockWriteGuard<T> {
    pub(super) fn new(lock: Arc<RwLock<T>>) -> Self {
        let data = lock.data_ptr();
        OwnedRwLockWriteGuard { lock, data }
    }

    /// Narrows the guard to a part of the data.
    pub fn map<U: ?Sized, F>(this: Self, f: F) -> OwnedRwLockMappedWriteGuard<T, U>
    where
        F: FnOnce(&mut T) -> &mut U,
    {
        OwnedRwLockMappedWriteGuard::map(Self::into_mapped(this), f)
    }

    /// As [`map`](Self::map), but gives the guard back if `f` returns
    /// `None`.
    pub fn try_map<U: ?Sized, F>(
        this: Self,
        f: F,
    ) -> Result<OwnedRwLockMappedWriteGuard<T, U>, Self>
    where
        F: FnOnce(&mut T) -> Option<&mut U>,
    {
        // A mapped guard over the whole data holds the same slots and
        // pointer, so on refusal it turns back into this guard unchanged.
        OwnedRwLockMappedWriteGuard::try_map(Self::into_mapped(this), f).map_err(|whole| {
            let data = whole.data;
            let lock = take_lock(whole, |g| &g.lock);
            OwnedRwLockWriteGuard { lock, data }
        })
    }

    /// Turns the guard into a mapped guard over the whole data.
    pub fn into_mapped(this: Self) -> OwnedRwLockMappedWriteGuard<T> {
        let data = this.data;
        let lock = take_lock(this, |g| &g.lock);
        OwnedRwLockMappedWriteGuard { lock, data }
    }

    /// Turns write access into read access without unlocking in between.
    pub fn downgrade(self) -> OwnedRwLockReadGuard<T> {
        let whole = self.data as *const T;
        Self::downgrade_to(self, whole)
    }

    /// As [`downgrade`](Self::downgrade), narrowing the read guard to the
    /// part `U` of the data `f` picks. `f` runs while write access is still
    /// held, so if it panics the lock is simply released.
    pub fn downgrade_map<U: ?Sized, F>(this: Self, f: F) -> OwnedRwLockReadGuard<T, U>
    where
        F: FnOnce(&T) -> &U,
    {
        let part = f(&*this) as *const U;
        Self::downgrade_to(this, part)
    }

    /// As [`downgrade_map`](Self::downgrade_map), but gives the write
    /// guard back, still write-locked, if `f` returns `None`.
    pub fn try_downgrade_map<U: ?Sized, F>(
        this: Self,
        f: F,
    ) -> Result<OwnedRwLockReadGuard<T, U>, Self>
    where
        F: FnOnce(&T) -> Option<&U>,
    {
        match f(&*this).map(|part| part as *const U) {
            Some(part) => Ok(Self::downgrade_to(this, part)),
            None => Err(this),
        }
    }

    /// Downgrades to a read guard over `part`, a pointer into the data.
    fn downgrade_to<U: ?Sized>(this: Self, part: *const U) -> OwnedRwLockReadGuard<T, U> {
        let lock = take_lock(this, |g| &g.lock);
        lock.semaphore().release(lock.max_readers() as usize - 1);
        OwnedRwLockReadGuard::from_parts(lock, part)
    }

    /// The lock this guard writes.
    pub fn rwlock(this: &Self) -> &Arc<RwLock<T>> {
        &this.lock
    }
}

impl<T: ?Sized> Deref for OwnedRwLockWriteGuard<T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard holds every slot of the lock.
        unsafe { &*self.data }
    }
}

impl<T: ?Sized> DerefMut for OwnedRwLockWriteGuard<T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: the guard holds every slot of the lock.
        unsafe { &mut *self.data }
    }
}

impl<T: ?Sized> Drop for OwnedRwLockWriteGuard<T> {
    fn drop(&mut self) {
        self.lock
            .semaphore()
            .release(self.lock.max_readers() as usize);
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for OwnedRwLockWriteGuard<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: ?Sized + fmt::Display> fmt::Display for OwnedRwLockWriteGuard<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&**self, f)
    }
}

impl<T: ?Sized, U: ?Sized> OwnedRwLockMappedWriteGuard<T, U> {
    /// Narrows the guard further.
    pub fn map<V: ?Sized, F>(mut this: Self, f: F) -> OwnedRwLockMappedWriteGuard<T, V>
    where
        F: FnOnce(&mut U) -> &mut V,
    {
        let data: *mut V = f(&mut *this);
        let lock = take_lock(this, |g| &g.lock);
        OwnedRwLockMappedWriteGuard { lock, data }
    }

    /// Narrows the guard further if `f` returns `Some`; otherwise gives the
    /// guard back.
    pub fn try_map<V: ?Sized, F>(
        mut this: Self,
        f: F,
    ) -> Result<OwnedRwLockMappedWriteGuard<T, V>, Self>
    where
        F: FnOnce(&mut U) -> Option<&mut V>,
    {
        let data: *mut V = match f(&mut *this) {
            Some(data) => data,
            None => return Err(this),
        };
        let lock = take_lock(this, |g| &g.lock);
        Ok(OwnedRwLockMappedWriteGuard { lock, data })
    }

    /// Turns write access to the part into read access to it, without
    /// unlocking in between.
    pub fn downgrade(self) -> OwnedRwLockReadGuard<T, U> {
        let data = self.data as *const U;
        let lock = take_lock(self, |g| &g.lock);
        lock.semaphore().release(lock.max_readers() as usize - 1);
        OwnedRwLockReadGuard::from_parts(lock, data)
    }

    /// The lock this guard writes.
    pub fn rwlock(this: &Self) -> &Arc<RwLock<T>> {
        &this.lock
    }
}

impl<T: ?Sized, U: ?Sized> Deref for OwnedRwLockMappedWriteGuard<T, U> {
    type Target = U;
    fn deref(&self) -> &U {
        // SAFETY: the guard holds every slot of the lock.
        unsafe { &*self.data }
    }
}

impl<T: ?Sized, U: ?Sized> DerefMut for OwnedRwLockMappedWriteGuard<T, U> {
    fn deref_mut(&mut self) -> &mut U {
        // SAFETY: the guard holds every slot of the lock.
        unsafe { &mut *self.data }
    }
}

impl<T: ?Sized, U: ?Sized> Drop for OwnedRwLockMappedWriteGuard<T, U> {
    fn drop(&mut self) {
        self.lock
            .semaphore()
            .release(self.lock.max_readers() as usize);
    }
}

impl<T: ?Sized, U: ?Sized + fmt::Debug> fmt::Debug for OwnedRwLockMappedWriteGuard<T, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: ?Sized, U: ?Sized + fmt::Display> fmt::Display for OwnedRwLockMappedWriteGuard<T, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&**self, f)
    }
}
