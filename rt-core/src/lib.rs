//! `rt-core`: the part of rt every other part stands on.
//!
//! It owns the task (one allocation holding the future, its state word and
//! its output), the handles to it ([`task::JoinHandle`],
//! [`task::AbortHandle`]), the schedulers that poll tasks, the blocking
//! pool, the cooperative budget ([`task::coop`]) and the driver seam
//! ([`runtime::Driver`]) through which rt-io and rt-time plug their event
//! sources into a runtime without rt-core knowing them.

#[doc(hidden)]
pub mod loom;
pub mod runtime;
pub mod task;
#[doc(hidden)]
pub mod util;

pub use task::spawn;
