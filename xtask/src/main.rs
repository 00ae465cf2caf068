//! Project automation, run as `cargo xtask <command>`.
//!
//! * `ci`: everything CI checks, in the order that fails fastest: format,
//!   clippy, the test suite with doc tests, the loom models, and a smoke run
//!   of every example and benchmark.
//! * `loom [CRATE]`: only the loom models (all crates that have them, or one).
//! * `smoke`: only the example and benchmark smoke runs.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{exit, Command};
use std::time::Instant;

/// Crates whose `tests/loom_*.rs` files hold loom models.
const LOOM_CRATES: &[&str] = &["rt-core", "rt-sync", "rt-time", "rt-io"];

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("loom") => loom(args.get(1).map(String::as_str)),
        Some("smoke") => smoke(),
        _ => {
            eprintln!("usage: cargo xtask <ci | loom [CRATE] | smoke>");
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
            "--",
            "-D",
            "warnings",
        ],
        &[],
    )?;
    cargo(&["test", "--workspace", "--no-fail-fast"], &[])?;
    loom(None)?;
    smoke()?;
    println!("xtask ci: all checks passed in {:.0?}", started.elapsed());
    Ok(())
}

/// Runs the loom models with bounds that keep the whole CI under its budget
/// on two cores. Models live in `tests/loom_*.rs`; each is compiled with
/// `--cfg loom` into a target directory of its own so that the normal build
/// is not invalidated.
fn loom(only: Option<&str>) -> Result<(), String> {
    let root = workspace_root();
    let target = root.join("target").join("loom");
    let target = target.to_str().ok_or("non-UTF-8 target path")?;
    for krate in LOOM_CRATES {
        if only.is_some_and(|o| o != *krate) {
            continue;
        }
        let dir = root.join("crates").join(krate);
        let tests = loom_tests(&dir.join("tests"));
        let envs = [
            ("RUSTFLAGS", "--cfg loom"),
            ("LOOM_MAX_PREEMPTIONS", "2"),
            ("LOOM_MAX_BRANCHES", "10000"),
        ];
        let base = ["test", "--release", "-p", krate, "--target-dir", target];
        if !tests.is_empty() {
            let mut args = base.to_vec();
            for t in &tests {
                args.push("--test");
                args.push(t);
            }
            args.extend(["--", "--test-threads=2"]);
            cargo(&args, &envs)?;
        }
        // Models that need crate internals live in `loom_models` modules.
        if has_inline_models(&dir.join("src")) {
            let mut args = base.to_vec();
            args.extend(["--lib", "--", "loom_models", "--test-threads=2"]);
            cargo(&args, &envs)?;
        }
    }
    Ok(())
}

/// Whether any source file under `dir` is a `loom_models.rs` module.
fn has_inline_models(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.filter_map(|e| e.ok()).any(|e| {
        let path = e.path();
        if path.is_dir() {
            has_inline_models(&path)
        } else {
            path.file_name().is_some_and(|n| n == "loom_models.rs")
        }
    })
}

fn loom_tests(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.starts_with("loom_") && n.ends_with(".rs"))
        .map(|n| n.trim_end_matches(".rs").to_string())
        .collect();
    names.sort();
    names
}

/// Runs every example once in its smoke configuration: examples exit by
/// themselves, benchmarks take `--smoke` and run a few iterations.
fn smoke() -> Result<(), String> {
    let root = workspace_root();
    for (dir, extra) in [("examples", &[][..]), ("benches", &["--smoke"][..])] {
        let path = root.join("examples").join(dir);
        let Ok(entries) = std::fs::read_dir(&path) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.ends_with(".rs"))
            .map(|n| n.trim_end_matches(".rs").to_string())
            .collect();
        names.sort();
        for name in names {
            let mut args = vec!["run", "--release", "-p", "examples"];
            args.push(if dir == "examples" {
                "--example"
            } else {
                "--bin"
            });
            args.push(&name);
            if !extra.is_empty() {
                args.push("--");
                args.extend(extra);
            }
            cargo(&args, &[])?;
        }
    }
    Ok(())
}

fn cargo(args: &[&str], envs: &[(&str, &str)]) -> Result<(), String> {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    println!("xtask: cargo {}", args.join(" "));
    let started = Instant::now();
    let status = Command::new(cargo)
        .args(args)
        .envs(envs.iter().copied())
        .current_dir(workspace_root())
        .status()
        .map_err(|e| format!("could not start cargo: {e}"))?;
    println!("xtask: ... {:.1?}", started.elapsed());
    if status.success() {
        Ok(())
    } else {
        Err(format!("`cargo {}` failed ({status})", args.join(" ")))
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}
