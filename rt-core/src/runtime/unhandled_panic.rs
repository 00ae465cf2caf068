//! What a runtime does when a spawned task panics.

use crate::task::Id;
use std::any::Any;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// What the runtime does when a spawned task panics.
///
/// The panic is always caught and handed to the task's `JoinHandle` as a
/// [`JoinError`](crate::task::JoinError); the policy set with
/// [`Builder::unhandled_panic`](super::Builder::unhandled_panic) decides
/// what happens besides. It works the same on both flavors.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use rt_core::runtime::{Builder, UnhandledPanic};
///
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let log = seen.clone();
/// let rt = Builder::new_current_thread()
///     .unhandled_panic(UnhandledPanic::callback(move |id, payload| {
///         let message = payload.downcast_ref::<&str>().copied().unwrap_or("?");
///         log.lock().unwrap().push((id, message.to_string()));
///     }))
///     .build()
///     .unwrap();
/// let task = rt.spawn(async { panic!("boom") });
/// let id = task.id();
/// assert!(rt.block_on(task).unwrap_err().is_panic());
/// assert_eq!(*seen.lock().unwrap(), vec![(id, "boom".to_string())]);
/// ```
#[derive(Clone, Default)]
#[non_exhaustive]
pub enum UnhandledPanic {
    /// Keep running (the default, as in tokio).
    #[default]
    Ignore,
    /// Stop the runtime: every other task is cancelled at once, new spawns
    /// are cancelled, and `block_on` panics at its next scheduling point
    /// (current-thread) or no longer makes progress on spawned tasks
    /// (multi-thread, whose workers stop).
    ShutdownRuntime,
    /// Call a function with the task's id and the panic payload, on the
    /// thread where the task panicked, then keep running. A panic in the
    /// callback itself is caught and dropped.
    Callback(PanicCallback),
}

/// The function of [`UnhandledPanic::Callback`].
#[derive(Clone)]
pub struct PanicCallback(Arc<PanicFn>);

type PanicFn = dyn Fn(Id, &(dyn Any + Send)) + Send + Sync;

impl PanicCallback {
    /// Wraps `f`.
    pub fn new<F>(f: F) -> PanicCallback
    where
        F: Fn(Id, &(dyn Any + Send)) + Send + Sync + 'static,
    {
        PanicCallback(Arc::new(f))
    }

    /// Calls the function, containing a panic it raises.
    pub(crate) fn call(&self, id: Id, payload: &(dyn Any + Send)) {
        let _ = catch_unwind(AssertUnwindSafe(|| (self.0)(id, payload)));
    }
}

impl UnhandledPanic {
    /// [`UnhandledPanic::Callback`] calling `f`.
    pub fn callback<F>(f: F) -> UnhandledPanic
    where
        F: Fn(Id, &(dyn Any + Send)) + Send + Sync + 'static,
    {
        UnhandledPanic::Callback(PanicCallback::new(f))
    }
}

impl fmt::Debug for PanicCallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PanicCallback(..)")
    }
}

impl fmt::Debug for UnhandledPanic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnhandledPanic::Ignore => f.write_str("Ignore"),
            UnhandledPanic::ShutdownRuntime => f.write_str("ShutdownRuntime"),
            UnhandledPanic::Callback(_) => f.write_str("Callback(..)"),
        }
    }
}
