//! `OnceCell`: a value initialised at most once, possibly asynchronously.
//!
//! A flag says whether the value is there; a one-permit batch semaphore
//! picks the one initialiser at a time. Once the value is stored, the
//! semaphore is closed, which releases every queued initialiser at once.

use crate::batch_semaphore as ll;
use rt_core::loom::cell::UnsafeCell;
use rt_core::loom::sync::atomic::{AtomicBool, Ordering};
use std::fmt;
use std::future::Future;
use std::mem::MaybeUninit;

/// A cell written once; readers wait on no one once it is set.
///
/// ```
/// use rt_sync::OnceCell;
///
/// # rt_sync::__doc::block_on(async {
/// let cell = OnceCell::new();
/// let value = cell.get_or_init(|| async { 3 }).await;
/// assert_eq!(*value, 3);
/// assert_eq!(cell.get_or_init(|| async { 4 }).await, &3);
/// # });
/// ```
pub struct OnceCell<T> {
    value_set: AtomicBool,
    value: UnsafeCell<MaybeUninit<T>>,
    semaphore: ll::Semaphore,
}

/// Why [`OnceCell::set`] failed; the value comes back.
#[derive(Debug, PartialEq, Eq)]
pub enum SetError<T> {
    /// The cell already holds a value.
    AlreadyInitializedError(T),
    /// Another task is initialising the cell right now.
    InitializingError(T),
}

impl<T> SetError<T> {
    /// Whether the cell was already set.
    pub fn is_already_init_err(&self) -> bool {
        matches!(self, SetError::AlreadyInitializedError(_))
    }

    /// Whether the cell was being initialised.
    pub fn is_initializing_err(&self) -> bool {
        matches!(self, SetError::InitializingError(_))
    }
}

impl<T> fmt::Display for SetError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetError::AlreadyInitializedError(_) => f.write_str("AlreadyInitializedError"),
            SetError::InitializingError(_) => f.write_str("InitializingError"),
        }
    }
}

impl<T: fmt::Debug> std::error::Error for SetError<T> {}

// SAFETY: the value is written once, by the permit holder, before
// `value_set` is published; afterwards it is only read (`&T`, hence
// `T: Sync`) or moved out through `&mut self` (hence `T: Send`).
unsafe impl<T: Sync + Send> Sync for OnceCell<T> {}
// SAFETY: owning the cell owns the value.
unsafe impl<T: Send> Send for OnceCell<T> {}

/// Gives the initialisation permit back unless the value was stored.
struct InitGuard<'a> {
    semaphore: &'a ll::Semaphore,
}

impl Drop for InitGuard<'_> {
    fn drop(&mut self) {
        self.semaphore.release(1);
    }
}

impl<T> OnceCell<T> {
    /// An empty cell.
    pub fn new() -> OnceCell<T> {
        OnceCell {
            value_set: AtomicBool::new(false),
            value: UnsafeCell::new(MaybeUninit::uninit()),
            semaphore: ll::Semaphore::new(1),
        }
    }

    /// A cell holding `value` if it is `Some`.
    pub fn new_with(value: Option<T>) -> OnceCell<T> {
        let cell = OnceCell::new();
        if let Some(value) = value {
            cell.store(value);
        }
        cell
    }

    /// An empty cell, usable in a `static`.
    #[cfg(not(loom))]
    pub const fn const_new() -> OnceCell<T> {
        OnceCell {
            value_set: AtomicBool::new(false),
            value: UnsafeCell::new(MaybeUninit::uninit()),
            semaphore: ll::Semaphore::const_new(1),
        }
    }

    /// A cell holding `value`, usable in a `static`.
    #[cfg(not(loom))]
    pub const fn const_new_with(value: T) -> OnceCell<T> {
        OnceCell {
            value_set: AtomicBool::new(true),
            value: UnsafeCell::new(MaybeUninit::new(value)),
            semaphore: ll::Semaphore::const_new_closed(),
        }
    }

    /// Whether the cell holds a value.
    pub fn initialized(&self) -> bool {
        self.value_set.load(Ordering::Acquire)
    }

    /// The value, if set.
    pub fn get(&self) -> Option<&T> {
        if self.initialized() {
            // SAFETY: `value_set` is only published after the value was
            // written, and it is never written again.
            Some(unsafe { &*self.value.with(|v| (*v).as_ptr()) })
        } else {
            None
        }
    }

