//! A driver that lets a test watch how a runtime parks.

use rt_core::runtime::{Driver, ParkThread, Unpark};
use std::sync::Arc;
use std::time::Duration;

/// A [`ParkThread`] that calls `on_park` with the timeout of every park,
/// just before it parks: install it with `Builder::base_driver` to see
/// when and how long a runtime's threads block on the driver.
///
/// ```
/// use rt_core::runtime::Builder;
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use std::sync::Arc;
///
/// let parks = Arc::new(AtomicUsize::new(0));
/// let counted = parks.clone();
/// let rt = Builder::new_current_thread()
///     .base_driver(move |_| {
///         Ok(Box::new(rt_test::ObservedPark::new(move |_timeout| {
///             counted.fetch_add(1, Ordering::Relaxed);
///         })))
///     })
///     .build()
///     .unwrap();
/// rt.block_on(rt_core::task::yield_now());
/// assert!(parks.load(Ordering::Relaxed) > 0);
/// ```
pub struct ObservedPark<F> {
    inner: ParkThread,
    on_park: F,
}

impl<F: FnMut(Option<Duration>) + Send + 'static> ObservedPark<F> {
    /// A parker that reports each park's timeout to `on_park`.
    pub fn new(on_park: F) -> ObservedPark<F> {
        ObservedPark {
            inner: ParkThread::new(),
            on_park,
        }
    }
}

impl<F: FnMut(Option<Duration>) + Send + 'static> Driver for ObservedPark<F> {
    fn park(&mut self, timeout: Option<Duration>) {
        (self.on_park)(timeout);
        self.inner.park(timeout);
    }

    fn unparker(&self) -> Arc<dyn Unpark> {
        self.inner.unparker()
    }

    fn shutdown(&mut self) {
        self.inner.shutdown();
    }
}
