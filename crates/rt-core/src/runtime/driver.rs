//! The driver seam: how event sources (the I/O reactor, the timer wheel)
//! plug into a runtime that knows nothing about them.
//!
//! A worker with nothing to run calls [`Driver::park`]. Drivers stack: the
//! time driver wraps the I/O driver (or [`ParkThread`]) and shortens the
//! timeout to the next timer. Each layer may publish a handle (for example
//! the reactor's registration handle) in [`DriverHandles`], where resources
//! find it through [`Handle::driver_handle`](crate::runtime::Handle::driver_handle).

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
}

/// Handles published by the driver layers, looked up by type.
#[derive(Default, Clone)]
pub struct DriverHandles {
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
        self.entries.push((key, handle));
    }

    /// The published handle of type `T`, if a layer provides one.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        let key = TypeId::of::<T>();
        self.entries
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, h)| h.clone().downcast::<T>().ok())
    }
}

impl fmt::Debug for DriverHandles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DriverHandles")
            .field("count", &self.entries.len())
            .finish()
    }
}

/// Builds the bottom of a driver stack.
pub(crate) type BaseDriverFactory =
    Box<dyn FnOnce(&mut DriverHandles) -> std::io::Result<Box<dyn Driver>> + Send>;

/// Wraps the stack built so far in another layer.
pub(crate) type DriverLayerFactory =
    Box<dyn FnOnce(Box<dyn Driver>, &mut DriverHandles) -> std::io::Result<Box<dyn Driver>> + Send>;
