//! `rt-time`: timers for rt.
//!
//! It owns the hierarchical timing wheel (6 levels of 64 slots over 1 ms
//! ticks, sharded so that threads registering timers do not contend on one
//! lock), the time driver that plugs into rt-core's driver stack and parks
//! exactly until the next timer, the futures built on it ([`Sleep`],
//! [`Timeout`], [`Interval`]) and the paused clock used by tests
//! ([`pause`], [`resume`], [`advance`], feature `test-util`, on by
//! default).
//!
//! A runtime gets timers by adding the layer:
//!
//! ```
//! use std::time::Duration;
//!
//! let rt = rt_core::runtime::Builder::new_current_thread()
//!     .driver_layer(rt_time::driver_layer(false))
//!     .build()
//!     .unwrap();
//! rt.block_on(async {
//!     let result = rt_time::timeout(Duration::from_millis(20), async {
//!         rt_time::sleep(Duration::from_millis(1)).await;
//!         "done"
//!     })
//!     .await;
//!     assert_eq!(result, Ok("done"));
//! });
//! ```

mod clock;
mod driver;
mod entry;
pub mod error;
mod instant;
mod interval;
mod sleep;
mod timeout;
mod wheel;

#[cfg(all(test, loom))]
mod loom_models;

#[cfg(feature = "test-util")]
pub use clock::{advance, pause, resume};
pub use driver::{driver_layer, multi_thread_driver_layer};
pub use instant::Instant;
pub use interval::{interval, interval_at, Interval, MissedTickBehavior};
pub use sleep::{sleep, sleep_until, Sleep};
pub use std::time::Duration;
pub use timeout::{timeout, timeout_at, Timeout};
