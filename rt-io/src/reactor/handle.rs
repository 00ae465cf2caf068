//! `IoHandle`: the reactor's shared side, published in the runtime's
//! driver handles. Resources register and deregister through it from any
//! thread while one thread at a time turns the driver.
//!
//! # Release protocol
//!
//! The driver turns a mio token back into a `&ScheduledIo` without a lock,
//! so a `ScheduledIo` must outlive every event that may name it. A resource
//! is deregistered from the OS first and only then moved to
//! `pending_release`; the driver drops that list at the start of its next
//! turn, after it finished dispatching the events of the previous one. An
//! event fetched before the deregistration is therefore dispatched while
//! the list still holds the `ScheduledIo`, and no later poll can return
//! its token.

use super::ready::Interest;
use super::scheduled_io::ScheduledIo;
use rt_core::runtime::{IoDriverMetrics, Unpark};
use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex};

/// Token of the driver's own waker; a `ScheduledIo` address is never 0.
pub(super) const WAKER_TOKEN: mio::Token = mio::Token(0);

/// Releases above this count unpark the driver, so that a parked driver
/// does not let deregistered resources pile up.
const RELEASE_BATCH: usize = 16;

/// The message of the error an operation gets once the runtime is gone.
const SHUTDOWN_MESSAGE: &str = "An rt context was found, but it is being shutdown.";

/// The reactor's handle: registration with the OS and with the driver.
#[derive(Debug)]
pub struct IoHandle {
    registry: mio::Registry,
    waker: mio::Waker,
    synced: Mutex<Synced>,
    /// Reported through the runtime's `RuntimeMetrics`.
    pub(super) metrics: Arc<IoDriverMetrics>,
}

#[derive(Debug, Default)]
struct Synced {
    is_shutdown: bool,
    /// Every registered resource, by token, so shutdown can reach them.
    registered: HashMap<usize, Arc<ScheduledIo>>,
    /// Deregistered resources the driver may still name in a fetched event.
    pending_release: Vec<Arc<ScheduledIo>>,
}

/// The error every operation returns after the runtime shut down.
pub(crate) fn shutdown_error() -> io::Error {
    io::Error::other(SHUTDOWN_MESSAGE)
}

impl IoHandle {
    pub(super) fn new(registry: mio::Registry, waker: mio::Waker) -> IoHandle {
        IoHandle {
            registry,
            waker,
            synced: Mutex::new(Synced::default()),
            metrics: Arc::new(IoDriverMetrics::new()),
        }
    }

    fn synced(&self) -> std::sync::MutexGuard<'_, Synced> {
        self.synced.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers `source` for `interest` and returns its shared state.
    pub(crate) fn add_source(
        &self,
        source: &mut impl mio::event::Source,
        interest: Interest,
    ) -> io::Result<Arc<ScheduledIo>> {
        let scheduled_io = Arc::new(ScheduledIo::new());
        let token = scheduled_io.token();
        {
            let mut synced = self.synced();
            if synced.is_shutdown {
                return Err(shutdown_error());
            }
            synced.registered.insert(token.0, scheduled_io.clone());
        }
        if let Err(e) = self.registry.register(source, token, interest.to_mio()) {
            self.synced().registered.remove(&token.0);
            return Err(e);
        }
        self.metrics.count_registered();
        Ok(scheduled_io)
    }

    /// Removes `source` from the OS poller. The shared state is released
    /// separately by [`release`](Self::release).
    pub(crate) fn deregister_source(&self, source: &mut impl mio::event::Source) -> io::Result<()> {
        self.registry.deregister(source)
    }

    /// Hands a deregistered resource's state to the driver to drop on its
    /// next turn.
    pub(crate) fn release(&self, scheduled_io: &Arc<ScheduledIo>) {
        let mut synced = self.synced();
        let key = scheduled_io.token().0;
        if synced.registered.remove(&key).is_none() || synced.is_shutdown {
            // Shut down: the driver dispatches nothing any more.
            return;
        }
        self.metrics.count_deregistered();
        synced.pending_release.push(scheduled_io.clone());
        let wake = synced.pending_release.len() >= RELEASE_BATCH;
        drop(synced);
        if wake {
            self.unpark();
        }
    }

    /// Driver side: drops the states released before this turn.
    pub(super) fn drop_released(&self) {
        let released = std::mem::take(&mut self.synced().pending_release);
        drop(released);
    }

    /// Driver side: marks the reactor shut down and wakes every resource.
    pub(super) fn shutdown(&self) {
        let resources: Vec<Arc<ScheduledIo>> = {
            let mut synced = self.synced();
            if synced.is_shutdown {
                return;
            }
            synced.is_shutdown = true;
            synced.pending_release.clear();
            synced.registered.drain().map(|(_, io)| io).collect()
        };
        for io in resources {
            io.shutdown();
        }
    }
}

impl Unpark for IoHandle {
    fn unpark(&self) {
        // A failing eventfd write means the driver is gone; nothing to wake.
        let _ = self.waker.wake();
    }
}
