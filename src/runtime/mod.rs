//! The runtime: [`Builder`], [`Runtime`], [`LocalRuntime`], [`Handle`].
//!
//! rt-core owns the schedulers; this module adds what only the facade
//! knows: which drivers (I/O, time) to stack under the scheduler. That is
//! why `Runtime` and `LocalRuntime` here are thin wrappers of rt-core's:
//! their `new()` builds a runtime with every driver enabled, as tokio's
//! does, which rt-core alone cannot. Everything else is forwarded
//! unchanged.

mod builder;
#[cfg(all(unix, feature = "signal"))]
mod dump_on_signal;
mod local_runtime;
#[allow(clippy::module_inception)]
mod runtime;

pub use builder::Builder;
pub use local_runtime::LocalRuntime;
pub use runtime::Runtime;

pub use rt_core::runtime::{
    is_rt_shutdown_err, worker_index, BlockingPolicy, EnterGuard, Handle, HistogramConfiguration,
    Id, IoDriverKind, LocalOptions, PanicCallback, RngSeed, RuntimeFlavor, RuntimeMetrics,
    SlowPoll, TryCurrentError, UnhandledPanic,
};
