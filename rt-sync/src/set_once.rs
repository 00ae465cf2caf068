//! `SetOnce`: a value set once by anyone and awaited by many.
//!
//! A three-state atomic (`EMPTY`, `SETTING`, `SET`) elects the one setter;
//! the value is written in `SETTING` and published by the move to `SET`,
//! after which waiters are released through a [`Notify`].

use crate::notify::Notify;
use rt_core::loom::cell::UnsafeCell;
use rt_core::loom::sync::atomic::{AtomicU8, Ordering};
use std::fmt;
use std::mem::MaybeUninit;
use std::pin::pin;

const EMPTY: u8 = 0;
const SETTING: u8 = 1;
const SET: u8 = 2;

/// A cell that is set at most once and can be awaited until it is.
///
/// ```
/// use rt_sync::SetOnce;
///
/// # rt_sync::__doc::block_on(async {
/// let cell = SetOnce::new();
/// cell.set(5).unwrap();
/// assert!(cell.set(6).is_err());
/// assert_eq!(*cell.wait().await, 5);
/// # });
/// ```
pub struct SetOnce<T> {
    state: AtomicU8,
    value: UnsafeCell<MaybeUninit<T>>,
    set: Notify,
}

/// [`SetOnce::set`] found the cell already set (or being set); the value
/// comes back.
#[derive(Debug, PartialEq, Eq)]
pub struct SetOnceError<T>(pub T);

impl<T> fmt::Display for SetOnceError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SetOnceError")
    }
}

impl<T: fmt::Debug> std::error::Error for SetOnceError<T> {}

// SAFETY: written once by the elected setter before `SET` is published,
// then only shared (`T: Sync`) or moved out through ownership (`T: Send`).
unsafe impl<T: Send + Sync> Sync for SetOnce<T> {}
// SAFETY: owning the cell owns the value.
unsafe impl<T: Send> Send for SetOnce<T> {}

impl<T> SetOnce<T> {
    /// An empty cell.
    pub fn new() -> SetOnce<T> {
        SetOnce {
            state: AtomicU8::new(EMPTY),
            value: UnsafeCell::new(MaybeUninit::uninit()),
            set: Notify::new(),
        }
    }

    /// A cell holding `value` if it is `Some`.
    pub fn new_with(value: Option<T>) -> SetOnce<T> {
        let cell = SetOnce::new();
        if let Some(value) = value {
            let _ = cell.set(value);
        }
        cell
    }

    /// An empty cell, usable in a `static`.
    #[cfg(not(loom))]
    pub const fn const_new() -> SetOnce<T> {
        SetOnce {
            state: AtomicU8::new(EMPTY),
            value: UnsafeCell::new(MaybeUninit::uninit()),
            set: Notify::const_new(),
        }
    }

    /// A cell holding `value`, usable in a `static`.
    #[cfg(not(loom))]
    pub const fn const_new_with(value: T) -> SetOnce<T> {
        SetOnce {
            state: AtomicU8::new(SET),
            value: UnsafeCell::new(MaybeUninit::new(value)),
            set: Notify::const_new(),
        }
    }

    /// Whether the value is set.
    pub fn initialized(&self) -> bool {
        self.state.load(Ordering::Acquire) == SET
    }

    /// The value, if set.
    pub fn get(&self) -> Option<&T> {
        if self.initialized() {
            // SAFETY: `SET` is published only after the value was written,
            // and it is never written again.
            Some(unsafe { &*self.value.with(|v| (*v).as_ptr()) })
        } else {
            None
        }
    }

    /// Sets the value and wakes every waiter, unless it is already set or
    /// being set.
    pub fn set(&self, value: T) -> Result<(), SetOnceError<T>> {
        if self
            .state
            .compare_exchange(EMPTY, SETTING, Ordering::Acquire, Ordering::Acquire)
            .is_err()
        {
            return Err(SetOnceError(value));
        }
        // SAFETY: winning EMPTY -> SETTING makes us the only writer, and no
        // reader looks before SET.
        unsafe { self.value.with_mut(|v| (*v).write(value)) };
        self.state.store(SET, Ordering::Release);
        self.set.notify_waiters();
        Ok(())
    }

    /// Waits until the value is set.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe.
    pub async fn wait(&self) -> &T {
        loop {
            let mut notified = pin!(self.set.notified());
            notified.as_mut().enable();
            if let Some(value) = self.get() {
                return value;
            }
            notified.await;
        }
    }

    /// The value, if set.
    pub fn into_inner(self) -> Option<T> {
        if !self.initialized() {
            return None;
        }
        self.state.store(EMPTY, Ordering::Relaxed);
        // SAFETY: the value was set; the state is reset so `Drop` leaves
        // it, and `self` is consumed, so it is moved out once.
        Some(unsafe { self.value.with(|v| (*v).as_ptr().read()) })
    }
}

impl<T> Drop for SetOnce<T> {
    fn drop(&mut self) {
        if self.initialized() {
            // SAFETY: set, and nobody can observe the cell any more.
            unsafe { self.value.with_mut(|v| (*v).assume_init_drop()) };
        }
    }
}

impl<T> Default for SetOnce<T> {
    fn default() -> Self {
        SetOnce::new()
    }
}

impl<T> From<T> for SetOnce<T> {
    fn from(value: T) -> Self {
        SetOnce::new_with(Some(value))
    }
}

impl<T: Clone> Clone for SetOnce<T> {
    fn clone(&self) -> Self {
        SetOnce::new_with(self.get().cloned())
    }
}

impl<T: PartialEq> PartialEq for SetOnce<T> {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl<T: Eq> Eq for SetOnce<T> {}

impl<T: fmt::Debug> fmt::Debug for SetOnce<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SetOnce")
            .field("value", &self.get())
            .finish()
    }
}
