//! One worker's counters.
//!
//! Each counter is written only by the thread that holds the worker's core
//! (a load and a store, no read-modify-write) and read with relaxed loads by
//! [`RuntimeMetrics`](super::RuntimeMetrics), which reports recent values,
//! not a consistent snapshot.

use super::histogram::{Histogram, HistogramConfiguration};
use crate::loom::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use crate::task::coop;
use std::time::{Duration, Instant};

/// Counters of one worker.
///
/// Aligned to its own cache lines: the owner writes here on every poll, and
/// the neighbouring fields (another worker's queue handles, LIFO slot) are
/// read by thieves, which must not pay for those writes.
#[repr(align(128))]
pub(crate) struct WorkerMetrics {
    pub(crate) polls: AtomicU64,
    /// Tasks taken from other workers' queues.
    pub(crate) steals: AtomicU64,
    /// Successful steal operations (each takes a batch).
    pub(crate) steal_operations: AtomicU64,
    /// Times the local queue was full and spilled half to the injector.
    pub(crate) overflows: AtomicU64,
    pub(crate) parks: AtomicU64,
    pub(crate) unparks: AtomicU64,
    /// Wake-ups after which the worker found nothing to run.
    pub(crate) noops: AtomicU64,
    pub(crate) busy_nanos: AtomicU64,
    pub(crate) forced_yields: AtomicU64,
    /// Sampled at parks and driver polls (flavors whose queue others
    /// cannot read).
    pub(crate) local_queue_depth: AtomicUsize,
    pub(crate) histogram: Option<Histogram>,
}

/// The owner's private bookkeeping that feeds `WorkerMetrics`.
pub(crate) struct WorkerClock {
    busy_since: Instant,
    forced_yields_seen: u64,
    /// Woken, and nothing run since.
    idle_wake: bool,
}

#[inline]
fn bump(counter: &AtomicU64, by: u64) {
    counter.store(
        counter.load(Ordering::Relaxed).wrapping_add(by),
        Ordering::Relaxed,
    );
}

impl WorkerMetrics {
    pub(crate) fn new(histogram: Option<HistogramConfiguration>) -> WorkerMetrics {
        WorkerMetrics {
            polls: AtomicU64::new(0),
            steals: AtomicU64::new(0),
            steal_operations: AtomicU64::new(0),
            overflows: AtomicU64::new(0),
            parks: AtomicU64::new(0),
            unparks: AtomicU64::new(0),
            noops: AtomicU64::new(0),
            busy_nanos: AtomicU64::new(0),
            forced_yields: AtomicU64::new(0),
            local_queue_depth: AtomicUsize::new(0),
            histogram: histogram.map(Histogram::new),
        }
    }

    #[inline]
    pub(crate) fn count_poll(&self, clock: &mut WorkerClock) {
        bump(&self.polls, 1);
        clock.idle_wake = false;
    }

    #[cfg(feature = "rt-multi-thread")]
    pub(crate) fn count_steal(&self, tasks: u64) {
        bump(&self.steals, tasks);
        bump(&self.steal_operations, 1);
    }

    #[cfg(feature = "rt-multi-thread")]
    pub(crate) fn count_overflow(&self) {
        bump(&self.overflows, 1);
    }

    pub(crate) fn record_poll_time(&self, duration: Duration) {
        if let Some(histogram) = &self.histogram {
            histogram.record(duration);
        }
    }

    /// The worker is about to block: close the busy period, count a
    /// needless wake-up if nothing ran since the last one.
    pub(crate) fn before_park(&self, clock: &mut WorkerClock) {
        bump(&self.parks, 1);
        if std::mem::take(&mut clock.idle_wake) {
            bump(&self.noops, 1);
        }
        self.flush(clock);
    }

    /// Brings busy time and forced yields up to date (at a park, or when
    /// the worker stops running for a while).
    pub(crate) fn flush(&self, clock: &mut WorkerClock) {
        let now = Instant::now();
        let busy = now.saturating_duration_since(clock.busy_since);
        bump(&self.busy_nanos, busy.as_nanos() as u64);
        clock.busy_since = now;
        self.sample_forced_yields(clock);
    }

    /// The worker woke up: a busy period starts.
    pub(crate) fn after_unpark(&self, clock: &mut WorkerClock) {
        bump(&self.unparks, 1);
        clock.idle_wake = true;
        clock.busy_since = Instant::now();
    }

    /// Folds this thread's forced-yield counter into the worker's.
    pub(crate) fn sample_forced_yields(&self, clock: &mut WorkerClock) {
        let now = coop::forced_yields();
        bump(
            &self.forced_yields,
            now.wrapping_sub(clock.forced_yields_seen),
        );
        clock.forced_yields_seen = now;
    }

    pub(crate) fn busy_duration(&self) -> Duration {
        Duration::from_nanos(self.busy_nanos.load(Ordering::Relaxed))
    }
}

impl WorkerClock {
    /// Bookkeeping for a worker that starts (or resumes) on this thread.
    pub(crate) fn start() -> WorkerClock {
        WorkerClock {
            busy_since: Instant::now(),
            forced_yields_seen: coop::forced_yields(),
            idle_wake: false,
        }
    }
}
