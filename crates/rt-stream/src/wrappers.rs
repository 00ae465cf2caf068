//! Adapters that present rt's own types as [`Stream`](futures_core::Stream)s.
//!
//! Each sits behind the cargo feature that pulls in the crate owning the
//! wrapped type.

#[cfg(feature = "rt")]
mod join_set;

#[cfg(feature = "rt")]
pub use join_set::JoinSetStream;
