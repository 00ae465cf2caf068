//! The virtual clock of one loom execution: it moves only when a
//! timed wait ends, by that wait's timeout.

use std::ops::{Add, Sub};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

loom::lazy_static! {
    /// Nanoseconds since the execution began. A `std` atomic on
    /// purpose: time is not a protocol to model, and loom runs
    /// every modelled thread on one OS thread.
    static ref NOW: AtomicU64 = AtomicU64::new(0);
}

/// Moves the clock forward by `by`.
pub(crate) fn advance(by: Duration) {
    let nanos = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
    let now = NOW.load(Relaxed);
    NOW.store(now.saturating_add(nanos), Relaxed);
}

/// A point on the virtual clock, with the part of
/// `std::time::Instant`'s API that rt-core uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant(Duration);

impl Instant {
    /// The clock's current reading.
    pub fn now() -> Instant {
        Instant(Duration::from_nanos(NOW.load(Relaxed)))
    }

    /// Time passed since `self`.
    pub fn elapsed(&self) -> Duration {
        Instant::now().saturating_duration_since(*self)
    }

    /// Time from `earlier` to `self`, zero if `earlier` is later.
    pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
        self.0.saturating_sub(earlier.0)
    }

    /// Time from `earlier` to `self`, zero if `earlier` is later.
    pub fn duration_since(&self, earlier: Instant) -> Duration {
        self.saturating_duration_since(earlier)
    }

    /// `self + by`, if it fits.
    pub fn checked_add(&self, by: Duration) -> Option<Instant> {
        self.0.checked_add(by).map(Instant)
    }
}

impl Add<Duration> for Instant {
    type Output = Instant;

    fn add(self, by: Duration) -> Instant {
        Instant(self.0.saturating_add(by))
    }
}

impl Sub<Duration> for Instant {
    type Output = Instant;

    fn sub(self, by: Duration) -> Instant {
        Instant(self.0.saturating_sub(by))
    }
}

impl Sub<Instant> for Instant {
    type Output = Duration;

    fn sub(self, earlier: Instant) -> Duration {
        self.saturating_duration_since(earlier)
    }
}
