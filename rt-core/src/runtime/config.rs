//! Settings the schedulers read at run time, fixed at build.

use super::metrics::HistogramConfiguration;
use super::slow_poll::SlowPollHook;
use super::spawn_policy::{BlockingPolicy, SpawnHook};
use super::{Callback, RngSeed, UnhandledPanic};

pub(crate) struct Config {
    /// The name given to `Builder::name`, reported by `Handle::name`.
    pub(crate) name: Option<String>,
    /// Built by `Builder::build_local`: `spawn_local` outside the runtime's
    /// own thread says so in its panic.
    pub(crate) local: bool,
    /// Ticks between driver polls when tasks keep the worker busy.
    pub(crate) event_interval: u32,
    /// Ticks between checks of the injection queue ahead of local work.
    pub(crate) global_queue_interval: u32,
    /// Whether the multi-thread workers tune that interval to their tasks'
    /// poll times (it was not fixed by the builder).
    #[cfg_attr(not(feature = "rt-multi-thread"), allow(dead_code))]
    pub(crate) tune_global_queue_interval: bool,
    /// Coop budget units per task poll; `None` disables the budget.
    pub(crate) budget: Option<u32>,
    pub(crate) before_park: Option<Callback>,
    pub(crate) after_unpark: Option<Callback>,
    pub(crate) unhandled_panic: UnhandledPanic,
    /// The root seed of every random choice (given or picked at build).
    pub(crate) seed: RngSeed,
    /// Slow-poll detection, if enabled.
    pub(crate) slow_poll: Option<SlowPollHook>,
    /// The poll-time histogram's buckets, if enabled.
    pub(crate) poll_histogram: Option<HistogramConfiguration>,
    /// Whether task polls are timed (two clock reads per poll): slow-poll
    /// detection or the histogram is on. Kept as one flag, worked out at
    /// build, because every task poll reads it.
    pub(crate) measure_polls: bool,
    /// Called with each task spawned, if set.
    pub(crate) on_spawn: Option<SpawnHook>,
    /// Where `spawn_blocking` runs its closure.
    pub(crate) blocking: BlockingPolicy,
}
