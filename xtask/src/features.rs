//! `cargo xtask features`: the a la carte crates stay a la carte, and every
//! feature set worth having builds.
//!
//! Two kinds of check, both cheap next to the test suite:
//!
//! * Dependency trees. rt-sync and rt-time are runtime-agnostic and rt-codec
//!   without `net` frames any byte stream: with their default features none
//!   of them may pull in the reactor (mio, socket2), rt-core's schedulers
//!   (its `rt` feature) or the task dumps' symbolizer (backtrace, behind
//!   the same feature).
//!   `cargo tree` shows what a user of the crate alone gets, features
//!   included, without building anything.
//! * Builds. Every library crate with `--no-default-features` and with its
//!   default features alone, and the facade with a few feature sets a user
//!   would pick, through `cargo check` (no code generation). A `cfg` that
//!   names a missing item, or an item that is dead without some feature (a
//!   warning fails the check too), fails here rather than in a user's
//!   build.

use std::env;
use std::process::{Command, Output};
use std::time::Instant;

use crate::cargo::workspace_root;

/// Crates that must stay free of the runtime and the reactor when used
/// with their default features.
const AGNOSTIC_CRATES: &[&str] = &["rt-sync", "rt-time", "rt-codec"];

/// Dependencies none of [`AGNOSTIC_CRATES`] may pull in, with the reason.
const FORBIDDEN: &[(&str, &str)] = &[
    (
        "mio",
        "the I/O reactor belongs behind rt-io's `net` feature",
    ),
    ("socket2", "sockets belong behind rt-io's `net` feature"),
    (
        "backtrace",
        "the task dumps' unwinder and symbolizer belong behind rt-core's `rt` feature",
    ),
];

/// Every library crate of the workspace.
const LIBRARY_CRATES: &[&str] = &[
    "rt",
    "rt-core",
    "rt-io",
    "rt-time",
    "rt-sync",
    "rt-macros",
    "rt-codec",
    "rt-stream",
    "rt-sim",
];

/// Feature sets checked besides each crate's none and default: the
/// schedulers apart, and the facade as users pick it.
const FEATURE_SETS: &[(&str, &str)] = &[
    ("rt-core", "rt"),
    ("rt", "rt-multi-thread"),
    ("rt", "macros"),
    ("rt", "macros,rt-multi-thread"),
    ("rt", "sync"),
    ("rt", "time,test-util"),
    ("rt", "net,codec"),
    ("rt", "fs,process,signal"),
    ("rt-io", "uring"),
    ("rt", "io-uring"),
    ("rt", "sim"),
];

/// Runs every check, stopping at the first failure.
pub fn features() -> Result<(), String> {
    for krate in AGNOSTIC_CRATES {
        check_tree(krate)?;
    }
    for krate in LIBRARY_CRATES {
        check(&["-p", krate, "--no-default-features"])?;
        check(&["-p", krate])?;
    }
    for (krate, features) in FEATURE_SETS {
        check(&["-p", krate, "--no-default-features", "--features", features])?;
    }
    Ok(())
}

/// `cargo check ARGS`, failing on a warning as well as on an error: code
/// that is dead or unused without some feature shows up as a warning.
/// Cargo replays the warnings of a cached build and caps those of
/// dependencies, so every warning seen here is the workspace's own.
fn check(args: &[&str]) -> Result<(), String> {
    let args = [&["check"], args].concat();
    let output = run_cargo(&args)?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    eprint!("{stderr}");
    let warned = stderr.lines().any(|l| l.starts_with("warning"));
    if !output.status.success() || warned {
        return Err(format!(
            "`cargo {}` reported errors or warnings (above)",
            args.join(" ")
        ));
    }
    Ok(())
}

/// Runs `cargo ARGS` from the workspace root and collects its output.
fn run_cargo(args: &[&str]) -> Result<Output, String> {
    println!("xtask: cargo {}", args.join(" "));
    let started = Instant::now();
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(cargo)
        .args(args)
        .current_dir(workspace_root())
        .output()
        .map_err(|e| format!("could not start cargo: {e}"))?;
    println!("xtask: ... {:.1?}", started.elapsed());
    Ok(output)
}

/// Fails, naming the offender and the reason, if `krate`'s normal
/// dependency tree holds a forbidden crate or rt-core with its runtime.
fn check_tree(krate: &str) -> Result<(), String> {
    let args = [
        "tree", "-p", krate, "-e", "normal", "--prefix", "none", "-f", "{p}|{f}",
    ];
    let output = run_cargo(&args)?;
    if !output.status.success() {
        return Err(format!(
            "`cargo {}` failed ({}): {}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let tree = String::from_utf8_lossy(&output.stdout);
    let problems = tree_problems(&tree);
    if problems.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{krate} with its default features must not depend on the runtime:\n  {}",
        problems.join("\n  ")
    ))
}

/// What is wrong in a tree printed with `--prefix none -f '{p}|{f}'`: one
/// line per package, `NAME VERSION [(SOURCE)]|FEATURE,FEATURE`.
fn tree_problems(tree: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for line in tree.lines() {
        let (package, features) = line.split_once('|').unwrap_or((line, ""));
        let name = package.split_whitespace().next().unwrap_or_default();
        if let Some((_, why)) = FORBIDDEN.iter().find(|(forbidden, _)| *forbidden == name) {
            problems.push(format!("{package} is in the tree: {why}"));
        }
        if name == "rt-core" && features.split(',').any(|f| f.trim() == "rt") {
            problems.push(format!(
                "{package} is built with its `rt` feature: the schedulers would be \
                 compiled; depend on rt-core with `default-features = false`"
            ));
        }
    }
    problems.sort();
    problems.dedup();
    problems
}

#[cfg(test)]
mod tests {
    use super::tree_problems;

    #[test]
    fn a_clean_tree_passes() {
        let tree = "rt-sync v0.1.0 (/w/rt-sync)|default,time\n\
                    rt-core v0.1.0 (/w/rt-core)|\n\
                    rt-time v0.1.0 (/w/rt-time)|\n";
        assert!(tree_problems(tree).is_empty());
    }

    #[test]
    fn forbidden_crates_and_the_runtime_feature_are_named() {
        let tree = "rt-codec v0.1.0 (/w/rt-codec)|\n\
                    mio v1.2.5|default,net,os-poll\n\
                    rt-core v0.1.0 (/w/rt-core)|default,rt,rt-multi-thread\n\
                    socket2 v0.6.1|all\n";
        let problems = tree_problems(tree);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems.iter().any(|p| p.starts_with("mio ")));
        assert!(problems.iter().any(|p| p.starts_with("socket2 ")));
        assert!(problems.iter().any(|p| p.contains("`rt` feature")));
    }
}
