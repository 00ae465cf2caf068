//! The one place that chooses between `std` and `loom`.
//!
//! Every atomic, cell, lock, condition variable, thread and thread-local
//! that takes part in a concurrent protocol is named through this module,
//! so that `RUSTFLAGS="--cfg loom"` swaps all of them for loom's
//! model-checked versions at once, and the schedulers, their parkers and
//! the blocking pool run whole inside a loom model. Other rt crates import
//! this module instead of keeping a shim of their own.
//!
//! # The rule
//!
//! In rt-core's `src/`, name these only through `crate::loom`:
//!
//! * `Mutex`, `MutexGuard`, `RwLock`, `Condvar` and every atomic type
//!   (`crate::loom::sync`, `crate::loom::sync::atomic`);
//! * thread creation (`spawn`, `Builder`), `JoinHandle`, `current`,
//!   `ThreadId` and `yield_now` (`crate::loom::thread`);
//! * `thread_local!` (`crate::loom::thread_local!`): loom runs its threads
//!   as coroutines on one OS thread, so a `std` thread-local would be one
//!   value shared by every modelled thread;
//! * `Instant`, where a decision depends on elapsed time
//!   (`crate::loom::time`): see below;
//! * process-wide counters in `static`s, such as task ids
//!   (`crate::loom::counter::Counter`): under loom they start afresh in
//!   each execution, so that the numbers (task ids pick a lock) are the
//!   same in every replay.
//!
//! `std::sync::Arc` (for the scheduler handles, wakers and hooks, which
//! `Waker::from` and `Arc<dyn Trait>` need as std's; loom only loses its
//! leak check on them) and `std::sync::OnceLock` (set once before any
//! modelled thread reads it) may be used directly. State shared within a
//! protocol under test uses `crate::loom::sync::Arc`. The names allowed
//! and the few files excepted, each with its reason, are listed in one
//! place, `xtask/src/shim_check.rs`.
//!
//! Unit tests that never run under loom (`#[cfg(all(test, not(loom)))]`)
//! may use `std` directly.
//!
//! Where loom lacks a piece or gets it wrong, `model` (compiled only under
//! loom) builds it from loom's primitives: the virtual clock, timed condvar
//! waits, a `try_lock` that does not block, the
//! counters and `JoinHandle::is_finished`. It also gives models their
//! runner, `explore(preemptions, f)`: loom's model builder with a
//! preemption bound of the model's own, for models too large for the
//! environment's bound.
//!
//! A clippy `disallowed-types` list cannot enforce this rule: clippy
//! resolves a re-export to the type it names, so it flags this module's
//! own users along with direct uses. `cargo xtask ci` enforces it with a
//! source scan of rt-core, rt-io, rt-sync and rt-time (`shim_check.rs`),
//! which fails on a `std::sync` atomic, `Mutex`, `RwLock` or `Condvar`, or
//! `parking_lot`, outside its exceptions.
//!
//! # Time under loom
//!
//! Loom has no clock, and its `Condvar::wait_timeout` never times out.
//! Here a timed wait under loom lets the other threads run
//! (`yield_now`), then returns as though its timeout elapsed, having moved
//! a per-execution virtual clock forward by that timeout; `time::Instant`
//! reads that clock. A timed park is therefore a park that may return
//! without a notification, which every caller already handles (timeouts
//! and spurious wake-ups look the same to them), and code that measures
//! elapsed time across a timed wait (the blocking pool's keep-alive, the
//! LIFO watcher's interval) sees exactly that timeout pass, the same in
//! every execution, as loom requires.

#[cfg(loom)]
mod model;

#[cfg(not(loom))]
mod imp {
    pub mod sync {
        pub use std::sync::{
            mpsc, Arc, Condvar, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard,
            WaitTimeoutResult,
        };

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
        pub use std::thread::{
            current, panicking, spawn, yield_now, Builder, JoinHandle, LocalKey, ThreadId,
        };
    }

    pub mod hint {
        pub use std::hint::spin_loop;
    }

    pub mod time {
        pub use std::time::Instant;
    }

    pub mod counter {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

        /// A process-wide source of unique numbers, for a `static`.
        #[derive(Debug)]
        pub struct Counter(AtomicU64);

        impl Counter {
            /// A counter whose first number is `first`.
            pub const fn new(first: u64) -> Counter {
                Counter(AtomicU64::new(first))
            }

            /// The next number: unique, and greater than the ones before
            /// it until the counter wraps.
            pub fn next(&self) -> u64 {
                self.0.fetch_add(1, Relaxed)
            }
        }
    }

    pub use std::thread_local;
}

#[cfg(loom)]
mod imp {
    pub mod sync {
        pub use crate::loom::model::condvar::{Condvar, WaitTimeoutResult};
        pub use crate::loom::model::mutex::{Mutex, MutexGuard};
        pub use loom::sync::{mpsc, Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

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
        pub use crate::loom::model::thread::{spawn, Builder, JoinHandle};
        pub use loom::thread::{current, yield_now, LocalKey, ThreadId};
        pub use std::thread::panicking;
    }

    pub mod hint {
        pub use loom::hint::spin_loop;
    }

    pub mod time {
        pub use crate::loom::model::clock::Instant;
    }

    pub mod counter {
        pub use crate::loom::model::counter::Counter;
    }

    pub use crate::__rt_loom_thread_local as thread_local;

    pub use crate::loom::model::explore::explore;

    /// The loom crate, for the expansion of [`thread_local!`] in crates
    /// that do not depend on loom themselves.
    #[doc(hidden)]
    pub use loom as __loom;
}

pub use imp::*;

/// `thread_local!` under loom: loom's own macro predates `const { .. }`
/// initializers, which rt-core's thread-locals use, so they are unwrapped
/// here (loom initializes lazily either way).
#[cfg(loom)]
#[doc(hidden)]
#[macro_export]
macro_rules! __rt_loom_thread_local {
    () => {};
    ($(#[$attr:meta])* $vis:vis static $name:ident: $t:ty = const { $init:expr }; $($rest:tt)*) => {
        $crate::loom::__loom::thread_local!($(#[$attr])* $vis static $name: $t = $init);
        $crate::__rt_loom_thread_local!($($rest)*);
    };
    ($(#[$attr:meta])* $vis:vis static $name:ident: $t:ty = const { $init:expr }) => {
        $crate::loom::__loom::thread_local!($(#[$attr])* $vis static $name: $t = $init);
    };
    ($(#[$attr:meta])* $vis:vis static $name:ident: $t:ty = $init:expr; $($rest:tt)*) => {
        $crate::loom::__loom::thread_local!($(#[$attr])* $vis static $name: $t = $init);
        $crate::__rt_loom_thread_local!($($rest)*);
    };
    ($(#[$attr:meta])* $vis:vis static $name:ident: $t:ty = $init:expr) => {
        $crate::loom::__loom::thread_local!($(#[$attr])* $vis static $name: $t = $init);
    };
}
