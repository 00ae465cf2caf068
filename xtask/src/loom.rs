//! `cargo xtask loom [CRATE]`: the loom models of every crate that has them,
//! or of one.

use std::path::Path;

use std::time::Duration;

use crate::cargo::workspace_root;
use crate::deadline::{binary_deadline, test_binaries};

/// The bound on each loom test binary (`RT_TEST_BINARY_DEADLINE` overrides
/// it): the models explore many interleavings, in release.
const LOOM_DEADLINE: Duration = Duration::from_secs(900);

/// Crates whose `tests/loom_*.rs` files hold loom models.
const LOOM_CRATES: &[&str] = &["rt-core", "rt-sync", "rt-time", "rt-io"];

/// Runs the loom models with bounds that keep the whole CI under its budget
/// on two cores. Models live in `tests/loom_*.rs`; each is compiled with
/// `--cfg loom` into a target directory of its own so that the normal build
/// is not invalidated. Each test binary runs under a deadline.
pub fn loom(only: Option<&str>) -> Result<(), String> {
    let limit = binary_deadline(LOOM_DEADLINE)?;
    let root = workspace_root();
    let target = root.join("target").join("loom");
    let target = target.to_str().ok_or("non-UTF-8 target path")?;
    for krate in LOOM_CRATES {
        if only.is_some_and(|o| o != *krate) {
            continue;
        }
        let dir = root.join(krate);
        let tests = loom_tests(&dir.join("tests"));
        let envs = [
            ("RUSTFLAGS", "--cfg loom"),
            ("LOOM_MAX_PREEMPTIONS", "2"),
            ("LOOM_MAX_BRANCHES", "10000"),
        ];
        let base = ["--release", "-p", krate, "--target-dir", target];
        if !tests.is_empty() {
            let mut args = base.to_vec();
            for t in &tests {
                args.push("--test");
                args.push(t);
            }
            test_binaries(&args, &["--test-threads=2"], &envs, limit)?;
        }
        // Models that need crate internals live in `loom_models` modules.
        if has_inline_models(&dir.join("src")) {
            let mut args = base.to_vec();
            args.push("--lib");
            test_binaries(&args, &["loom_models", "--test-threads=2"], &envs, limit)?;
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
