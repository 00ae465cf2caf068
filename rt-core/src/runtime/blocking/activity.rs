//! How many `spawn_blocking` closures are queued or running, published to
//! the driver stack.
//!
//! A paused clock jumps to the next timer when the scheduler has nothing to
//! run. Work on the blocking pool is invisible to the scheduler, so the time
//! driver asks this count first: while a blocking closure is in flight, the
//! clock waits for it, as a real clock would while it runs. When the count
//! drops to zero the driver is woken to reconsider, once the time driver
//! asked for that (it does the first time it parks with a paused clock);
//! a runtime whose clock never pauses pays no driver wake-up per closure.

use crate::loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use crate::runtime::Unpark;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// The number of blocking closures in flight on a runtime's pool.
///
/// Published in [`DriverHandles`](crate::runtime::DriverHandles) before any
/// driver layer is built, so a layer (the time driver) can look it up.
pub struct BlockingActivity {
    in_flight: AtomicUsize,
    /// Wakes the driver stack when the last closure finishes; set once the
    /// stack exists (by the runtime, so never read without `rt`).
    #[cfg_attr(not(feature = "rt"), allow(dead_code))]
    unpark: OnceLock<Arc<dyn Unpark>>,
    /// Whether a driver layer waits for the count to reach zero.
    wake_when_idle: AtomicBool,
}

impl BlockingActivity {
    #[cfg(feature = "rt")]
    pub(crate) fn new() -> BlockingActivity {
        BlockingActivity {
            in_flight: AtomicUsize::new(0),
            unpark: OnceLock::new(),
            wake_when_idle: AtomicBool::new(false),
        }
    }

    /// Blocking closures submitted and not yet finished (or cancelled).
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(SeqCst)
    }

    /// Whether closures are in flight, for a driver layer deciding to wait
    /// for them; from the first call on, the count dropping to zero wakes
    /// the driver stack. Either this read sees the closure that is about to
    /// finish gone, or that finish sees the request: the request is written
    /// before the count is read with a read-modify-write, which the finish's
    /// decrement is ordered with.
    pub fn busy_waking_driver_when_idle(&self) -> bool {
        if !self.wake_when_idle.load(SeqCst) {
            self.wake_when_idle.store(true, SeqCst);
        }
        self.in_flight.fetch_add(0, SeqCst) > 0
    }

    #[cfg(feature = "rt")]
    pub(crate) fn set_unpark(&self, unpark: Arc<dyn Unpark>) {
        let _ = self.unpark.set(unpark);
    }

    #[cfg(feature = "rt")]
    pub(crate) fn started(&self) {
        self.in_flight.fetch_add(1, SeqCst);
    }

    #[cfg(feature = "rt")]
    pub(crate) fn finished(&self) {
        if self.in_flight.fetch_sub(1, SeqCst) == 1 && self.wake_when_idle.load(SeqCst) {
            if let Some(unpark) = self.unpark.get() {
                unpark.unpark();
            }
        }
    }
}

impl fmt::Debug for BlockingActivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockingActivity")
            .field("in_flight", &self.in_flight())
            .finish()
    }
}
