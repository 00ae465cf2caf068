//! Running cargo from the workspace root, with a line before and after each
//! command so that a long CI log shows where time went.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The cargo that runs xtask (`$CARGO`), as a command to add arguments to.
pub fn cargo_command() -> Command {
    Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Runs `cargo ARGS` with extra environment variables from the workspace
/// root; an error names the command when it fails.
pub fn cargo(args: &[&str], envs: &[(&str, &str)]) -> Result<(), String> {
    cargo_in(&workspace_root(), args, envs)
}

/// [`cargo`], run in `dir`.
pub fn cargo_in(dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> Result<(), String> {
    println!("xtask: cargo {}", args.join(" "));
    let started = Instant::now();
    let status = cargo_command()
        .args(args)
        .envs(envs.iter().copied())
        .current_dir(dir)
        .status()
        .map_err(|e| format!("could not start cargo: {e}"))?;
    println!("xtask: ... {:.1?}", started.elapsed());
    if status.success() {
        Ok(())
    } else {
        Err(format!("`cargo {}` failed ({status})", args.join(" ")))
    }
}

/// The standard output of `cargo ARGS` run in `dir` (its standard error
/// passed through); an error names the command when it fails.
pub fn cargo_stdout(dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> Result<String, String> {
    let output = cargo_command()
        .args(args)
        .envs(envs.iter().copied())
        .current_dir(dir)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not start cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "`cargo {}` failed ({})",
            args.join(" "),
            output.status
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The workspace root: the directory above this crate.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}
