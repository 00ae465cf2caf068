//! `UringDriver`: the readiness reactor with a completion ring beside it,
//! behind rt-core's driver seam.
//!
//! The reactor's `Poll` also watches the ring's eventfd (under a reserved
//! token), so a turn that blocks wakes when the kernel completes an
//! operation; after every turn the driver reaps the ring and wakes the
//! operations' tasks. Sockets keep the reactor; file operations find the
//! ring in the runtime's driver handles.

use super::ring::Ring;
use crate::reactor::{IoDriver, IoDriverOptions};
use rt_core::runtime::{Driver, DriverHandles, IoDriverKind, Unpark};
use std::io;
use std::sync::Arc;
use std::time::Duration;

/// The I/O driver with io_uring: the reactor plus the ring.
#[derive(Debug)]
pub(crate) struct UringDriver {
    reactor: IoDriver,
    ring: Arc<Ring>,
}

/// Sets up a ring beside `reactor` and publishes it, or, when the kernel
/// refuses io_uring, returns the reactor alone: the fallback is silent but
/// for the runtime's metrics, which keep saying epoll.
pub(crate) fn driver_beside(
    reactor: IoDriver,
    options: &IoDriverOptions,
    handles: &mut DriverHandles,
) -> io::Result<Box<dyn Driver>> {
    let ring = match Ring::new(options.force_uring_probe_failure) {
        Ok(ring) => Arc::new(ring),
        Err(_) => return Ok(Box::new(reactor)),
    };
    reactor.register_ring_eventfd(ring.eventfd())?;
    reactor.metrics().set_kind(IoDriverKind::Uring);
    handles.insert(ring.clone());
    Ok(Box::new(UringDriver { reactor, ring }))
}

impl Driver for UringDriver {
    fn park(&mut self, timeout: Option<Duration>) {
        // A completion posted before this turn signalled the eventfd, so
        // the turn does not block past it.
        self.reactor.park(timeout);
        self.ring.turn();
    }

    fn unparker(&self) -> Arc<dyn Unpark> {
        self.reactor.unparker()
    }

    fn shutdown(&mut self) {
        self.reactor.shutdown();
        self.ring.shutdown();
    }
}
