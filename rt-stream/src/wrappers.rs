//! Adapters that present rt's own types as [`Stream`](futures_core::Stream)s.
//!
//! Each sits behind the cargo feature that pulls in the crate owning the
//! wrapped type: `rt` for [`JoinSetStream`], `sync` for the channel
//! receivers, `time` for [`IntervalStream`], `net` for the listeners and
//! `signal` for [`SignalStream`] (Unix).

#[cfg(feature = "sync")]
mod boxed;
#[cfg(feature = "sync")]
mod broadcast;
#[cfg(feature = "time")]
mod interval;
#[cfg(feature = "rt")]
mod join_set;
#[cfg(feature = "sync")]
mod mpsc_bounded;
#[cfg(feature = "sync")]
mod mpsc_unbounded;
#[cfg(all(unix, feature = "signal"))]
mod signal_unix;
#[cfg(feature = "net")]
mod tcp_listener;
#[cfg(all(unix, feature = "net"))]
mod unix_listener;
#[cfg(feature = "sync")]
mod watch;

/// The error items of the wrapper streams.
#[cfg(feature = "sync")]
pub mod errors {
    pub use super::broadcast::BroadcastStreamRecvError;
}

#[cfg(feature = "sync")]
pub use broadcast::{BroadcastStream, BroadcastStreamRecvError};
#[cfg(feature = "time")]
pub use interval::IntervalStream;
#[cfg(feature = "rt")]
pub use join_set::JoinSetStream;
#[cfg(feature = "sync")]
pub use mpsc_bounded::ReceiverStream;
#[cfg(feature = "sync")]
pub use mpsc_unbounded::UnboundedReceiverStream;
#[cfg(all(unix, feature = "signal"))]
pub use signal_unix::SignalStream;
#[cfg(feature = "net")]
pub use tcp_listener::TcpListenerStream;
#[cfg(all(unix, feature = "net"))]
pub use unix_listener::UnixListenerStream;
#[cfg(feature = "sync")]
pub use watch::WatchStream;
