//! rt: an asynchronous runtime for Rust.
//!
//! This crate is the facade: it re-exports the workspace's crates under the
//! module paths tokio users know (`rt::task`, `rt::runtime`, `rt::sync`, ...),
//! so that code written for tokio compiles after `use rt as tokio;`.

pub use rt_core::task;

#[doc(hidden)]
pub mod macros;
#[cfg(feature = "macros")]
pub use rt_macros::{main, test};
