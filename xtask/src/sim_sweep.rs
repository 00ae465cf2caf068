//! `cargo xtask sim-sweep PACKAGE TARGET TEST [--seeds N] [--first S]
//! [--jobs J] [--release]`: builds the test binary `TARGET` of `PACKAGE`
//! and runs its test `TEST` once per seed (`S`, `S + 1`, ... `N` of them),
//! `J` processes at a time, through rt-sim's own sweep, then names the
//! seeds that failed and the command that replays each.
//!
//! rt-sim's `sweep.rs` needs only `std`, so xtask compiles it in as a
//! module rather than depending on rt-sim: the sweep exists once, and
//! xtask keeps building without dependencies.

#[path = "../../rt-sim/src/sweep.rs"]
#[allow(dead_code)]
mod sweep;

use crate::test_binaries;

/// Seeds swept unless `--seeds` says otherwise.
const DEFAULT_SEEDS: u64 = 100;

pub fn sim_sweep(args: &[String]) -> Result<(), String> {
    let usage = "usage: cargo xtask sim-sweep PACKAGE TARGET TEST [--seeds N] [--first S] [--jobs J] [--release]";
    let mut positional = Vec::new();
    let mut seeds = DEFAULT_SEEDS;
    let mut first = 0u64;
    let mut jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut release = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} needs a number\n{usage}"))
        };
        match arg.as_str() {
            "--seeds" => seeds = number("--seeds")?,
            "--first" => first = number("--first")?,
            "--jobs" => jobs = number("--jobs")?.max(1) as usize,
            "--release" => release = true,
            other => positional.push(other.to_string()),
        }
    }
    let [package, target, test] = positional.as_slice() else {
        return Err(usage.to_string());
    };
    let mut build_args = vec!["-p", package, "--test", target];
    if release {
        build_args.push("--release");
    }
    let binary = test_binaries::build(&build_args, &[])?
        .into_iter()
        .find(|b| b.target == *target)
        .ok_or_else(|| format!("no test binary {target} in {package}"))?;
    println!(
        "xtask: sweeping {package}/{target} {test} over seeds {first}..{}, {jobs} at a time",
        first + seeds
    );
    let report = sweep::sweep_binary(&binary.path, test, first..first + seeds, jobs)
        .map_err(|e| format!("running {}: {e}", binary.path.display()))?;
    println!(
        "xtask: {} seeds ran, {} failed",
        report.ran,
        report.failed.len()
    );
    if report.failed.is_empty() {
        return Ok(());
    }
    for replay in &report.replay {
        println!("  replay: {replay}");
    }
    Err(format!("seeds failed: {:?}", report.failed))
}
