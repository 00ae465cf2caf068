//! `cargo xtask smoke`: every example program once, and every benchmark in
//! its `--smoke` mode (a tiny run of each workload on both runtimes, no
//! timings), so that CI notices a benchmark that no longer runs.

use std::path::Path;

use crate::cargo::{cargo, workspace_root};

/// Runs the smoke checks. Examples take `--smoke` (a short end-to-end run
/// against their own clients that exits by itself); benchmark targets
/// (`examples/benches/NAME.rs` or `examples/benches/NAME/main.rs`) take
/// `--smoke`. Both are built in release, as the real benchmark is.
pub fn smoke() -> Result<(), String> {
    let examples = workspace_root().join("examples");
    for name in targets(&examples.join("examples")) {
        cargo(
            &[
                "run",
                "--release",
                "-p",
                "examples",
                "--example",
                &name,
                "--",
                "--smoke",
            ],
            &[],
        )?;
    }
    for name in targets(&examples.join("benches")) {
        cargo(
            &["bench", "-p", "examples", "--bench", &name, "--", "--smoke"],
            &[],
        )?;
    }
    Ok(())
}

/// The target names in `dir`: `NAME.rs` files and `NAME/main.rs` folders,
/// sorted.
pub fn targets(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let path = e.path();
            let name = e.file_name().into_string().ok()?;
            if path.is_dir() {
                path.join("main.rs").is_file().then_some(name)
            } else {
                name.strip_suffix(".rs").map(str::to_string)
            }
        })
        .collect();
    names.sort();
    names
}
