//! `rt-test`: the support every test of the workspace shares, written once.
//!
//! A dev-dependency only (`publish = false`). It adds no second executor:
//! [`block_on`] is rt-core's thread-parking one, and [`run`] is a
//! current-thread runtime's own `block_on`.
//!
//! * Driving futures: [`block_on`] (no runtime), [`run`] and the runtime
//!   constructors (with a runtime), [`join2`] (two futures at once).
//! * Polling by hand: [`poll_once`], [`poll_with`], [`poll_next_once`], with
//!   [`noop_waker`] and [`counting_waker`]; [`assert_wakes`] checks that an
//!   event wakes a waiting future exactly once.
//! * Streams whose every answer the test scripts: [`Scripted`], [`Always`].
//! * Files: [`ScratchDir`] (removed on drop) and [`pattern`] contents.
//! * A hang that fails instead of stalling the run: [`within`].
//! * Watching a runtime park: [`ObservedPark`], a base driver that reports
//!   each park's timeout.
//! * Reproducible random choices: [`seed_thread_rng`]; counting drops:
//!   [`DropCounter`]; counting heap bytes: [`alloc`] (a global allocator).
//! * With feature `net`: [`io_runtime`], [`tcp_pair`], and an echo's two
//!   sides ([`echo`], [`assert_echoed`]); with feature
//!   `time`: [`time_runtime`]; with both: `io_time_runtime` (either
//!   flavor) and `bounded`; with feature `signal` (Unix): `raise_now`.

pub mod alloc;
mod deadline;
mod driver;
mod drop_counter;
#[cfg(all(feature = "net", feature = "time"))]
mod io_time;
mod join;
#[cfg(feature = "net")]
mod net;
mod poll;
mod runtime;
mod scratch;
#[cfg(all(unix, feature = "signal"))]
mod signal;
mod stream;
mod waker;

pub use deadline::{within, DEADLINE};
pub use driver::ObservedPark;
pub use drop_counter::DropCounter;
#[cfg(all(feature = "net", feature = "time"))]
pub use io_time::{bounded, io_time_runtime, io_time_runtime_multi_thread, READY_BOUND};
pub use join::join2;
#[cfg(feature = "net")]
pub use net::{assert_echoed, echo, io_runtime, tcp_pair};
pub use poll::{assert_wakes, poll_next_once, poll_once, poll_with};
pub use rt_core::util::block_on;
#[cfg(feature = "time")]
pub use runtime::time_runtime;
pub use runtime::{run, run_multi_thread, runtime, seed_thread_rng};
pub use scratch::{pattern, ScratchDir};
#[cfg(all(unix, feature = "signal"))]
pub use signal::raise_now;
pub use stream::{Always, Probe, Scripted};
pub use waker::{counting_waker, noop_waker, WakeCounter};
