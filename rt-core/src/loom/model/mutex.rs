//! loom's mutex with a `try_lock` that does not wait for a holder.
//!
//! loom 0.7 blocks a thread that is about to `try_lock` when another
//! thread takes the lock first, until that one unlocks
//! (tokio-rs/loom#376): a worker's `try_lock` of the driver, held by the
//! worker parked on it, then looks like a deadlock. Here `try_lock` first
//! claims the lock in a count of holders and waiters, and fails without
//! touching loom's mutex when anybody is there. Once it has claimed the
//! lock, only a `lock` call that started meanwhile can get to loom's mutex
//! first, and is waited for: this `try_lock` suits locks that `lock`
//! callers hold briefly, as the driver's is (workers `try_lock` it to park
//! on it; the last one out `lock`s it to shut the driver down).

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::{LockResult, TryLockError, TryLockResult};

/// `std::sync::Mutex` under loom.
#[derive(Debug, Default)]
pub struct Mutex<T> {
    inner: loom::sync::Mutex<T>,
    /// Threads holding or waiting for the lock. A `std` atomic on
    /// purpose: loom runs every modelled thread on one OS thread,
    /// and the ordering comes from loom's mutex itself; tracking
    /// this count too would only add interleavings.
    claims: AtomicUsize,
}

/// The guard of a [`Mutex`].
#[derive(Debug)]
pub struct MutexGuard<'a, T> {
    /// `None` only while a condvar wait has it.
    pub(super) inner: Option<loom::sync::MutexGuard<'a, T>>,
    pub(super) claims: &'a AtomicUsize,
}

impl<T> Mutex<T> {
    /// A mutex holding `value`.
    pub fn new(value: T) -> Mutex<T> {
        Mutex {
            inner: loom::sync::Mutex::new(value),
            claims: AtomicUsize::new(0),
        }
    }

    /// Blocks until the lock is free, then takes it.
    #[track_caller]
    pub fn lock(&self) -> LockResult<MutexGuard<'_, T>> {
        self.claims.fetch_add(1, SeqCst);
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        Ok(MutexGuard {
            inner: Some(inner),
            claims: &self.claims,
        })
    }

    /// Takes the lock if nobody holds or waits for it.
    #[track_caller]
    pub fn try_lock(&self) -> TryLockResult<MutexGuard<'_, T>> {
        if self.claims.compare_exchange(0, 1, SeqCst, SeqCst).is_err() {
            return Err(TryLockError::WouldBlock);
        }
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        Ok(MutexGuard {
            inner: Some(inner),
            claims: &self.claims,
        })
    }

    /// The value, for the sole owner.
    pub fn get_mut(&mut self) -> LockResult<&mut T> {
        self.inner.get_mut()
    }

    /// Unwraps the value.
    pub fn into_inner(self) -> LockResult<T> {
        self.inner.into_inner()
    }
}

impl<T> Deref for MutexGuard<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.inner.as_ref().expect("guard taken by a condvar wait")
    }
}

impl<T> DerefMut for MutexGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.inner.as_mut().expect("guard taken by a condvar wait")
    }
}

impl<T> Drop for MutexGuard<'_, T> {
    fn drop(&mut self) {
        if let Some(inner) = self.inner.take() {
            drop(inner);
            self.claims.fetch_sub(1, SeqCst);
        }
    }
}
