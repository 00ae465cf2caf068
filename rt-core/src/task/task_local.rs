//! Task-local storage: `task_local!`, [`LocalKey`] and the
//! [`TaskLocalFuture`] that carries a value along with a future.
//!
//! A task-local value lives in the future that [`LocalKey::scope`] returns,
//! not in a thread. Each time that future is polled (or dropped) the value
//! is swapped into a thread-local slot, and swapped back out afterwards,
//! even on panic. Code running inside the poll therefore sees the value,
//! and code elsewhere on the same thread (other tasks) does not.

use pin_project_lite::pin_project;
use std::cell::RefCell;
use std::error::Error;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Declares task-local keys: `static` items of type [`LocalKey`].
///
/// Each key is given a value for the duration of a future with
/// [`LocalKey::scope`], or of a closure with [`LocalKey::sync_scope`].
///
/// ```
/// rt_core::task_local! {
///     /// The id of the request being served.
///     pub static REQUEST_ID: u32;
///     static USER: String;
/// }
///
/// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// rt.block_on(REQUEST_ID.scope(7, async {
///     assert_eq!(REQUEST_ID.get(), 7);
///     assert!(USER.try_with(|_| ()).is_err());
/// }));
/// ```
#[macro_export]
macro_rules! task_local {
    () => {};

    ($(#[$attr:meta])* $vis:vis static $name:ident: $t:ty; $($rest:tt)*) => {
        $crate::__task_local_key!($(#[$attr])* $vis $name, $t);
        $crate::task_local!($($rest)*);
    };

    ($(#[$attr:meta])* $vis:vis static $name:ident: $t:ty) => {
        $crate::__task_local_key!($(#[$attr])* $vis $name, $t);
    };
}

/// Defines one key for [`task_local!`]; not public API.
#[doc(hidden)]
#[macro_export]
macro_rules! __task_local_key {
    ($(#[$attr:meta])* $vis:vis $name:ident, $t:ty) => {
        $(#[$attr])*
        $vis static $name: $crate::task::LocalKey<$t> = {
            $crate::loom::thread_local! {
                static __RT_TASK_LOCAL: ::std::cell::RefCell<::std::option::Option<$t>> =
                    const { ::std::cell::RefCell::new(::std::option::Option::None) };
            }
            $crate::task::LocalKey::__new(&__RT_TASK_LOCAL)
        };
    };
}

/// A key for task-local data, declared with [`task_local!`](crate::task_local).
///
/// The value is only reachable while a [`scope`](Self::scope) future is
/// being polled, or inside a [`sync_scope`](Self::sync_scope) closure.
pub struct LocalKey<T: 'static> {
    slot: &'static crate::loom::thread::LocalKey<RefCell<Option<T>>>,
}

/// Why a task-local value could not be read: no scope has set it here.
#[derive(Clone, Copy, Eq, PartialEq)]
pub struct AccessError {
    _private: (),
}

/// Why entering a scope failed.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum ScopeError {
    /// The slot was borrowed (a scope entered from inside `with`).
    Borrowed,
    /// The thread-local was already destroyed.
    Destroyed,
}

impl ScopeError {
    #[track_caller]
    fn panic(self) -> ! {
        match self {
            ScopeError::Borrowed => {
                panic!("cannot enter a task-local scope while the task-local storage is borrowed")
            }
            ScopeError::Destroyed => panic!(
                "cannot enter a task-local scope during or after destruction of the \
                 underlying thread-local"
            ),
        }
    }
}

impl<T: 'static> LocalKey<T> {
    #[doc(hidden)]
    pub const fn __new(
        slot: &'static crate::loom::thread::LocalKey<RefCell<Option<T>>>,
    ) -> LocalKey<T> {
        LocalKey { slot }
    }

    /// Wraps `future` so that the key holds `value` whenever the future is
    /// polled.
    ///
    /// ```
    /// rt_core::task_local! { static DEPTH: u8; }
    ///
    /// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
    /// let seen = rt.block_on(DEPTH.scope(1, async {
    ///     rt_core::task::yield_now().await;
    ///     DEPTH.get()
    /// }));
    /// assert_eq!(seen, 1);
    /// ```
    pub fn scope<F: Future>(&'static self, value: T, future: F) -> TaskLocalFuture<T, F> {
        TaskLocalFuture {
            key: self,
            value: Some(value),
            future: Some(future),
        }
    }

    /// Runs `f` with the key holding `value`.
    ///
    /// # Panics
    ///
    /// If called from inside [`with`](Self::with) on the same key.
    ///
    /// ```
    /// rt_core::task_local! { static NAME: &'static str; }
    ///
    /// let len = NAME.sync_scope("rt", || NAME.with(|n| n.len()));
    /// assert_eq!(len, 2);
    /// ```
    #[track_caller]
    pub fn sync_scope<F: FnOnce() -> R, R>(&'static self, value: T, f: F) -> R {
        let mut value = Some(value);
        match self.enter(&mut value, f) {
            Ok(out) => out,
            Err(e) => e.panic(),
        }
    }

    /// Swaps `value` into the slot, runs `f`, and swaps it back out (also
    /// when `f` panics).
    fn enter<F: FnOnce() -> R, R>(
        &'static self,
        value: &mut Option<T>,
        f: F,
    ) -> Result<R, ScopeError> {
        struct SwapBack<'a, T: 'static> {
            key: &'static LocalKey<T>,
            value: &'a mut Option<T>,
        }
        impl<T: 'static> Drop for SwapBack<'_, T> {
            fn drop(&mut self) {
                // The swap in succeeded, so the slot exists and nobody can
                // hold a borrow across the end of `f`.
                let _ = self.key.slot.try_with(|slot| {
                    if let Ok(mut slot) = slot.try_borrow_mut() {
                        std::mem::swap(self.value, &mut *slot);
                    }
                });
            }
        }

        self.slot
            .try_with(|slot| {
                slot.try_borrow_mut()
                    .map(|mut slot| std::mem::swap(value, &mut *slot))
                    .map_err(|_| ScopeError::Borrowed)
            })
            .map_err(|_| ScopeError::Destroyed)??;
        let _swap_back = SwapBack { key: self, value };
        Ok(f())
    }

    /// Runs `f` with a reference to the value.
    ///
    /// # Panics
    ///
    /// If the key has no value here (outside any scope).
    #[track_caller]
    pub fn with<F: FnOnce(&T) -> R, R>(&'static self, f: F) -> R {
        match self.try_with(f) {
            Ok(out) => out,
            Err(_) => panic!("cannot access a task-local storage value without setting it first"),
        }
    }

    /// Runs `f` with a reference to the value, or fails if the key has no
    /// value here.
    pub fn try_with<F: FnOnce(&T) -> R, R>(&'static self, f: F) -> Result<R, AccessError> {
        let found = self.slot.try_with(|slot| {
            let Ok(slot) = slot.try_borrow() else {
                return Err(AccessError { _private: () });
            };
            match slot.as_ref() {
                Some(value) => Ok(f(value)),
                None => Err(AccessError { _private: () }),
            }
        });
        match found {
            Ok(res) => res,
            Err(_) => Err(AccessError { _private: () }),
        }
    }
}

impl<T: Clone + 'static> LocalKey<T> {
    /// A clone of the value.
    ///
    /// # Panics
    ///
    /// If the key has no value here (outside any scope).
    #[track_caller]
    pub fn get(&'static self) -> T {
        self.with(|value| value.clone())
    }

    /// A clone of the value, or an [`AccessError`] where the key has no
    /// value (outside any scope).
    ///
    /// ```
    /// rt_core::task_local! {
    ///     static REQUEST: u32;
    /// }
    ///
    /// assert!(REQUEST.try_get().is_err());
    /// REQUEST.sync_scope(7, || assert_eq!(REQUEST.try_get(), Ok(7)));
    /// ```
    pub fn try_get(&'static self) -> Result<T, AccessError> {
        self.try_with(|value| value.clone())
    }
}

impl<T: 'static> fmt::Debug for LocalKey<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad("LocalKey { .. }")
    }
}

impl fmt::Debug for AccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AccessError").finish()
    }
}

