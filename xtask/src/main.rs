//! Project automation, run as `cargo xtask <command>`.
//!
//! * `ci`: everything CI checks, in the order that fails fastest: format,
//!   a scan for locks and atomics used behind the loom shim's back
//!   (`shim_check.rs`), clippy, the feature checks, clippy for macOS,
//!   FreeBSD and Windows (`cross`), the test suite with doc tests, the
//!   simulation's determinism check in release, the loom models, the quick
//!   valgrind run, and a smoke run of every example and benchmark. Each
//!   test binary runs under a deadline
//!   (`RT_TEST_BINARY_DEADLINE` seconds, 300 by default): one that hangs is
//!   killed, named, and run again on one thread to name the test that hangs.
//! * `features`: only the feature checks: rt-sync, rt-time and rt-codec
//!   with their default features pull in neither mio, socket2 nor
//!   rt-core's runtime (`cargo tree`), and every
//!   library crate builds without its default features, with them alone,
//!   and the facade with a few chosen sets (`cargo check`).
//! * `cross`: clippy, warnings denied, for the targets CI does not run on
//!   (`aarch64-apple-darwin`, `x86_64-unknown-freebsd`,
//!   `x86_64-pc-windows-gnu`), so that the macOS, FreeBSD and Windows arms
//!   of the code keep compiling.
//! * `windows [FILTER]`: the library crates' test binaries built for
//!   `x86_64-pc-windows-gnu` and run under wine, each under a deadline,
//!   with a pass table; needs mingw and wine (`windows.rs`).
//! * `test`: only the test step of `ci`: every test binary under its
//!   deadline, then the doc tests.
//! * `loom [CRATE]`: only the loom models (all crates that have them, or one).
//! * `smoke`: only the example and benchmark smoke runs.
//! * `valgrind [--quick]`: the test binaries of rt-core, rt-io, rt-sync,
//!   rt-time and the facade under valgrind's memcheck, which must report no
//!   error; `--quick` runs the subset that covers the unsafe protocols.
//!   Needs Debian's `valgrind` package.
//! * `miri [--quick]`: the unit and integration tests Miri can run (task
//!   cells, queues, lists, rt-sync, the timer wheel, rt-io's registration
//!   set and in-memory I/O) under Miri with Stacked Borrows, then Tree
//!   Borrows, which must report no undefined behaviour; `--quick` runs a
//!   subset of a few minutes. Needs the nightly `miri` and `rust-src`
//!   components.
//! * `bench [ARGS]`: the rt/tokio benchmark suite in release; writes
//!   `target/bench/report.md` and `target/bench/ratios.svg`. `ARGS` go to
//!   the harness (`--filter NAME`, `--samples N`, `--help`, ...).
//! * `ecosystem [--bench [--rounds N]] [--control] [--rt-only]`: the
//!   compat/ecosystem fixture (axum, hyper, reqwest, tower, tokio-util,
//!   tokio-stream) built on crates.io's tokio and on rt patched in as
//!   tokio, and its smoke run on both; `--bench` also times it on both and
//!   writes `target/bench/ecosystem.md`; `--control` times tokio against
//!   itself (`target/bench/ecosystem-control.md`).
//! * `sim-sweep PACKAGE TARGET TEST [--seeds N] [--first S] [--jobs J]
//!   [--release]`: one simulated test over many seeds in parallel
//!   processes (rt-sim's sweep); names the failing seeds and their replay
//!   commands.

use std::env;
use std::process::exit;
use std::time::Instant;

mod bench;
mod cargo;
mod cross;
mod deadline;
mod ecosystem;
mod features;
mod libtest;
mod loom;
mod miri;
mod shim_check;
mod sim_sweep;
mod smoke;
mod test_binaries;
mod tokio_suite;
mod valgrind;
mod windows;

use cargo::cargo;
use loom::loom;
use smoke::smoke;

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("loom") => loom(args.get(1).map(String::as_str)),
        Some("smoke") => smoke(),
        Some("features") => features::features(),
        Some("cross") => cross::cross(),
        Some("bench") => bench::bench(&args[1..]),
        Some("ecosystem") => ecosystem::ecosystem(&args[1..]),
        Some("test") => deadline::workspace_tests(),
        Some("valgrind") => valgrind::valgrind(&args[1..]),
        Some("miri") => miri::miri(&args[1..]),
        Some("tokio-suite") => tokio_suite::tokio_suite(&args[1..]),
        Some("sim-sweep") => sim_sweep::sim_sweep(&args[1..]),
        Some("windows") => windows::windows(&args[1..]),
        _ => {
            eprintln!(
                "usage: cargo xtask <ci | features | cross | test | loom [CRATE] | smoke | bench [ARGS] | ecosystem [--bench [--rounds N]] [--control] [--rt-only] | valgrind [--quick] | miri [--quick] | tokio-suite [--io-driver uring|epoll] [FILTER] | sim-sweep PACKAGE TARGET TEST [--seeds N] [--first S] [--jobs J] [--release] | windows [FILTER]>"
            );
            exit(2);
        }
    };
    if let Err(message) = result {
        eprintln!("xtask: {message}");
        exit(1);
    }
}

fn ci() -> Result<(), String> {
    let started = Instant::now();
    cargo(&["fmt", "--all", "--check"], &[])?;
    shim_check::shim_check()?;
    cargo(
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--all-features",
            "--",
            "-D",
            "warnings",
        ],
        &[],
    )?;
    features::features()?;
    cross::cross()?;
    // Every feature on: the optional adapters (rt-io `compat`, rt-stream
    // `signal`) have tests of their own.
    deadline::workspace_tests()?;
    // The simulation's determinism in the release profile too: the test
    // runs its scenario in two fresh processes and compares the trace
    // hash with the one pinned for every profile (the debug run is part
    // of the workspace tests above).
    cargo(
        &["test", "-p", "rt-sim", "--release", "--test", "determinism"],
        &[],
    )?;
    loom(None)?;
    valgrind::valgrind(&["--quick".to_string()])?;
    smoke()?;
    println!("xtask ci: all checks passed in {:.0?}", started.elapsed());
    Ok(())
}
