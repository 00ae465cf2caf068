//! The side-by-side benchmark harness.
//!
//! A benchmark binary lists its [`Workload`]s, each with one function per
//! runtime, and hands the table to [`main`]. The harness parses the command
//! line ([`Options`]), runs every selected workload on every flavor it
//! declares, alternating rt and tokio sample by sample so that both see the
//! same machine state, and reports each runtime's median and the ratio
//! rt/tokio: on the terminal, as `report.md` and as an SVG bar chart.
//!
//! Nothing here depends on a particular runtime: the runtime-specific code
//! lives in the benchmark binaries, which may use tokio as a
//! dev-dependency. [`mailbox`] is a runtime-agnostic channel so that both
//! runtimes are measured with the very same synchronization code, and
//! [`alloc`] (rt-test's counting global allocator, re-exported) counts
//! heap bytes for the memory workloads.
//!
//! With `--control` both sides of every pair run tokio: the ratios of that
//! run are the machine's noise, the yardstick for the ratios of rt to
//! tokio.
//!
//! With `--busy-loops N` the samples are taken beside N CPU-bound threads
//! ([`busy`]), to compare the runtimes on a loaded machine.
//!
//! Every sample's measured region also records the process's CPU time and
//! voluntary context switches ([`rusage`]); each case gets a rank-sum
//! verdict on time and on CPU ([`significance`]), and `results.json` holds
//! every sample for scripts ([`json`]).
//!
//! With `--instructions` the current-thread and one-worker cases are also
//! run under callgrind ([`instructions`]); workloads mark the region that
//! both the clock and the instruction count cover with a [`Stopwatch`].

pub use rt_test::alloc;
mod busy;
pub mod instructions;
mod json;
pub mod mailbox;
mod options;
mod region;
mod report;
mod runner;
mod rusage;
pub mod significance;
mod stats;
mod svg;
mod verdicts;
pub mod versus;
mod workload;

pub use json::results_json;
pub use options::{Options, OptionsError, Side, Sides};
pub use region::Stopwatch;
pub use report::{console_table, markdown_report};
pub use runner::{main, run, CaseResult, UsageSamples};
pub use stats::{geometric_mean, median, percentile};
pub use svg::ratio_chart;
pub use workload::{timed, Flavor, Size, Unit, Workload};
