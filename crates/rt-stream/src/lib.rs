//! `rt-stream` will own StreamExt, StreamMap and stream wrappers for rt's types.
//!
//! The crate is reserved in the workspace and has no public items yet.
