//! `IoDriver`: the reactor's owning side, plugged into rt-core's driver
//! seam. One worker at a time parks on it; a turn polls mio and turns each
//! event into readiness on the resource it names.

use super::handle::{IoHandle, WAKER_TOKEN};
use super::ready::Ready;
use super::registration_set::{Resolved, RING_TOKEN};
use super::scheduled_io::TICK_MASK;
use rt_core::runtime::{Driver, DriverHandles, Unpark};
use std::io;
use std::sync::Arc;
use std::time::Duration;

/// Events fetched per turn.
pub const DEFAULT_EVENTS_CAPACITY: usize = 1024;

/// The I/O driver: owns the mio `Poll` and its event buffer.
pub struct IoDriver {
    poll: mio::Poll,
    events: mio::Events,
    /// A smaller buffer for polls that do not wait (the worker still has
    /// tasks to run), if one was asked for: the events left over stay in
    /// the kernel for a later turn.
    busy_events: Option<mio::Events>,
    handle: Arc<IoHandle>,
    /// The driver's memo of resolved states and its scratch vectors, kept
    /// between turns.
    resolved: Resolved,
    tick: usize,
    is_shutdown: bool,
}

impl IoDriver {
    /// Creates the driver and its handle, holding room for `nevents`
    /// events per turn.
    pub fn new(nevents: usize) -> io::Result<(IoDriver, Arc<IoHandle>)> {
        let poll = mio::Poll::new()?;
        let waker = mio::Waker::new(poll.registry(), super::handle::WAKER_TOKEN)?;
        let registry = poll.registry().try_clone()?;
        let handle = Arc::new(IoHandle::new(registry, waker));
        let driver = IoDriver {
            poll,
            events: mio::Events::with_capacity(nevents.max(1)),
            busy_events: None,
            handle: handle.clone(),
            resolved: Resolved::new(),
            tick: 0,
            is_shutdown: false,
        };
        Ok((driver, handle))
    }

    /// Registers the eventfd a completion ring signals, so that a parked
    /// turn wakes on completions.
    #[cfg(all(target_os = "linux", feature = "uring"))]
    pub(crate) fn register_ring_eventfd(&self, fd: std::os::fd::RawFd) -> io::Result<()> {
        self.poll.registry().register(
            &mut mio::unix::SourceFd(&fd),
            RING_TOKEN,
            mio::Interest::READABLE,
        )
    }

    /// The counters the runtime's metrics report (the io_uring driver
    /// records its kind there).
    #[cfg(all(target_os = "linux", feature = "uring"))]
    pub(crate) fn metrics(&self) -> &rt_core::runtime::IoDriverMetrics {
        &self.handle.metrics
    }

    fn turn(&mut self, timeout: Option<Duration>) {
        self.tick = (self.tick + 1) & TICK_MASK;
        let events = match (&mut self.busy_events, timeout) {
            (Some(busy), Some(Duration::ZERO)) => busy,
            _ => &mut self.events,
        };
        match self.poll.poll(events, timeout) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return,
            Err(e) => panic!("unexpected error when polling the I/O driver: {e:?}"),
        }
        if self.is_shutdown || events.is_empty() {
            // After shutdown every resource already failed and the set
            // dispatches nothing. Polling still honours the timeout and
            // `unpark`, so a caller that parks after shutdown sleeps
            // instead of spinning.
            return;
        }
        // The waker's event only ended the poll: it names no resource, and
        // left in, it would miss the memo and take the set's lock on every
        // wake from another thread. So does a completion ring's eventfd:
        // the io_uring driver reaps its ring after every turn.
        let events = events
            .iter()
            .filter(|event| event.token() != WAKER_TOKEN && event.token() != RING_TOKEN)
            .map(|event| (event.token(), Ready::from_mio(event)));
        let dispatched = self
            .handle
            .registrations
            .dispatch(self.tick, events, &mut self.resolved);
        self.handle.metrics.count_ready(dispatched as u64);
    }
}

impl Driver for IoDriver {
    fn park(&mut self, timeout: Option<Duration>) {
        self.turn(timeout);
    }

    fn unparker(&self) -> Arc<dyn Unpark> {
        self.handle.clone()
    }

    fn shutdown(&mut self) {
        self.is_shutdown = true;
        self.handle.shutdown();
    }
}

impl std::fmt::Debug for IoDriver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IoDriver")
            .field("tick", &self.tick)
            .field("is_shutdown", &self.is_shutdown)
            .finish_non_exhaustive()
    }
}

/// The factory a runtime builder calls to put the I/O driver at the bottom
/// of its driver stack; it publishes the reactor's handle for sockets.
pub fn base_driver(
) -> impl FnOnce(&mut DriverHandles) -> io::Result<Box<dyn Driver>> + Send + 'static {
    base_driver_with_capacity(DEFAULT_EVENTS_CAPACITY)
}

/// Like [`base_driver`], fetching at most `nevents` events per turn.
pub fn base_driver_with_capacity(
    nevents: usize,
) -> impl FnOnce(&mut DriverHandles) -> io::Result<Box<dyn Driver>> + Send + 'static {
    base_driver_with_capacities(nevents, None)
}

/// Like [`base_driver_with_capacity`], fetching at most `busy_nevents`
/// events (when given) in a turn that does not wait: the runtime polls so
/// while it still has tasks to run, and every event's task joins them.
pub fn base_driver_with_capacities(
    nevents: usize,
    busy_nevents: Option<usize>,
) -> impl FnOnce(&mut DriverHandles) -> io::Result<Box<dyn Driver>> + Send + 'static {
    move |handles: &mut DriverHandles| {
        let driver = IoDriver::published(nevents, busy_nevents, handles)?;
        Ok(Box::new(driver) as Box<dyn Driver>)
    }
}

impl IoDriver {
    /// Creates the driver and publishes its handle and metrics in
    /// `handles`.
    pub(crate) fn published(
        nevents: usize,
        busy_nevents: Option<usize>,
        handles: &mut DriverHandles,
    ) -> io::Result<IoDriver> {
        let (mut driver, handle) = IoDriver::new(nevents)?;
        driver.busy_events = busy_nevents.map(|n| mio::Events::with_capacity(n.max(1)));
        handles.insert(handle.metrics.clone());
        handles.insert(handle);
        Ok(driver)
    }
}

impl Drop for IoDriver {
    fn drop(&mut self) {
        // A driver dropped without `shutdown` must still fail its
        // resources rather than leave them waiting for events that will
        // never come.
        self.handle.shutdown();
    }
}
