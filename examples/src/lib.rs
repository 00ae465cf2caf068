//! Shared helpers for rt's example programs and benchmarks.
//!
//! | module | what |
//! |--------|------|
//! | [`bench`] | the side-by-side rt/tokio benchmark harness: workload table, runner, statistics, reports |

pub mod bench;
