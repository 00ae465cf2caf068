//! `cargo xtask miri [--quick]`: the unit and integration tests that Miri
//! can run, under Miri, first with Stacked Borrows and then with Tree
//! Borrows, with the flags tokio's CI uses (`-Zmiri-disable-isolation
//! -Zmiri-strict-provenance`). Miri must report no undefined behaviour
//! and every test must pass. Prints a table of test sets, tests run and
//! ignored, and time, per borrow model.
//!
//! The sets, in [`FULL`]: rt-core, rt-sync, rt-time and rt-io, each whole
//! (`--all-features --lib --tests`). `--quick` runs [`QUICK`], chosen to
//! cover the unsafe protocols in a few minutes on two cores under both
//! models; CI runs it.
//!
//! The skips live beside the tests, each with its reason, so that a plain
//! `cargo +nightly miri test -p <crate> --lib --tests` skips them itself: a
//! file Miri cannot run (sockets, `fork`/`exec`, signal delivery: system
//! calls Miri does not emulate) starts with `#![cfg(not(miri))]` under a
//! comment that says why; a single test carries `#[cfg_attr(miri, ignore =
//! "why")]`; a count too slow to interpret is Miri-sized (`if cfg!(miri) {
//! .. }`: a runtime of a few workers runs a few dozen tasks under Miri as
//! it runs thousands natively, only slower). The loom targets build only
//! with `--cfg loom` and are empty here.
//!
//! Nothing is installed here: Miri comes with the nightly toolchain's
//! `miri` and `rust-src` components (`.ci/run` adds them on CI).
//! `cargo miri setup` builds Miri's sysroot first.

use std::process::Command;
use std::time::Duration;

use crate::cargo::workspace_root;
use crate::deadline::{binary_deadline, run_bounded};
use crate::libtest::test_counts;

/// The flags of every run, as tokio's CI runs Miri: tests read the clock
/// and the environment, and pointers are never made from integers.
const MIRIFLAGS: &str = "-Zmiri-disable-isolation -Zmiri-strict-provenance";

/// The borrow models, by name, and the flag that selects each.
const MODELS: &[(&str, &str)] = &[("stacked", ""), ("tree", "-Zmiri-tree-borrows")];

/// One `cargo miri test` run: a package's targets, each test filtered to
/// the names that contain one of `filters` (none: every test).
struct Set {
    package: &'static str,
    /// Cargo's features and target selection: `--all-features`, `--lib`,
    /// `--tests`, `--test NAME`, ...
    targets: &'static [&'static str],
    filters: &'static [&'static str],
    /// What the set covers.
    covers: &'static str,
}

const fn set(
    package: &'static str,
    targets: &'static [&'static str],
    filters: &'static [&'static str],
    covers: &'static str,
) -> Set {
    Set {
        package,
        targets,
        filters,
        covers,
    }
}

/// What `--quick` runs.
const QUICK: &[Set] = &[
    set(
        "rt-core",
        &["--lib"],
        &[
            "task::state",
            "task::raw",
            "util::linked_list",
            "scheduler::inject",
        ],
        "task state word and cells, the linked list, the inject queue",
    ),
    set(
        "rt-core",
        &["--test", "observe_dump"],
        &[],
        "task dumps: the owned list's references to every cell",
    ),
    set(
        "rt-sync",
        &[
            "--test",
            "oneshot",
            "--test",
            "semaphore",
            "--test",
            "notify",
            "--test",
            "mpsc",
        ],
        &[],
        "oneshot, the semaphore's waiter list, Notify, mpsc's block list",
    ),
];

/// What a full run runs: each crate whole, with every feature.
const FULL: &[Set] = &[
    set(
        "rt-core",
        &["--all-features", "--lib", "--tests"],
        &[],
        "task cells and state, queues, inject, linked list, wakers; tasks, both \
         schedulers, the blocking pool, dumps, allocation counts",
    ),
    set(
        "rt-sync",
        &["--all-features", "--lib", "--tests"],
        &[],
        "rt-sync's primitives, alone and on both schedulers",
    ),
    set(
        "rt-time",
        &["--all-features", "--lib", "--tests"],
        &[],
        "the timer wheel, sleeps, timeouts, intervals, the paused clock",
    ),
    set(
        "rt-io",
        &["--all-features", "--lib", "--tests"],
        &[],
        "the reactor's registration set and readiness, I/O utilities, files, pipes",
    ),
];

/// The bound on one set's run, build included: Miri interprets code
/// hundreds of times slower than it runs.
const QUICK_DEADLINE: Duration = Duration::from_secs(600);
const FULL_DEADLINE: Duration = Duration::from_secs(3600);

/// One set's line in the table.
struct Row {
    model: &'static str,
    label: String,
    passed: usize,
    ignored: usize,
    elapsed: Duration,
    verdict: String,
}

