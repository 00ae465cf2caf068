//! The driver seam: how event sources (the I/O reactor, the timer wheel)
//! plug into a runtime that knows nothing about them.
//!
//! A worker with nothing to run calls [`Driver::park`]. Drivers stack: the
//! time driver wraps the I/O driver (or [`ParkThread`]) and shortens the
//! timeout to the next timer. Each layer may publish a handle (for example
//! the reactor's registration handle) in [`DriverHandles`], where resources
//! find it through [`try_current_driver_handle`] (or, with the `rt`
//! feature, `Handle::driver_handle`).
//!
//! The seam exists in every build, so that a driver crate (rt-time, rt-io)
//! does not need the runtime feature itself: when no crate of the build
//! enables `rt` there is no runtime, and the lookups report a missing
//! context.

use super::TryCurrentError;
use std::any::{Any, TypeId};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// An event source a worker blocks on when idle.
pub trait Driver: Send + 'static {
    /// Blocks until an event, an [`Unpark::unpark`], or the timeout elapses.
    /// `Some(Duration::ZERO)` polls for ready events without blocking.
    fn park(&mut self, timeout: Option<Duration>);

    /// A handle that interrupts `park` from any thread.
    fn unparker(&self) -> Arc<dyn Unpark>;

    /// Runtime shutdown: wake every registered resource so that it observes
    /// the shutdown (with an error) instead of waiting forever.
    fn shutdown(&mut self);
}

/// Interrupts a parked [`Driver`].
pub trait Unpark: Send + Sync + 'static {
    /// Makes the current or next `park` return promptly.
    fn unpark(&self);

    /// Records, without interrupting anything, that the thread inside
    /// `park` handed itself work: a waker the driver fired scheduled a task
    /// (or woke `block_on`) on that same thread, which needs no unpark. A
    /// layer that decides after polling the layer below whether anything
    /// happened reads it: a paused clock must not jump to the next timer
    /// while a task a socket just woke waits to run. The default does
    /// nothing.
    fn note_work(&self) {}
}

/// Handles published by the driver layers, looked up by type.
#[derive(Default, Clone)]
pub struct DriverHandles {
    /// Each handle `Arc<T>` is stored inside a second `Arc`, erased, under
    /// `TypeId::of::<T>()`: a lookup then lends out `&Arc<T>` itself, so a
    /// caller that only checks for a handle, or borrows it, writes no
    /// reference count (timers look theirs up once per timer).
    entries: Vec<(TypeId, Arc<dyn Any + Send + Sync>)>,
}

impl DriverHandles {
    /// An empty set.
    pub fn new() -> DriverHandles {
        DriverHandles::default()
    }

    /// Publishes `handle`, replacing one of the same type.
    pub fn insert<T: Any + Send + Sync>(&mut self, handle: Arc<T>) {
        let key = TypeId::of::<T>();
        self.entries.retain(|(k, _)| *k != key);
        self.entries.push((key, Arc::new(handle)));
    }

    /// The published handle of type `T`, if a layer provides one.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        self.get_ref::<T>().cloned()
    }

    /// The published handle of type `T`, borrowed: the same as
    /// [`get`](Self::get) without cloning the `Arc`.
    pub fn get_ref<T: Any + Send + Sync>(&self) -> Option<&Arc<T>> {
        let key = TypeId::of::<T>();
        // Newest first: each layer wraps the ones before it, and the outer
        // layers' handles are the ones looked up most (timers, per timer).
        let (_, erased) = self.entries.iter().rev().find(|(k, _)| *k == key)?;
        // `insert` files an `Arc<T>` under `TypeId::of::<T>()`, so this
        // downcast always succeeds.
        erased.downcast_ref::<Arc<T>>()
    }
}

impl fmt::Debug for DriverHandles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DriverHandles")
            .field("count", &self.entries.len())
            .finish()
    }
}

/// The handle of type `T` that a driver layer of the current runtime
/// published (`Ok(None)` when no layer did), or an error outside a runtime.
/// The same as `Handle::try_current()?.driver_handle::<T>()` without
/// cloning the runtime's handle, whose reference count every worker would
/// otherwise write to (timers look their driver up per sleep).
pub fn try_current_driver_handle<T: Any + Send + Sync>() -> Result<Option<Arc<T>>, TryCurrentError>
{
    with_current_driver_handle::<T, _>(|handle| handle.cloned())
}

/// Calls `f` with the handle of type `T` that a driver layer of the current
/// runtime published (`None` when no layer did), borrowed, or gives an
/// error outside a runtime. Lets a resource check for its driver, or clone
/// its handle only when it needs one, without writing any reference count.
pub fn with_current_driver_handle<T: Any + Send + Sync, R>(
    f: impl FnOnce(Option<&Arc<T>>) -> R,
) -> Result<R, TryCurrentError> {
    #[cfg(feature = "rt")]
    return super::context::with_current(|inner| f(inner.common().driver_handles.get_ref::<T>()));
    #[cfg(not(feature = "rt"))]
    {
        let _ = f;
        Err(TryCurrentError::missing_context())
    }
}

/// Builds the bottom of a driver stack.
#[cfg(feature = "rt")]
pub(crate) type BaseDriverFactory =
    Box<dyn FnOnce(&mut DriverHandles) -> std::io::Result<Box<dyn Driver>> + Send + Sync>;

/// Wraps the stack built so far in another layer.
#[cfg(feature = "rt")]
pub(crate) type DriverLayerFactory = Box<
    dyn FnOnce(Box<dyn Driver>, &mut DriverHandles) -> std::io::Result<Box<dyn Driver>>
        + Send
        + Sync,
>;

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    struct First(u8);
    struct Second;

    #[test]
    fn handles_are_found_by_type_and_lent_without_cloning() {
        let mut handles = DriverHandles::new();
        let second = Arc::new(Second);
        handles.insert(Arc::new(First(1)));
        handles.insert(second.clone());
        assert_eq!(handles.get_ref::<First>().map(|h| h.0), Some(1));
        let lent = handles.get_ref::<Second>().unwrap();
        assert!(Arc::ptr_eq(lent, &second));
        assert_eq!(Arc::strong_count(&second), 2);
        assert!(handles.get_ref::<u32>().is_none());
        handles.insert(Arc::new(First(3)));
        assert_eq!(handles.get::<First>().map(|h| h.0), Some(3));
    }
}
