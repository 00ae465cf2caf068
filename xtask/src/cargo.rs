//! Running cargo from the workspace root, with a line before and after each
//! command so that a long CI log shows where time went.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Runs `cargo ARGS` with extra environment variables from the workspace
/// root; an error names the command when it fails.
pub fn cargo(args: &[&str], envs: &[(&str, &str)]) -> Result<(), String> {
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

/// The workspace root: the directory above this crate.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}
