//! `Instant`: a point in time as the runtime's clock sees it.
//!
//! It wraps `std::time::Instant`; the difference is [`Instant::now`], which
//! reads the current runtime's clock, so that a paused clock (see
//! [`pause`](crate::pause)) is what timers and user code both observe.

use std::fmt;
use std::ops::{Add, AddAssign, Sub, SubAssign};
use std::time::Duration;

/// A measurement of a monotonically nondecreasing clock, opaque and only
/// useful relative to another `Instant` or with a [`Duration`].
///
/// ```
/// use std::time::Duration;
/// use rt_time::Instant;
///
/// let start = Instant::now();
/// let later = start + Duration::from_millis(10);
/// assert_eq!(later - start, Duration::from_millis(10));
/// assert_eq!(later.into_std(), start.into_std() + Duration::from_millis(10));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant {
    std: std::time::Instant,
}

impl Instant {
    /// The current instant by the runtime's clock (real time outside a
    /// runtime, or when its clock is not paused).
    pub fn now() -> Instant {
        Instant {
            std: crate::clock::now(),
        }
    }

    /// Wraps a `std::time::Instant`.
    pub fn from_std(std: std::time::Instant) -> Instant {
        Instant { std }
    }

    /// The `std::time::Instant` this wraps.
    pub fn into_std(self) -> std::time::Instant {
        self.std
    }

    /// Time from `earlier` to `self`; zero if `earlier` is later.
    pub fn duration_since(&self, earlier: Instant) -> Duration {
        self.std.saturating_duration_since(earlier.std)
    }

    /// Time from `earlier` to `self`, or `None` if `earlier` is later.
    pub fn checked_duration_since(&self, earlier: Instant) -> Option<Duration> {
        self.std.checked_duration_since(earlier.std)
    }

    /// Time from `earlier` to `self`; zero if `earlier` is later.
    pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
        self.std.saturating_duration_since(earlier.std)
    }

    /// Time since this instant, by the runtime's clock.
    pub fn elapsed(&self) -> Duration {
        Instant::now().saturating_duration_since(*self)
    }

    /// `self + duration`, or `None` on overflow.
    pub fn checked_add(&self, duration: Duration) -> Option<Instant> {
        self.std.checked_add(duration).map(Instant::from_std)
    }

    /// `self - duration`, or `None` on underflow.
    pub fn checked_sub(&self, duration: Duration) -> Option<Instant> {
        self.std.checked_sub(duration).map(Instant::from_std)
    }

    /// An instant about 30 years from now: a deadline that never comes.
    pub(crate) fn far_future() -> Instant {
        Instant::now() + Duration::from_secs(86_400 * 365 * 30)
    }
}

impl From<std::time::Instant> for Instant {
    fn from(std: std::time::Instant) -> Instant {
        Instant::from_std(std)
    }
}

impl From<Instant> for std::time::Instant {
    fn from(instant: Instant) -> std::time::Instant {
        instant.into_std()
    }
}

impl Add<Duration> for Instant {
    type Output = Instant;

    fn add(self, rhs: Duration) -> Instant {
        Instant::from_std(self.std + rhs)
    }
}

impl AddAssign<Duration> for Instant {
    fn add_assign(&mut self, rhs: Duration) {
        *self = *self + rhs;
    }
}

impl Sub<Duration> for Instant {
    type Output = Instant;

    fn sub(self, rhs: Duration) -> Instant {
        Instant::from_std(self.std - rhs)
    }
}

impl SubAssign<Duration> for Instant {
    fn sub_assign(&mut self, rhs: Duration) {
        *self = *self - rhs;
    }
}

impl Sub<Instant> for Instant {
    type Output = Duration;

    fn sub(self, rhs: Instant) -> Duration {
        self.duration_since(rhs)
    }
}

impl fmt::Debug for Instant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.std.fmt(f)
    }
}
