//! Signal handling (feature `signal`): [`ctrl_c`] everywhere; on Unix, in
//! `unix`, a `Signal` stream per signal kind; on Windows, in `windows`,
//! a listener per console control event (`windows/console.rs`).
//!
//! The module owns the whole path of a delivery. A process-wide handler per
//! signal number (installed through `signal-hook-registry`, once, on first
//! use) records the delivery in that number's event and writes a byte to a
//! wake pipe; a dispatcher thread reading the pipe wakes every listener of
//! the recorded events. Nothing here needs the reactor, so listeners work
//! under any runtime, several runtimes at once, or a plain executor.

mod ctrl_c;
#[doc(hidden)]
pub mod event;
#[cfg(unix)]
mod registry;
#[cfg(unix)]
pub mod unix;
#[cfg(windows)]
pub mod windows;

pub use ctrl_c::ctrl_c;
