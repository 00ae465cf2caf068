//! The timer seam: what the time-based adapters need from a timer.

use core::pin::Pin;
use core::task::{Context, Poll};
use std::time::Duration;

/// A one-shot timer that can be re-armed.
pub(crate) trait Delay {
    /// Arms the timer to expire `after` from now, replacing any earlier
    /// expiry time.
    fn arm(self: Pin<&mut Self>, after: Duration);

    /// `Ready` once the armed time has passed (and until it is re-armed);
    /// otherwise `Pending`, with `cx`'s waker woken at expiry.
    fn poll_expired(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()>;
}

/// A periodic timer.
pub(crate) trait Ticker {
    /// `Ready` once per period; otherwise `Pending`, with `cx`'s waker woken
    /// at the next tick.
    fn poll_tick(&mut self, cx: &mut Context<'_>) -> Poll<()>;

    /// Restarts the period from now.
    fn reset(&mut self);
}
