//! The time-based adapters (`timeout`, `timeout_repeating`, `throttle`,
//! `chunks_timeout`), written against a two-method timer seam so that their
//! logic stands and is tested before a timer crate is plugged in.
//!
//! [`Delay`] is what a one-shot timer must offer (rt-time's `Sleep` fits it:
//! arming is `reset(Instant::now() + after)`, expiry is its `poll`), and
//! [`Ticker`] what a periodic one must (rt-time's `Interval`: `poll_tick`
//! and `reset`). `StreamExt` gains the four methods, with tokio-stream's
//! signatures, once that crate is merged; until then nothing outside this
//! module's tests builds these adapters.

// Reachable from `StreamExt` only once a timer implements the seam.
#![cfg_attr(not(test), allow(dead_code))]

mod chunks_timeout;
mod elapsed;
mod seam;
mod throttle;
mod timeout;
mod timeout_repeating;

#[cfg(test)]
mod manual;

pub use elapsed::Elapsed;
pub(crate) use seam::{Delay, Ticker};