impl fmt::Display for AccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("task-local value not set")
    }
}

impl Error for AccessError {}

pin_project! {
    /// A future that sets a task-local value while it polls the future it
    /// wraps; made by [`LocalKey::scope`].
    #[must_use = "futures do nothing unless you `.await` or poll them"]
    pub struct TaskLocalFuture<T: 'static, F> {
        key: &'static LocalKey<T>,
        // The value, while it is not swapped into the thread-local. Never
        // pinned, so the wrapper is `Unpin` whenever the future is.
        value: Option<T>,
        // `None` once the future completed; polled through a pin and
        // dropped in place.
        #[pin]
        future: Option<F>,
    }

    impl<T: 'static, F> PinnedDrop for TaskLocalFuture<T, F> {
        fn drop(this: Pin<&mut Self>) {
            let this = this.project();
            if !std::mem::needs_drop::<F>() || this.future.is_none() {
                return;
            }
            let mut future = this.future;
            // Drop the future with the value visible, as its destructor may
            // read it. If the scope cannot be entered (the thread is
            // exiting), it is dropped without the value by the field drop
            // that follows.
            let _ = this.key.enter(this.value, || future.set(None));
        }
    }
}

impl<T: 'static, F> TaskLocalFuture<T, F> {
    /// Takes the value out of the future, leaving the key unset for any
    /// later poll. `None` if it was already taken.
    ///
    /// ```
    /// rt_core::task_local! { static KEY: u32; }
    ///
    /// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
    /// let mut fut = std::pin::pin!(KEY.scope(5, async { KEY.get() + 1 }));
    /// assert_eq!(rt.block_on(&mut fut), 6);
    /// assert_eq!(fut.as_mut().take_value(), Some(5));
    /// assert_eq!(fut.as_mut().take_value(), None);
    /// ```
    pub fn take_value(self: Pin<&mut Self>) -> Option<T> {
        self.project().value.take()
    }
}

impl<T: 'static, F: Future> Future for TaskLocalFuture<T, F> {
    type Output = F::Output;

    #[track_caller]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        let mut future = this.future;
        let polled = this.key.enter(this.value, || {
            let Some(inner) = future.as_mut().as_pin_mut() else {
                panic!("`TaskLocalFuture` polled after completion");
            };
            let polled = inner.poll(cx);
            if polled.is_ready() {
                // Drop the finished future in place, inside the scope.
                future.set(None);
            }
            polled
        });
        match polled {
            Ok(polled) => polled,
            Err(e) => e.panic(),
        }
    }
}

impl<T: 'static + fmt::Debug, F> fmt::Debug for TaskLocalFuture<T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskLocalFuture")
            .field("value", &self.value)
            .finish_non_exhaustive()
    }
}

/// Futures that have a type of their own, at tokio's `task::futures` path.
pub mod futures {
    pub use super::TaskLocalFuture;
}
