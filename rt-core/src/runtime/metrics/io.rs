//! Counters an I/O driver keeps for [`RuntimeMetrics`](super::RuntimeMetrics).
//!
//! rt-core knows no reactor; a driver that wants its activity reported
//! publishes one of these in the runtime's
//! [`DriverHandles`](crate::runtime::DriverHandles) and bumps it.

use crate::loom::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Registration and readiness counts of an I/O driver.
#[derive(Debug, Default)]
pub struct IoDriverMetrics {
    registered: AtomicU64,
    deregistered: AtomicU64,
    ready: AtomicU64,
}

impl IoDriverMetrics {
    /// Zeroed counters.
    pub fn new() -> IoDriverMetrics {
        IoDriverMetrics::default()
    }

    /// A source was registered with the OS poller.
    pub fn count_registered(&self) {
        self.registered.fetch_add(1, Relaxed);
    }

    /// A source was deregistered.
    pub fn count_deregistered(&self) {
        self.deregistered.fetch_add(1, Relaxed);
    }

    /// A driver turn dispatched `events` readiness events.
    pub fn count_ready(&self, events: u64) {
        if events > 0 {
            self.ready.fetch_add(events, Relaxed);
        }
    }

    #[cfg(feature = "rt")]
    pub(crate) fn registered(&self) -> u64 {
        self.registered.load(Relaxed)
    }

    #[cfg(feature = "rt")]
    pub(crate) fn deregistered(&self) -> u64 {
        self.deregistered.load(Relaxed)
    }

    #[cfg(feature = "rt")]
    pub(crate) fn ready(&self) -> u64 {
        self.ready.load(Relaxed)
    }
}
