//! The seed sweep: one simulated test run under many seeds, in parallel
//! processes, to find the seeds that fail.
//!
//! Each seed runs in a fresh process (the current test binary, filtered to
//! one test, with `RT_SIM_SEED` set), so a seed's run cannot be disturbed
//! by another's panics or global state, and a failing seed found here
//! fails the same way when replayed alone.
//!
//! This file needs nothing but `std`: `cargo xtask sim-sweep`, which has no
//! dependencies, compiles it in as its own module to sweep a test binary
//! it built.

use std::io;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// The environment variable that overrides the seed a simulation was built
/// with, to replay a run: `RT_SIM_SEED=12345` or `RT_SIM_SEED=0x3039`.
pub const SEED_ENV: &str = "RT_SIM_SEED";

/// Set in the processes a sweep starts, to the seed they run.
pub const SWEEP_ENV: &str = "RT_SIM_SWEEP_SEED";

/// What a sweep found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepReport {
    /// How many seeds ran.
    pub ran: usize,
    /// The seeds whose run failed, in increasing order.
    pub failed: Vec<u64>,
    /// For each failed seed, the command that replays it.
    pub replay: Vec<String>,
}

/// Runs the test named `test` of the current test binary once for each of
/// `seeds`, `jobs` processes at a time, and reports the seeds that failed.
/// The test builds its `Sim` as usual; `RT_SIM_SEED` overrides its seed,
/// and `RT_SIM_SWEEP_SEED` tells it that it runs in a sweep.
///
/// ```no_run
/// // In tests/replication.rs, beside `#[test] fn replication()`:
/// #[test]
/// #[ignore = "a sweep: cargo test --test replication sweep -- --ignored"]
/// fn sweep() {
///     let report = rt_sim::sweep("replication", 0..1000, 8).unwrap();
///     assert!(report.failed.is_empty(), "{report:#?}");
/// }
/// ```
///
/// # Panics
///
/// If `jobs` is 0.
pub fn sweep(
    test: &str,
    seeds: impl IntoIterator<Item = u64>,
    jobs: usize,
) -> io::Result<SweepReport> {
    sweep_binary(&std::env::current_exe()?, test, seeds, jobs)
}

/// [`sweep`] over the test named `test` of the test binary `program`
/// rather than the current one.
///
/// # Panics
///
/// If `jobs` is 0.
pub fn sweep_binary(
    program: &Path,
    test: &str,
    seeds: impl IntoIterator<Item = u64>,
    jobs: usize,
) -> io::Result<SweepReport> {
    assert!(jobs > 0, "a sweep needs at least one process at a time");
    let mut running: Vec<(u64, Child)> = Vec::new();
    let mut report = SweepReport {
        ran: 0,
        failed: Vec::new(),
        replay: Vec::new(),
    };
    for seed in seeds {
        if running.len() == jobs {
            let (seed, child) = running.remove(0);
            finish(seed, child, &mut report)?;
        }
        let child = Command::new(program)
            .args([test, "--exact", "--test-threads=1", "--quiet"])
            .env(SEED_ENV, seed.to_string())
            .env(SWEEP_ENV, seed.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        running.push((seed, child));
    }
    for (seed, child) in running {
        finish(seed, child, &mut report)?;
    }
    report.failed.sort_unstable();
    report.replay = report
        .failed
        .iter()
        .map(|seed| format!("{SEED_ENV}={seed} {} {test} --exact", program.display()))
        .collect();
    Ok(report)
}

/// Waits for the run of `seed` and counts it.
fn finish(seed: u64, mut child: Child, report: &mut SweepReport) -> io::Result<()> {
    report.ran += 1;
    if !child.wait()?.success() {
        report.failed.push(seed);
    }
    Ok(())
}
