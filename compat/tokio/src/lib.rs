//! rt under tokio's crate name.
//!
//! Patched into a dependency tree with
//!
//! ```toml
//! [patch.crates-io]
//! tokio = { path = "path/to/rt/compat/tokio" }
//! ```
//!
//! every crate that names `tokio` (axum, hyper, reqwest, tokio-util, ...)
//! runs on rt. This crate holds no runtime code of its own: it re-exports
//! rt at tokio's paths, and maps tokio's feature names onto rt's.

pub use rt_facade::*;

// `#[tokio::main]` and `#[tokio::test]`: rt's attributes, expanding to
// `::tokio` paths (the glob above would bring rt's, which name `::rt`).
#[cfg(feature = "macros")]
pub use rt_facade::{tokio_main as main, tokio_test as test};
