//! The timer seam implemented with rt-time: [`SleepSlot`] is the
//! [`Delay`] of the one-shot adapters, and rt-time's [`Interval`] is the
//! [`Ticker`] of `timeout_repeating`.

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::time::Duration;

use rt_time::{Instant, Interval, Sleep};

use super::{Delay, Ticker};

/// How far away a deadline that does not fit in an `Instant` is put: far
/// enough never to fire in practice, near enough not to overflow.
const FAR_AWAY: Duration = Duration::from_secs(86_400 * 365 * 30);

/// A [`Sleep`] created the first time it is armed and reset afterwards.
///
/// Creating it lazily lets `throttle` and `chunks_timeout` be built outside
/// a runtime, and a stream that never yields never takes a timer entry.
#[derive(Debug)]
pub(crate) struct SleepSlot {
    // Structurally pinned: the sleep's wheel entry is linked in place.
    sleep: Option<Sleep>,
}

impl SleepSlot {
    /// An unarmed slot; nothing touches the timer until [`Delay::arm`].
    pub(crate) fn new() -> SleepSlot {
        SleepSlot { sleep: None }
    }

    /// A slot armed to expire `after` from now; must run inside a runtime
    /// with timers.
    #[track_caller]
    pub(crate) fn armed(after: Duration) -> SleepSlot {
        SleepSlot {
            sleep: Some(rt_time::sleep_until(deadline_after(after))),
        }
    }

    fn project(self: Pin<&mut Self>) -> Pin<&mut Option<Sleep>> {
        // SAFETY: `sleep` is structurally pinned: it is only replaced or
        // dropped in place (through `Pin::set`), `SleepSlot` has no `Drop`
        // impl, and it is `Unpin` only when `Sleep` is.
        unsafe { self.map_unchecked_mut(|slot| &mut slot.sleep) }
    }
}

impl Delay for SleepSlot {
    fn arm(self: Pin<&mut Self>, after: Duration) {
        let deadline = deadline_after(after);
        let mut slot = self.project();
        match slot.as_mut().as_pin_mut() {
            Some(sleep) => sleep.reset(deadline),
            None => slot.set(Some(rt_time::sleep_until(deadline))),
        }
    }

    fn poll_expired(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        match self.project().as_pin_mut() {
            Some(sleep) => sleep.poll(cx),
            // Never armed, so never expires; the adapters only wait on an
            // armed delay.
            None => Poll::Pending,
        }
    }
}

/// `after` from now, or far away if that does not fit in an `Instant`.
fn deadline_after(after: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(after).unwrap_or_else(|| now + FAR_AWAY)
}

impl Ticker for Interval {
    fn poll_tick(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        Interval::poll_tick(self, cx).map(drop)
    }

    fn reset(&mut self) {
        Interval::reset(self);
    }
}
