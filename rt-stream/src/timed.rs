//! The time-based adapters (`timeout`, `timeout_repeating`, `throttle`,
//! `chunks_timeout`).
//!
//! Their logic is written against a two-trait timer seam: [`Delay`] is what
//! a re-armable one-shot timer must offer, [`Ticker`] what a periodic one
//! must. The unit tests drive that logic with hand-run timers; with the
//! `time` feature, `rt_timer` implements the seam with rt-time's `Sleep`
//! and `Interval`, and `adapters` holds the public types `StreamExt`
//! returns.

// Without a timer crate nothing outside this module's tests builds the
// adapters.
#![cfg_attr(not(feature = "time"), allow(dead_code))]

#[cfg(feature = "time")]
mod adapters;
mod chunks_timeout;
mod elapsed;
#[cfg(feature = "time")]
mod rt_timer;
mod seam;
mod throttle;
mod timeout;
mod timeout_repeating;

#[cfg(test)]
mod manual;

#[cfg(feature = "time")]
pub use adapters::{ChunksTimeout, Throttle, Timeout, TimeoutRepeating};
pub use elapsed::Elapsed;
pub(crate) use seam::{Delay, Ticker};
