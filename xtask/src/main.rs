//! Project automation, run as `cargo xtask <command>`.
//!
//! * `ci`: everything CI checks, in the order that fails fastest: format,
//!   clippy, the feature checks, the test suite with doc tests, the loom
//!   models, and a smoke run of every example and benchmark.
//! * `features`: only the feature checks: rt-sync, rt-time and rt-codec
//!   with their default features pull in neither mio, socket2,
//!   crossbeam-deque nor rt-core's runtime (`cargo tree`), and every
//!   library crate builds without its default features, with them alone,
//!   and the facade with a few chosen sets (`cargo check`).
//! * `loom [CRATE]`: only the loom models (all crates that have them, or one).
//! * `smoke`: only the example and benchmark smoke runs.
//! * `bench [ARGS]`: the rt/tokio benchmark suite in release; writes
//!   `target/bench/report.md` and `target/bench/ratios.svg`. `ARGS` go to
//!   the harness (`--filter NAME`, `--samples N`, `--help`, ...).

use std::env;
use std::process::exit;
use std::time::Instant;

mod bench;
mod cargo;
mod features;
mod loom;
mod smoke;

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
        Some("bench") => bench::bench(&args[1..]),
        _ => {
            eprintln!("usage: cargo xtask <ci | features | loom [CRATE] | smoke | bench [ARGS]>");
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
    // Every feature on: the optional adapters (rt-io `compat`, rt-stream
    // `signal`) have tests of their own.
    cargo(
        &["test", "--workspace", "--all-features", "--no-fail-fast"],
        &[],
    )?;
    loom(None)?;
    smoke()?;
    println!("xtask ci: all checks passed in {:.0?}", started.elapsed());
    Ok(())
}