/// Runs the command; `args` is empty or `--quick`.
pub fn miri(args: &[String]) -> Result<(), String> {
    let quick = match args {
        [] => false,
        [flag] if flag == "--quick" => true,
        _ => return Err("usage: cargo xtask miri [--quick]".to_string()),
    };
    check_installed()?;
    let limit = binary_deadline(if quick { QUICK_DEADLINE } else { FULL_DEADLINE })?;
    let mut setup = nightly_cargo(&["miri", "setup"]);
    let status = setup
        .status()
        .map_err(|e| format!("could not start cargo miri setup: {e}"))?;
    if !status.success() {
        return Err(format!("`cargo +nightly miri setup` failed ({status})"));
    }
    let sets = if quick { QUICK } else { FULL };
    let mut rows = Vec::new();
    for (model, flag) in MODELS {
        for set in sets {
            rows.push(run_set(set, model, flag, limit)?);
        }
    }
    print_table(&rows);
    let failed: Vec<String> = rows
        .iter()
        .filter(|r| r.verdict != "ok")
        .map(|r| format!("{} ({}): {}", r.label, r.model, r.verdict))
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} of {} Miri runs failed:\n  {}",
            failed.len(),
            rows.len(),
            failed.join("\n  ")
        ))
    }
}

/// `cargo +nightly ARGS` from the workspace root. The variables the
/// stable cargo running xtask set are removed: cargo-miri runs `$CARGO`,
/// and rustup's proxies obey `RUSTUP_TOOLCHAIN`.
fn nightly_cargo(args: &[&str]) -> Command {
    let mut command = Command::new("rustup");
    command
        .args(["run", "nightly", "cargo"])
        .args(args)
        .current_dir(workspace_root());
    for var in [
        "CARGO",
        "RUSTC",
        "RUSTDOC",
        "RUSTUP_TOOLCHAIN",
        "CARGO_MANIFEST_DIR",
    ] {
        command.env_remove(var);
    }
    command
}

fn check_installed() -> Result<(), String> {
    let found = nightly_cargo(&["miri", "--version"])
        .output()
        .is_ok_and(|out| out.status.success());
    if found {
        Ok(())
    } else {
        Err("Miri is not installed for the nightly toolchain: run \
             `rustup +nightly component add miri rust-src` (or, without a \
             nightly toolchain, `rustup toolchain install nightly --profile \
             minimal -c miri,rust-src`); .ci/run does so on CI"
            .to_string())
    }
}

fn run_set(set: &Set, model: &'static str, flag: &str, limit: Duration) -> Result<Row, String> {
    let label = format!("{} {}", set.package, targets_label(set));
    let mut args = vec!["miri", "test", "--no-fail-fast", "-p", set.package];
    args.extend_from_slice(set.targets);
    args.push("--");
    args.extend_from_slice(set.filters);
    let mut command = nightly_cargo(&args);
    let flags = match std::env::var("MIRIFLAGS") {
        Ok(extra) => format!("{MIRIFLAGS} {flag} {extra}"),
        Err(_) => format!("{MIRIFLAGS} {flag}"),
    };
    command
        .env("MIRIFLAGS", flags.trim())
        // The in-process deadline of each #[rt::test], inside the set's.
        .env("RT_TEST_DEADLINE", (limit.as_secs() / 2).max(1).to_string());
    println!("xtask: miri ({model} borrows) {label}: {}", set.covers);
    let run = run_bounded(&mut command, limit)?;
    let (passed, failed, ignored) = test_counts(&run.stdout);
    let verdict = match run.status {
        None => format!("killed after {} s", limit.as_secs()),
        Some(_) if failed > 0 => format!("{failed} tests failed"),
        Some(status) if !status.success() => format!(
            "failed ({status}): a binary stopped, on undefined behaviour or an \
             operation Miri does not support; see its output above"
        ),
        Some(_) if passed == 0 => "no test ran".to_string(),
        Some(_) => "ok".to_string(),
    };
    Ok(Row {
        model,
        label,
        passed,
        ignored,
        elapsed: run.elapsed,
        verdict,
    })
}

/// `lib`, the test names, and the filters, for the table.
fn targets_label(set: &Set) -> String {
    let targets: Vec<&str> = set
        .targets
        .iter()
        .filter(|t| !t.starts_with("--"))
        .copied()
        .chain(set.targets.contains(&"--lib").then_some("lib"))
        .chain(set.targets.contains(&"--tests").then_some("tests"))
        .collect();
    let mut label = targets.join(",");
    if !set.filters.is_empty() {
        label.push_str(&format!(" [{}]", set.filters.join(",")));
    }
    label
}

fn print_table(rows: &[Row]) {
    let width = rows.iter().map(|r| r.label.len()).max().unwrap_or(3).max(3);
    println!();
    println!(
        "{:<7}  {:<width$}  {:>6}  {:>7}  {:>8}  result",
        "borrows", "set", "passed", "ignored", "time"
    );
    for row in rows {
        println!(
            "{:<7}  {:<width$}  {:>6}  {:>7}  {:>7.0}s  {}",
            row.model,
            row.label,
            row.passed,
            row.ignored,
            row.elapsed.as_secs_f64(),
            row.verdict
        );
    }
    let total: Duration = rows.iter().map(|r| r.elapsed).sum();
    println!(
        "{:<7}  {:<width$}  {:>6}  {:>7}  {:>7.0}s",
        "total",
        "",
        rows.iter().map(|r| r.passed).sum::<usize>(),
        rows.iter().map(|r| r.ignored).sum::<usize>(),
        total.as_secs_f64()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_is_labelled_by_its_targets_and_filters() {
        let s = set("rt-io", &["--lib", "--test", "utilities"], &["io::"], "");
        assert_eq!(targets_label(&s), "utilities,lib [io::]");
    }

    #[test]
    fn a_whole_package_set_is_labelled_lib_and_tests() {
        let s = set("rt-io", &["--all-features", "--lib", "--tests"], &[], "");
        assert_eq!(targets_label(&s), "lib,tests");
    }
}
