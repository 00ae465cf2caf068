//! The thread-local context of a build with the runtime: the current
//! handle, the scheduler this thread drives, and whether it drives one.

use super::TryCurrentError;
use crate::runtime::scheduler;
use crate::util::rng::{self, FastRand};
use std::cell::{Cell, RefCell};

crate::loom::thread_local! {
    static CONTEXT: Context = const {
        Context {
            handle: RefCell::new(None),
            depth: Cell::new(0),
            runtime: Cell::new(EnterRuntime::NotEntered),
        }
    };

    /// The scheduler this thread is driving right now (scoped by
    /// `set_scheduler`). Apart from `CONTEXT` because it needs no
    /// destructor: every wake reads it, and a thread-local without one is
    /// a plain load, with no check that it is still alive.
    static SCHEDULER: Cell<*const scheduler::Context> = const { Cell::new(std::ptr::null()) };
}

struct Context {
    /// The handle `spawn` and friends use; set by `Handle::enter`.
    handle: RefCell<Option<scheduler::Handle>>,
    /// Nesting depth of `enter` guards, to catch guards dropped out of order.
    depth: Cell<usize>,
    /// Whether this thread is driving a runtime (and may not block).
    runtime: Cell<EnterRuntime>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum EnterRuntime {
    /// Driving a runtime; `true` when `block_in_place` is allowed here.
    Entered {
        allow_block_in_place: bool,
    },
    NotEntered,
}

/// Runs `f` with the current handle, or fails.
pub(crate) fn with_current<R>(
    f: impl FnOnce(&scheduler::Handle) -> R,
) -> Result<R, TryCurrentError> {
    match CONTEXT.try_with(|c| c.handle.borrow().as_ref().map(f)) {
        Ok(Some(r)) => Ok(r),
        Ok(None) => Err(TryCurrentError {
            thread_local_destroyed: false,
        }),
        Err(_) => Err(TryCurrentError {
            thread_local_destroyed: true,
        }),
    }
}

/// Makes `handle` current until the guard drops.
pub(crate) struct SetCurrentGuard {
    previous: Option<scheduler::Handle>,
    depth: usize,
}

pub(crate) fn set_current(handle: &scheduler::Handle) -> SetCurrentGuard {
    try_set_current(handle).expect("the thread's runtime context was already destroyed")
}

/// `set_current`, or `None` once this thread's context is destroyed (a
/// runtime dropped by another thread-local's destructor).
pub(crate) fn try_set_current(handle: &scheduler::Handle) -> Option<SetCurrentGuard> {
    CONTEXT
        .try_with(|c| {
            let previous = c.handle.borrow_mut().replace(handle.clone());
            let depth = c.depth.get() + 1;
            c.depth.set(depth);
            SetCurrentGuard { previous, depth }
        })
        .ok()
}

impl Drop for SetCurrentGuard {
    fn drop(&mut self) {
        let _ = CONTEXT.try_with(|c| {
            if c.depth.get() != self.depth {
                if !std::thread::panicking() {
                    panic!(
                        "`EnterGuard` values dropped out of order. Guards returned by \
                         `Handle::enter()` must be dropped in the reverse order as they \
                         were acquired."
                    );
                }
                return;
            }
            *c.handle.borrow_mut() = self.previous.take();
            c.depth.set(self.depth - 1);
        });
    }
}

/// Marks this thread as driving a runtime for the guard's life, installs the
/// runtime's (possibly seeded) random generator, and makes `handle` current.
pub(crate) struct EnterRuntimeGuard {
    _current: SetCurrentGuard,
    previous_rng: Option<FastRand>,
}

const NESTED_RUNTIME: &str = "Cannot start a runtime from within a runtime. This happens because \
     a function (like `block_on`) attempted to block the current thread while the thread is being \
     used to drive asynchronous tasks. If you are in an async function, use `.await` on the \
     future instead of blocking on it.";

/// Enters the runtime, panicking if this thread already drives one.
#[track_caller]
pub(crate) fn enter_runtime(
    handle: &scheduler::Handle,
    allow_block_in_place: bool,
) -> EnterRuntimeGuard {
    let entered = CONTEXT.with(|c| {
        if c.runtime.get() != EnterRuntime::NotEntered {
            return false;
        }
        c.runtime.set(EnterRuntime::Entered {
            allow_block_in_place,
        });
        true
    });
    if !entered {
        panic!("{NESTED_RUNTIME}");
    }
    let rng = FastRand::from_seed(handle.seed_generator().next_seed());
    EnterRuntimeGuard {
        _current: set_current(handle),
        previous_rng: rng::replace_thread_rng(Some(rng)),
    }
}

impl Drop for EnterRuntimeGuard {
    fn drop(&mut self) {
        rng::replace_thread_rng(self.previous_rng.take());
        let _ = CONTEXT.try_with(|c| c.runtime.set(EnterRuntime::NotEntered));
    }
}

/// Forbids `block_in_place` on this thread until dropped; see
/// [`disallow_block_in_place`].
pub(crate) struct DisallowBlockInPlaceGuard(bool);

/// Forbids `block_in_place` while a `LocalSet` polls its tasks (or its own
/// future) on this thread: handing the worker away would strand the set's
/// tasks, which cannot move. A no-op where it is not allowed anyway.
pub(crate) fn disallow_block_in_place() -> DisallowBlockInPlaceGuard {
    let changed = CONTEXT.try_with(|c| {
        let allowed = c.runtime.get()
            == EnterRuntime::Entered {
                allow_block_in_place: true,
            };
        if allowed {
            c.runtime.set(EnterRuntime::Entered {
                allow_block_in_place: false,
            });
        }
        allowed
    });
    DisallowBlockInPlaceGuard(changed.unwrap_or(false))
}

impl Drop for DisallowBlockInPlaceGuard {
    fn drop(&mut self) {
        if self.0 {
            let _ = CONTEXT.try_with(|c| {
                c.runtime.set(EnterRuntime::Entered {
                    allow_block_in_place: true,
                })
            });
        }
    }
}

/// Whether this thread is driving a runtime (so blocking here would stall
/// its tasks).
pub(crate) fn runtime_entered() -> EnterRuntime {
    CONTEXT
        .try_with(|c| c.runtime.get())
        .unwrap_or(EnterRuntime::NotEntered)
}

/// Temporarily leaves the runtime (for `block_in_place`), restoring it on
/// drop, so that the blocking closure may itself call `block_on`.
#[cfg(feature = "rt-multi-thread")]
pub(crate) struct ExitRuntimeGuard(EnterRuntime);

#[cfg(feature = "rt-multi-thread")]
pub(crate) fn exit_runtime() -> ExitRuntimeGuard {
    ExitRuntimeGuard(CONTEXT.with(|c| c.runtime.replace(EnterRuntime::NotEntered)))
}

#[cfg(feature = "rt-multi-thread")]
impl Drop for ExitRuntimeGuard {
    fn drop(&mut self) {
        let _ = CONTEXT.try_with(|c| c.runtime.set(self.0));
    }
}

/// Runs `f` with `cx` as the scheduler this thread drives.
pub(crate) fn set_scheduler<R>(cx: &scheduler::Context, f: impl FnOnce() -> R) -> R {
    struct Reset(*const scheduler::Context);
    impl Drop for Reset {
        fn drop(&mut self) {
            let _ = SCHEDULER.try_with(|c| c.set(self.0));
        }
    }
    // `SCHEDULER` has no destructor, so it outlives the thread's other
    // thread-locals: a runtime dropped by another thread-local's destructor
    // still runs `f` with its scheduler current.
    let _reset = SCHEDULER
        .try_with(|c| c.replace(cx as *const _))
        .ok()
        .map(Reset);
    f()
}

/// Runs `f` with the scheduler this thread drives, if any.
#[inline]
pub(crate) fn with_scheduler<R>(f: impl FnOnce(Option<&scheduler::Context>) -> R) -> R {
    let ptr = SCHEDULER.try_with(|c| c.get()).unwrap_or(std::ptr::null());
    // SAFETY: the pointer is set only by `set_scheduler`, for the duration of
    // a borrow of the context that outlives this call on this thread.
    f(unsafe { ptr.as_ref() })
}
