//! The time-based adapters (`timeout`, `timeout_repeating`, `throttle`,
//! `chunks_timeout`), each one a stream over rt-time's `Sleep` or
//! `Interval`, and [`Elapsed`], their error item.
//!
//! The adapters are tested on rt-time's paused clock
//! (`tests/time_adapters.rs`), where the instant each item comes out at is
//! exact. What they share lives here: how a deadline that does not fit in
//! an `Instant` is put, and the lazily created `Sleep` of `throttle` and
//! `chunks_timeout`.

#[cfg(feature = "time")]
mod chunks_timeout;
mod elapsed;
#[cfg(feature = "time")]
mod throttle;
#[cfg(feature = "time")]
mod timeout;
#[cfg(feature = "time")]
mod timeout_repeating;

#[cfg(feature = "time")]
pub use chunks_timeout::ChunksTimeout;
pub use elapsed::Elapsed;
#[cfg(feature = "time")]
pub use throttle::Throttle;
#[cfg(feature = "time")]
pub use timeout::Timeout;
#[cfg(feature = "time")]
pub use timeout_repeating::TimeoutRepeating;

#[cfg(feature = "time")]
use std::time::Duration;

#[cfg(feature = "time")]
use rt_time::{Instant, Sleep};

/// How far away a deadline that does not fit in an `Instant` is put: far
/// enough never to fire in practice, near enough not to overflow.
#[cfg(feature = "time")]
const FAR_AWAY: Duration = Duration::from_secs(86_400 * 365 * 30);

/// `after` from now, or far away if that does not fit in an `Instant`.
#[cfg(feature = "time")]
fn deadline_after(after: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(after).unwrap_or_else(|| now + FAR_AWAY)
}

/// Arms `slot` to expire `after` from now: resets its `Sleep`, or creates
/// one the first time.
///
/// The sleep is created lazily so that `throttle` and `chunks_timeout` can
/// be built outside a runtime, and a stream that never yields never takes a
/// timer entry.
#[cfg(feature = "time")]
fn arm(mut slot: core::pin::Pin<&mut Option<Sleep>>, after: Duration) {
    let deadline = deadline_after(after);
    match slot.as_mut().as_pin_mut() {
        Some(sleep) => sleep.reset(deadline),
        None => slot.set(Some(rt_time::sleep_until(deadline))),
    }
}
