//! The one place that chooses between `std` and `loom`.
//!
//! Every atomic, cell, lock and thread that takes part in a concurrent
//! protocol is named through this module, so that `RUSTFLAGS="--cfg loom"`
//! swaps all of them for loom's model-checked versions at once. Other rt
//! crates import this module instead of keeping a shim of their own.

#[cfg(not(loom))]
mod imp {
    pub mod sync {
        pub use std::sync::{Arc, Condvar, Mutex, MutexGuard, RwLock, WaitTimeoutResult};

        pub mod atomic {
            pub use std::sync::atomic::{
                fence, AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering,
            };
        }
    }

    pub mod cell {
        /// `std::cell::UnsafeCell` behind loom's closure-based API, so that
        /// code reads the same under both configurations.
        #[derive(Debug)]
        #[repr(transparent)]
        pub struct UnsafeCell<T: ?Sized>(std::cell::UnsafeCell<T>);

        impl<T> UnsafeCell<T> {
            /// Wraps `value`.
            pub const fn new(value: T) -> UnsafeCell<T> {
                UnsafeCell(std::cell::UnsafeCell::new(value))
            }

            /// Unwraps the value.
            pub fn into_inner(self) -> T {
                self.0.into_inner()
            }
        }

        impl<T: ?Sized> UnsafeCell<T> {
            /// Runs `f` with a shared pointer to the value.
            #[inline(always)]
            pub fn with<R>(&self, f: impl FnOnce(*const T) -> R) -> R {
                f(self.0.get())
            }

            /// Runs `f` with a unique pointer to the value.
            #[inline(always)]
            pub fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
                f(self.0.get())
            }
        }
    }

    pub mod thread {
        pub use std::thread::{current, panicking, spawn, yield_now, JoinHandle};
    }

    pub mod hint {
        pub use std::hint::spin_loop;
    }

    pub use std::thread_local;
}

#[cfg(loom)]
mod imp {
    pub mod sync {
        pub use loom::sync::{Arc, Condvar, Mutex, MutexGuard, RwLock, WaitTimeoutResult};

        pub mod atomic {
            pub use loom::sync::atomic::{
                fence, AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering,
            };
        }
    }

    pub mod cell {
        pub use loom::cell::UnsafeCell;
    }

    pub mod thread {
        pub use loom::thread::{current, spawn, yield_now, JoinHandle};
        pub use std::thread::panicking;
    }

    pub mod hint {
        pub use loom::hint::spin_loop;
    }

    pub use loom::thread_local;
}

pub use imp::*;
