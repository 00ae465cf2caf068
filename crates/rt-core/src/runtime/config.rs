//! Settings the schedulers read at run time, fixed at build.

use super::{Callback, UnhandledPanic};

pub(crate) struct Config {
    /// Ticks between driver polls when tasks keep the worker busy.
    pub(crate) event_interval: u32,
    /// Ticks between checks of the injection queue ahead of local work.
    pub(crate) global_queue_interval: u32,
    /// Coop budget units per task poll.
    pub(crate) budget: u32,
    pub(crate) before_park: Option<Callback>,
    pub(crate) after_unpark: Option<Callback>,
    pub(crate) unhandled_panic: UnhandledPanic,
}
