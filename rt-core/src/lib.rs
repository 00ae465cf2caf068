//! `rt-core`: the part of rt every other part stands on.
//!
//! It owns the task (one allocation holding the future, its state word and
//! its output), the handles to it (`task::JoinHandle`,
//! `task::AbortHandle`), the schedulers that poll tasks, the blocking
//! pool, the cooperative budget ([`task::coop`]) and the driver seam
//! ([`runtime::Driver`]) through which rt-io and rt-time plug their event
//! sources into a runtime without rt-core knowing them.
//!
//! # Features
//!
//! * `rt` (default): the runtime itself: the current-thread scheduler,
//!   `runtime::Runtime`, `runtime::Builder`, `runtime::Handle`, tasks and
//!   `spawn`, `JoinSet`, `LocalSet`, task-locals and the blocking
//!   pool.
//! * `rt-multi-thread` (default): the multi-thread work-stealing scheduler
//!   (`Builder::new_multi_thread`, `task::block_in_place`); implies `rt`.
//!
//! With neither, rt-core is what runtime-agnostic crates (rt-sync, rt-time,
//! rt-io's traits) build on, and no scheduler is compiled: the coop budget,
//! the driver seam ([`runtime::Driver`], [`runtime::DriverHandles`], the
//! lookups of the current runtime's driver handles), the check that
//! blocking is allowed, the loom shim and the shared mechanisms of `util`.

/// Compiles the items only with the `rt` feature (the runtime).
macro_rules! cfg_rt {
    ($($item:item)*) => {
        $( #[cfg(feature = "rt")] $item )*
    };
}

#[doc(hidden)]
pub mod loom;
pub mod runtime;
pub mod task;
#[doc(hidden)]
pub mod util;

#[cfg(feature = "rt")]
pub use task::spawn;
