//! `Registration`: a resource's link to the reactor, and the readiness
//! loops every socket operation is built from.
//!
//! An operation waits for readiness, tries the syscall, and on
//! `WouldBlock` clears exactly the readiness it consumed (tick-checked, see
//! `scheduled_io`) before waiting again.

use super::handle::{shutdown_error, IoHandle};
use super::ready::{Interest, Ready};
use super::scheduled_io::{Direction, ReadyEvent, ScheduledIo};
use rt_core::runtime::try_current_driver_handle;
use rt_core::task::coop;
use std::io;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

const IO_DISABLED: &str = "An rt context was found, but IO is disabled. Call `enable_io` on the \
                           runtime builder to enable IO.";

/// A registered resource's shared state and the reactor it belongs to.
#[derive(Debug)]
pub(crate) struct Registration {
    handle: Arc<IoHandle>,
    token: mio::Token,
    shared: Arc<ScheduledIo>,
}

/// The reactor of the runtime this thread is in.
///
/// # Panics
///
/// Outside a runtime, or in one built without I/O.
#[track_caller]
pub(crate) fn current_handle() -> Arc<IoHandle> {
    match try_current_driver_handle::<IoHandle>() {
        Ok(Some(io)) => io,
        Ok(None) => no_reactor(),
        Err(e) => panic!("{e}"),
    }
}

/// A runtime without a reactor: a simulation (whose sockets never come
/// here) or one built without I/O.
#[cold]
#[track_caller]
fn no_reactor() -> ! {
    if crate::net::sim_seam::current().is_some() {
        panic!(
            "rt::net: this resource would leave the simulation: Unix sockets, AsyncFd and \
             other real descriptors have no simulated form"
        );
    }
    panic!("{IO_DISABLED}")
}

impl Registration {
    /// Registers `io` with the current runtime's reactor.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled (see [`current_handle`]).
    #[track_caller]
    pub(crate) fn new(
        io: &mut impl mio::event::Source,
        interest: Interest,
    ) -> io::Result<Registration> {
        let handle = current_handle();
        let (token, shared) = handle.add_source(io, interest)?;
        Ok(Registration {
            handle,
            token,
            shared,
        })
    }

    /// Marks the resource `ready` without waiting for the driver's event.
    pub(crate) fn add_readiness(&self, ready: Ready) {
        self.shared.add_readiness(ready);
    }

    /// Removes `io` from the OS poller; the state itself is released when
    /// the registration drops.
    pub(crate) fn deregister(&self, io: &mut impl mio::event::Source) -> io::Result<()> {
        self.handle.deregister_source(io)
    }

    pub(crate) fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<ReadyEvent>> {
        self.poll_ready(cx, Direction::Read)
    }

    pub(crate) fn poll_write_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<ReadyEvent>> {
        self.poll_ready(cx, Direction::Write)
    }

    /// Waits for one direction's readiness, spending a unit of the task's
    /// budget when it is there.
    // Always inlined: it is the body of every socket operation's loop,
    // and a call per operation costs more than the readiness check itself.
    #[inline(always)]
    fn poll_ready(
        &self,
        cx: &mut Context<'_>,
        direction: Direction,
    ) -> Poll<io::Result<ReadyEvent>> {
        std::task::ready!(rt_core::task::trace::trace_leaf());
        let budget = ready!(coop::poll_proceed(cx));
        let event = ready!(self.shared.poll_readiness(cx, direction));
        if event.is_shutdown {
            return Poll::Ready(Err(shutdown_error()));
        }
        budget.made_progress();
        Poll::Ready(Ok(event))
    }

    pub(crate) fn clear_readiness(&self, event: ReadyEvent) {
        self.shared.clear_readiness(event);
    }

    /// Runs `op` when `direction` is ready, waiting again while it would
    /// block.
    #[inline]
    pub(crate) fn poll_io<R>(
        &self,
        cx: &mut Context<'_>,
        direction: Direction,
        mut op: impl FnMut() -> io::Result<R>,
    ) -> Poll<io::Result<R>> {
        loop {
            let event = ready!(self.poll_ready(cx, direction))?;
            match op() {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => self.clear_readiness(event),
                other => return Poll::Ready(other),
            }
        }
    }

    /// [`poll_io`](Self::poll_io) for a read or write of at most `len`
    /// bytes. Where the poller is epoll or kqueue
    /// (`sys::SHORT_TRANSFER_DRAINS`), a transfer that moves fewer bytes
    /// than asked for drained the socket (a read) or filled its send buffer
    /// (a write), and edge-triggered readiness reports the next change
    /// anew, so that direction's readiness bit is cleared then: the next call waits for
    /// the event instead of spending a system call on `WouldBlock`. Only
    /// the readable or writable bit is cleared; closed and error readiness
    /// stay. The clear is tick-checked like any other, so an event that
    /// arrived after the transfer is kept.
    #[inline]
    pub(crate) fn poll_transfer_io(
        &self,
        cx: &mut Context<'_>,
        direction: Direction,
        len: usize,
        mut op: impl FnMut() -> io::Result<usize>,
    ) -> Poll<io::Result<usize>> {
        loop {
            let event = ready!(self.poll_ready(cx, direction))?;
            match op() {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => self.clear_readiness(event),
                Ok(n) if crate::sys::SHORT_TRANSFER_DRAINS && n > 0 && n < len => {
                    let consumed = match direction {
                        Direction::Read => Ready::READABLE,
                        Direction::Write => Ready::WRITABLE,
                    };
                    let consumed = event.ready - (event.ready - consumed);
                    self.clear_readiness(ReadyEvent {
                        ready: consumed,
                        ..event
                    });
                    return Poll::Ready(Ok(n));
                }
                other => return Poll::Ready(other),
            }
        }
    }

    /// Runs `op` once if the resource looks ready for `interest`, without
    /// registering a waker; `WouldBlock` otherwise, or the shutdown error
    /// once the runtime is gone. Readiness known before the shutdown is
    /// still used, as tokio does: bytes already queued can be read.
    pub(crate) fn try_io<R>(
        &self,
        interest: Interest,
        op: impl FnOnce() -> io::Result<R>,
    ) -> io::Result<R> {
        let event = self.shared.ready_event(interest);
        if event.ready.is_empty() {
            if event.is_shutdown {
                return Err(shutdown_error());
            }
            return Err(io::ErrorKind::WouldBlock.into());
        }
        match op() {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                self.clear_readiness(event);
                Err(e)
            }
            other => other,
        }
    }

    /// Waits until the resource is ready for `interest`.
    pub(crate) async fn readiness(&self, interest: Interest) -> io::Result<ReadyEvent> {
        let event = self.shared.readiness(interest).await;
        if event.is_shutdown {
            return Err(shutdown_error());
        }
        Ok(event)
    }

    /// Waits for `interest` and runs `op`, again and again while it would
    /// block. Spends budget on each attempt.
    pub(crate) async fn async_io<R>(
        &self,
        interest: Interest,
        mut op: impl FnMut() -> io::Result<R>,
    ) -> io::Result<R> {
        loop {
            let event = self.readiness(interest).await?;
            let budget = std::future::poll_fn(coop::poll_proceed).await;
            match op() {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => self.clear_readiness(event),
                other => {
                    budget.made_progress();
                    return other;
                }
            }
        }
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.shared.clear_wakers();
        self.handle.release(self.token);
    }
}
