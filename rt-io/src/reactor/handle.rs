//! `IoHandle`: the reactor's shared side, published in the runtime's
//! driver handles. Resources register and deregister through it from any
//! thread while one thread at a time turns the driver.
//!
//! Which token names which resource is the business of the
//! [`RegistrationSet`]: a released resource's state is dropped at once,
//! whether or not the OS accepted the deregistration, and events that
//! still carry its token are recognised as stale by their generation.

use super::ready::Interest;
use super::registration_set::RegistrationSet;
use super::scheduled_io::ScheduledIo;
use rt_core::runtime::{IoDriverMetrics, Unpark};
use std::io;
use std::sync::Arc;

/// Token of the driver's own waker; registration tokens are never 0.
pub(super) const WAKER_TOKEN: mio::Token = mio::Token(0);

/// The message of the error an operation gets once the runtime is gone.
const SHUTDOWN_MESSAGE: &str = "An rt context was found, but it is being shutdown.";

/// The reactor's handle: registration with the OS and with the driver.
#[derive(Debug)]
pub struct IoHandle {
    registry: mio::Registry,
    waker: mio::Waker,
    pub(super) registrations: RegistrationSet,
    /// Reported through the runtime's `RuntimeMetrics`.
    pub(super) metrics: Arc<IoDriverMetrics>,
}

/// The error every operation returns after the runtime shut down.
pub(crate) fn shutdown_error() -> io::Error {
    io::Error::other(SHUTDOWN_MESSAGE)
}

/// Whether `err` is the error I/O operations return because their runtime
/// shut down (tokio's `runtime::is_rt_shutdown_err`; the runtime facade
/// re-exports it under that path).
pub fn is_rt_shutdown_err(err: &io::Error) -> bool {
    err.kind() == io::ErrorKind::Other
        && err
            .get_ref()
            .is_some_and(|inner| inner.source().is_none() && inner.to_string() == SHUTDOWN_MESSAGE)
}

impl IoHandle {
    pub(super) fn new(registry: mio::Registry, waker: mio::Waker) -> IoHandle {
        IoHandle {
            registry,
            waker,
            registrations: RegistrationSet::new(),
            metrics: Arc::new(IoDriverMetrics::new()),
        }
    }

    /// Registers `source` for `interest` and returns its token and shared
    /// state.
    pub(crate) fn add_source(
        &self,
        source: &mut impl mio::event::Source,
        interest: Interest,
    ) -> io::Result<(mio::Token, Arc<ScheduledIo>)> {
        let (token, scheduled_io) = self.registrations.allocate()?;
        if let Err(e) = self.registry.register(source, token, interest.to_mio()) {
            self.registrations.release(token);
            return Err(e);
        }
        self.metrics.count_registered();
        Ok((token, scheduled_io))
    }

    /// Removes `source` from the OS poller. The shared state is released
    /// separately by [`release`](Self::release).
    pub(crate) fn deregister_source(&self, source: &mut impl mio::event::Source) -> io::Result<()> {
        self.registry.deregister(source)
    }

    /// Drops the state registered under `token`. Whether the OS still
    /// holds an entry with that token does not matter: its events are
    /// stale from now on.
    pub(crate) fn release(&self, token: mio::Token) {
        if self.registrations.release(token) {
            self.metrics.count_deregistered();
        }
    }

    /// Driver side: marks the reactor shut down and wakes every resource.
    pub(super) fn shutdown(&self) {
        self.registrations.shutdown();
    }
}

impl Unpark for IoHandle {
    fn unpark(&self) {
        // A failing eventfd write means the driver is gone; nothing to wake.
        let _ = self.waker.wake();
    }
}
