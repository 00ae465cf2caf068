//! `rt-time` will own the hierarchical timer wheel, the time driver, sleep, timeout, interval and the paused clock.
//!
//! The crate is reserved in the workspace and has no public items yet.
