//! `cargo xtask bench [ARGS]`: the side-by-side rt/tokio benchmark, in
//! release, with the table on the terminal and `report.md` plus
//! `ratios.svg` under `target/bench/`.
//!
//! `cargo xtask bench --instructions` also runs every current-thread and
//! one-worker case once per runtime under `valgrind --tool=callgrind` and
//! puts the instruction counts of the measured region, and their ratio,
//! beside the times (the callgrind files stay in
//! `target/bench/callgrind/` for `callgrind_annotate`). Without valgrind on
//! the `PATH` those cells say so and the times are reported as usual.
//!
//! `cargo xtask bench --control` runs tokio against itself: its ratios
//! are the machine's noise, the yardstick for a run of rt against tokio.
//!
//! `cargo xtask bench --busy-loops N` times both runtimes beside N threads
//! spinning on arithmetic: a machine that other work keeps busy.
//!
//! Every case also reports each side's CPU time (user plus system of the
//! whole process over the measured region) and voluntary context switches
//! per second, with a rank-sum verdict on time and on CPU; `results.json`
//! beside the report holds every sample.
//!
//! The `sched_yield` calls a runtime makes per small-file read are counted
//! with strace around one side at a time (both sides share the process):
//!
//! ```text
//! cargo bench -p examples --bench runtime --no-run
//! strace -f -c -e trace=sched_yield target/release/deps/runtime-HASH \
//!     --runtime rt --samples 3 --filter fs_read_small_spawned/multi-2
//! ```
//!
//! The count divided by the reads, 200 per sample plus the warm-up's 200,
//! is the yields per read; repeat with `--runtime tokio`.

use crate::cargo::{cargo, workspace_root};

/// The benchmark target that holds the rt/tokio suite.
const SUITE: &str = "runtime";

/// Runs the suite. `args` go to the harness unchanged (`--filter NAME`,
/// `--samples N`, `--runtime rt|tokio`, `--smoke`, `--instructions`,
/// `--workers LIST`, `--control`, `--busy-loops N`, `--help`); an `--out` among them
/// overrides the default report directory.
pub fn bench(args: &[String]) -> Result<(), String> {
    let out = workspace_root().join("target").join("bench");
    let out = out.to_str().ok_or("non-UTF-8 target path")?;
    let mut cargo_args = vec![
        "bench", "-p", "examples", "--bench", SUITE, "--", "--out", out,
    ];
    cargo_args.extend(args.iter().map(String::as_str));
    cargo(&cargo_args, &[])
}
