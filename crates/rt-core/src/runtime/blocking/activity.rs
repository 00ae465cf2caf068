//! How many `spawn_blocking` closures are queued or running, published to
//! the driver stack.
//!
//! A paused clock jumps to the next timer when the scheduler has nothing to
//! run. Work on the blocking pool is invisible to the scheduler, so the time
//! driver asks this count first: while a blocking closure is in flight, the
//! clock waits for it, as a real clock would while it runs. When the count
//! drops to zero the driver is woken to reconsider.

use crate::runtime::Unpark;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, OnceLock};

/// The number of blocking closures in flight on a runtime's pool.
///
/// Published in [`DriverHandles`](crate::runtime::DriverHandles) before any
/// driver layer is built, so a layer (the time driver) can look it up.
pub struct BlockingActivity {
    in_flight: AtomicUsize,
    /// Wakes the driver stack when the last closure finishes; set once the
    /// stack exists.
    unpark: OnceLock<Arc<dyn Unpark>>,
}

impl BlockingActivity {
    pub(crate) fn new() -> BlockingActivity {
        BlockingActivity {
            in_flight: AtomicUsize::new(0),
            unpark: OnceLock::new(),
        }
    }

    /// Blocking closures submitted and not yet finished (or cancelled).
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(SeqCst)
    }

    pub(crate) fn set_unpark(&self, unpark: Arc<dyn Unpark>) {
        let _ = self.unpark.set(unpark);
    }

    pub(crate) fn started(&self) {
        self.in_flight.fetch_add(1, SeqCst);
    }

    pub(crate) fn finished(&self) {
        if self.in_flight.fetch_sub(1, SeqCst) == 1 {
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
