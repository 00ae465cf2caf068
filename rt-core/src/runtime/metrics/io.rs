//! Counters an I/O driver keeps for [`RuntimeMetrics`](super::RuntimeMetrics).
//!
//! rt-core knows no reactor; a driver that wants its activity reported
//! publishes one of these in the runtime's
//! [`DriverHandles`](crate::runtime::DriverHandles) and bumps it.

use crate::loom::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Which I/O driver a runtime runs: chosen when the runtime is built
/// (rt's `Builder::io_driver`, or the `RT_IO_DRIVER` environment variable)
/// and reported by `RuntimeMetrics::io_driver_kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum IoDriverKind {
    /// The readiness reactor over mio: epoll on Linux (kqueue elsewhere).
    #[default]
    Epoll,
    /// io_uring (Linux): file operations are ring submissions, sockets
    /// stay on the readiness reactor beside it.
    Uring,
}

/// Registration and readiness counts of an I/O driver, and which driver
/// it is.
#[derive(Debug, Default)]
pub struct IoDriverMetrics {
    registered: AtomicU64,
    deregistered: AtomicU64,
    ready: AtomicU64,
    /// An `IoDriverKind` as its index; written once, when the driver is
    /// built, before the runtime runs any task.
    kind: AtomicU8,
}

impl IoDriverMetrics {
    /// Zeroed counters.
    pub fn new() -> IoDriverMetrics {
        IoDriverMetrics::default()
    }

    /// Records which driver publishes these counters.
    pub fn set_kind(&self, kind: IoDriverKind) {
        let index = match kind {
            IoDriverKind::Epoll => 0,
            IoDriverKind::Uring => 1,
        };
        self.kind.store(index, Relaxed);
    }

    /// Which driver publishes these counters.
    pub fn kind(&self) -> IoDriverKind {
        match self.kind.load(Relaxed) {
            1 => IoDriverKind::Uring,
            _ => IoDriverKind::Epoll,
        }
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