    /// The value, mutably, if set.
    pub fn get_mut(&mut self) -> Option<&mut T> {
        if self.initialized() {
            // SAFETY: set, and `&mut self` rules out any other access.
            Some(unsafe { &mut *self.value.with_mut(|v| (*v).as_mut_ptr()) })
        } else {
            None
        }
    }

    /// Writes the value; the caller holds the only permit (or owns the
    /// cell exclusively) and the value is not set.
    fn store(&self, value: T) -> &T {
        // SAFETY: the caller is the only writer and no reader looks before
        // `value_set` is published below.
        unsafe { self.value.with_mut(|v| (*v).write(value)) };
        self.value_set.store(true, Ordering::Release);
        // Release every queued initialiser: they will find the value.
        self.semaphore.close();
        self.get().expect("just stored")
    }

    /// Stores `value` unless the cell is set or being initialised.
    pub fn set(&self, value: T) -> Result<(), SetError<T>> {
        if self.initialized() {
            return Err(SetError::AlreadyInitializedError(value));
        }
        match self.semaphore.try_acquire(1) {
            Ok(()) => {
                self.store(value);
                Ok(())
            }
            Err(ll::TryAcquireError::NoPermits) => Err(SetError::InitializingError(value)),
            Err(ll::TryAcquireError::Closed) => Err(SetError::AlreadyInitializedError(value)),
        }
    }

    /// The value, initialising it with `init` first if the cell is empty.
    /// If several tasks call this at once, one runs its `init`; the others
    /// wait for it and get its value.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe: if the task running `init` is cancelled (or `init`
    /// panics), the next waiting task runs its own `init` instead.
    pub async fn get_or_init<F, Fut>(&self, init: F) -> &T
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = T>,
    {
        match self
            .get_or_try_init(|| async { Ok::<T, std::convert::Infallible>(init().await) })
            .await
        {
            Ok(value) => value,
            Err(never) => match never {},
        }
    }

    /// As [`get_or_init`](Self::get_or_init), but `init` may fail; on
    /// failure the cell stays empty and the next waiter tries.
    ///
    /// # Cancel safety
    ///
    /// As for [`get_or_init`](Self::get_or_init).
    pub async fn get_or_try_init<E, F, Fut>(&self, init: F) -> Result<&T, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T, E>>,
    {
        if let Some(value) = self.get() {
            return Ok(value);
        }
        if self.semaphore.acquire(1).await.is_err() {
            // Closed: somebody stored the value.
            return Ok(self.get().expect("closed only once set"));
        }
        let guard = InitGuard {
            semaphore: &self.semaphore,
        };
        if let Some(value) = self.get() {
            return Ok(value);
        }
        match init().await {
            Ok(value) => {
                // The permit is used up: storing closes the semaphore.
                std::mem::forget(guard);
                Ok(self.store(value))
            }
            Err(e) => Err(e),
        }
    }

    /// Takes the value out, leaving the cell empty (and ready to be
    /// initialised again).
    pub fn take(&mut self) -> Option<T> {
        let value = self.take_value();
        *self = OnceCell::new();
        value
    }

    /// The value, if set.
    pub fn into_inner(mut self) -> Option<T> {
        self.take_value()
    }

    /// Moves the value out and marks the cell empty, so `Drop` leaves it.
    fn take_value(&mut self) -> Option<T> {
        if !self.initialized() {
            return None;
        }
        self.value_set.store(false, Ordering::Relaxed);
        // SAFETY: the value was set and `&mut self` rules out other access;
        // the flag is cleared, so it is moved out exactly once.
        Some(unsafe { self.value.with(|v| (*v).as_ptr().read()) })
    }
}

impl<T> Drop for OnceCell<T> {
    fn drop(&mut self) {
        if self.initialized() {
            // SAFETY: set, and nobody can observe the cell any more.
            unsafe { self.value.with_mut(|v| (*v).assume_init_drop()) };
        }
    }
}

impl<T> Default for OnceCell<T> {
    fn default() -> Self {
        OnceCell::new()
    }
}

impl<T> From<T> for OnceCell<T> {
    fn from(value: T) -> Self {
        OnceCell::new_with(Some(value))
    }
}

impl<T: Clone> Clone for OnceCell<T> {
    fn clone(&self) -> Self {
        OnceCell::new_with(self.get().cloned())
    }
}

impl<T: PartialEq> PartialEq for OnceCell<T> {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl<T: Eq> Eq for OnceCell<T> {}

impl<T: fmt::Debug> fmt::Debug for OnceCell<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OnceCell")
            .field("value", &self.get())
            .finish()
    }
}
