//! Shared helpers for rt's example programs and benchmarks.
//!
//! | module | what |
//! |--------|------|
//! | [`cli`] | the example servers' `--smoke` / `--addr` options and their hang watchdog |
//! | [`bench`] | the side-by-side rt/tokio benchmark harness: workload table, runner, statistics, reports |

pub mod bench;
pub mod cli;
