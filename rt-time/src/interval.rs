//! `Interval`: ticks at a fixed period, and what it does about ticks it
//! missed because its task was busy ([`MissedTickBehavior`]).

use crate::sleep::{sleep_until, Sleep};
use crate::Instant;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Duration;

/// A tick later than this after its deadline counts as missed.
const MISSED_TICK_SLACK: Duration = Duration::from_millis(5);

/// An interval whose first tick completes at once and the following ones
/// every `period` after it.
///
/// # Panics
///
/// If `period` is zero, outside a runtime, or in a runtime built without
/// timers.
///
/// ```
/// # let rt = rt_core::runtime::Builder::new_current_thread()
/// #     .driver_layer(rt_time::driver_layer(false)).build().unwrap();
/// # rt.block_on(async {
/// use std::time::Duration;
///
/// let mut interval = rt_time::interval(Duration::from_millis(10));
/// let first = interval.tick().await; // at once
/// let second = interval.tick().await; // 10 ms later
/// assert_eq!(second - first, Duration::from_millis(10));
/// # });
/// ```
#[track_caller]
pub fn interval(period: Duration) -> Interval {
    assert!(period > Duration::ZERO, "`period` must be non-zero.");
    interval_at(Instant::now(), period)
}

/// An interval whose first tick completes at `start` and the following
/// ones every `period` after it.
///
/// # Panics
///
/// If `period` is zero, outside a runtime, or in a runtime built without
/// timers.
#[track_caller]
pub fn interval_at(start: Instant, period: Duration) -> Interval {
    assert!(period > Duration::ZERO, "`period` must be non-zero.");
    Interval {
        delay: Box::pin(sleep_until(start)),
        period,
        missed_tick_behavior: MissedTickBehavior::default(),
    }
}

/// What an [`Interval`] does when a tick is more than a few milliseconds
/// late (its task did not call `tick` in time).
///
/// With a period of 50 ms, ticks due at 0, 50, 100, ... and a task stalled
/// from 60 ms to 170 ms (ticks at 100 and 150 missed):
///
/// * `Burst`: ticks at 170, 170, then 200, 250, ...: the missed ticks come
///   at once, then the original schedule resumes.
/// * `Delay`: ticks at 170, then 220, 270, ...: the schedule restarts from
///   the late tick.
/// * `Skip`: ticks at 170, then 200, 250, ...: the missed ticks are dropped
///   and the original schedule resumes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MissedTickBehavior {
    /// Fire the missed ticks as fast as possible, then keep the original
    /// schedule (the default).
    #[default]
    Burst,
    /// Restart the schedule one period after the late tick.
    Delay,
    /// Drop the missed ticks and continue at the next multiple of the
    /// period on the original schedule.
    Skip,
}

impl MissedTickBehavior {
    /// The next deadline after a tick due at `due` was observed late, at
    /// `now`.
    fn next_deadline(self, due: Instant, now: Instant, period: Duration) -> Instant {
        match self {
            MissedTickBehavior::Burst => due + period,
            MissedTickBehavior::Delay => now + period,
            MissedTickBehavior::Skip => {
                let late = (now - due).as_nanos();
                let into_period = (late % period.as_nanos()) as u64;
                now + period - Duration::from_nanos(into_period)
            }
        }
    }
}

/// Ticks at a fixed period; see [`interval`].
#[derive(Debug)]
pub struct Interval {
    delay: Pin<Box<Sleep>>,
    period: Duration,
    missed_tick_behavior: MissedTickBehavior,
}

impl Interval {
    /// Completes at the next tick and returns the instant it was due.
    pub async fn tick(&mut self) -> Instant {
        poll_fn(|cx| self.poll_tick(cx)).await
    }

    /// Polls for the next tick; returns the instant it was due.
    pub fn poll_tick(&mut self, cx: &mut Context<'_>) -> Poll<Instant> {
        ready!(self.delay.as_mut().poll(cx));
        let due = self.delay.deadline();
        let now = Instant::now();
        let next = if now > due + MISSED_TICK_SLACK {
            self.missed_tick_behavior
                .next_deadline(due, now, self.period)
        } else {
            due.checked_add(self.period)
                .unwrap_or_else(Instant::far_future)
        };
        // The caller has its tick; it asks for the next one by polling
        // again, so the timer need not wake it by itself.
        self.delay.as_mut().reset_without_waker(next);
        Poll::Ready(due)
    }

    /// Restarts the schedule: the next tick is one period from now.
    pub fn reset(&mut self) {
        self.reset_after(self.period);
    }

    /// Makes the next tick complete at once.
    pub fn reset_immediately(&mut self) {
        self.reset_at(Instant::now());
    }

    /// Makes the next tick due `after` from now.
    pub fn reset_after(&mut self, after: Duration) {
        // A deadline past what an `Instant` holds means "never".
        let deadline = Instant::now()
            .checked_add(after)
            .unwrap_or_else(Instant::far_future);
        self.reset_at(deadline);
    }

    /// Makes the next tick due at `deadline`.
    pub fn reset_at(&mut self, deadline: Instant) {
        self.delay.as_mut().reset(deadline);
    }

    /// What the interval does about missed ticks.
    pub fn missed_tick_behavior(&self) -> MissedTickBehavior {
        self.missed_tick_behavior
    }

    /// Changes what the interval does about missed ticks.
    pub fn set_missed_tick_behavior(&mut self, behavior: MissedTickBehavior) {
        self.missed_tick_behavior = behavior;
    }

    /// The period between ticks.
    pub fn period(&self) -> Duration {
        self.period
    }
}
