//! The reactor: a mio `Poll` behind rt-core's driver seam, and the
//! per-resource readiness state socket operations wait on.
//!
//! Layers, bottom up: [`IoDriver`] (owns the `Poll`, turns events into
//! readiness), `IoHandle` (registration from any thread, shutdown),
//! [`RegistrationSet`] (tokens with generations, so that a stale event is
//! dropped), [`ScheduledIo`] (the readiness word and waiters),
//! `Registration` (the readiness loops), `PollEvented` (a mio source plus
//! its registration). Socket types in `net` sit on the last one.
//!
//! The module is public for the runtime builder ([`base_driver`]) and the
//! loom models; its types are not part of rt's user-facing API.

mod driver;
mod handle;
mod poll_evented;
mod ready;
mod registration;
mod registration_set;
mod scheduled_io;
mod select;

pub use driver::{
    base_driver, base_driver_with_capacities, base_driver_with_capacity, IoDriver,
    DEFAULT_EVENTS_CAPACITY,
};
pub use handle::IoHandle;
pub use ready::{Interest, Ready, ERROR_EVENT};
pub use registration_set::{RegistrationSet, Resolved};
/// Whether an I/O error is the one operations return once their runtime
/// shut down; rt-core owns that error.
pub use rt_core::runtime::is_rt_shutdown_err;
pub use scheduled_io::{Direction, Readiness, ReadyEvent, ScheduledIo, TICK_MASK};
pub use select::{base_driver_for, requested_kind, IoDriverOptions, IO_DRIVER_ENV};

pub(crate) use poll_evented::PollEvented;
#[cfg(feature = "process")]
pub(crate) use registration::current_handle;
#[cfg(unix)]
pub(crate) use registration::Registration;
