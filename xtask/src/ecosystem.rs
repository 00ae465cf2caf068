//! `cargo xtask ecosystem [--bench [--rounds N]] [--control] [--rt-only]`: the
//! ecosystem fixture (compat/ecosystem: axum, hyper, hyper-util, reqwest,
//! tower, tokio-util, tokio-stream) built in release twice, on crates.io's
//! tokio and on rt patched in under tokio's name, and its smoke run on
//! both. The tokio run checks the fixture itself; the rt run checks rt.
//! The rt build also has the fixture's `sim` feature, and its run adds
//! `ecosystem sim`: the axum application and a reqwest client as hosts of a
//! deterministic simulation (a partition, a timeout, a retry), twice with
//! the same seed.
//! `--rt-only` skips the tokio build and run. `--bench` then times the
//! same workloads on both (in-process workloads, axum under wrk, a RESP
//! server under redis-benchmark) and writes `target/bench/ecosystem.md`.
//! `--control` does the same with tokio's build in rt's place as well, so
//! that its ratios show what the machine's noise makes of two equal
//! runtimes (`target/bench/ecosystem-control.md`).
//!
//! The patch is passed on the command line (`--config
//! patch.crates-io.tokio.path=...`), so the fixture's manifest and lock
//! stay those of a plain tokio application; each runtime builds into a
//! target directory of its own under `target/ecosystem/`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::cargo::{cargo, workspace_root};
use crate::deadline::run_bounded;

mod bench;
mod redis;
mod server;
mod wrk;

/// The bound on one smoke run; the fixture's own watchdog fires first.
const SMOKE_LIMIT: Duration = Duration::from_secs(120);

/// One of the two runtimes the fixture builds on, or the stand-in of a
/// control run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Runtime {
    /// crates.io's tokio, as the fixture's lock names it.
    Tokio,
    /// rt, patched in through compat/tokio.
    Rt,
    /// tokio's build again, in rt's place: the challenger of a control
    /// run, whose ratios against tokio are the machine's noise.
    TokioAgain,
}

impl Runtime {
    /// The order in which round `round` (from 1) runs tokio and
    /// `challenger` (rt, or tokio again in a control run): tokio first in
    /// odd rounds and the challenger first in even ones, so that whatever
    /// favours the first or the second run of a pair (sockets left in
    /// TIME_WAIT by the one before, caches, the machine's load rising or
    /// falling) falls on each alike over an even number of rounds.
    pub fn order(round: usize, challenger: Runtime) -> [Runtime; 2] {
        if round % 2 == 1 {
            [Runtime::Tokio, challenger]
        } else {
            [challenger, Runtime::Tokio]
        }
    }

    /// Its name in paths and reports.
    pub fn name(self) -> &'static str {
        match self {
            Runtime::Tokio => "tokio",
            Runtime::Rt => "rt",
            Runtime::TokioAgain => "tokio-b",
        }
    }

    /// Where its build lives; tokio's for the control stand-in, which is
    /// that very build.
    fn target_dir(self) -> PathBuf {
        let built = match self {
            Runtime::TokioAgain => Runtime::Tokio,
            built => built,
        };
        workspace_root()
            .join("target")
            .join("ecosystem")
            .join(built.name())
    }

    /// The fixture's binary built on this runtime.
    pub fn binary(self) -> PathBuf {
        self.target_dir().join("release").join("ecosystem")
    }
}

/// The fixture's directory.
fn fixture() -> PathBuf {
    workspace_root().join("compat").join("ecosystem")
}

/// Runs the command; `args` are those after `ecosystem`.
pub fn ecosystem(args: &[String]) -> Result<(), String> {
    let mut bench_rounds = None;
    let mut control = false;
    let mut runtimes = vec![Runtime::Tokio, Runtime::Rt];
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--bench" => bench_rounds = Some(bench_rounds.unwrap_or(6)),
            "--rounds" => {
                let n = rest
                    .next()
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|&n| n > 0);
                bench_rounds = Some(n.ok_or("--rounds takes a positive number")?);
            }
            "--control" => {
                control = true;
                bench_rounds = Some(bench_rounds.unwrap_or(6));
            }
            "--rt-only" => runtimes = vec![Runtime::Rt],
            other => {
                let known = "--bench, --rounds N, --control, --rt-only";
                return Err(format!("ecosystem: unknown argument `{other}` ({known})"));
            }
        }
    }
    if bench_rounds.is_some() && runtimes.len() < 2 {
        return Err("ecosystem: --bench compares rt with tokio; drop --rt-only".to_string());
    }
    let challenger = if control {
        // Only tokio's build takes part.
        runtimes = vec![Runtime::Tokio];
        Runtime::TokioAgain
    } else {
        Runtime::Rt
    };
    let started = Instant::now();
    for &runtime in &runtimes {
        build(runtime)?;
    }
    println!("xtask ecosystem: builds done in {:.0?}", started.elapsed());
    let mut failed = Vec::new();
    for &runtime in &runtimes {
        if let Err(e) = smoke(runtime) {
            failed.push(e);
        }
    }
    if !failed.is_empty() {
        return Err(failed.join("\n"));
    }
    if let Some(rounds) = bench_rounds {
        bench::bench(rounds, challenger)?;
    }
    println!("xtask ecosystem: done in {:.0?}", started.elapsed());
    Ok(())
}

/// Builds the fixture in release on `runtime`.
///
/// Cargo keeps a locked version over a patch, so the rt build resolves
/// against a lock of its own, `Cargo.rt.lock` (tokio pinned to the patched
/// crate, and rt's own dependencies): it is put in the place of Cargo.lock
/// for the build, the result saved back to it, and the committed Cargo.lock
/// restored, whether the build passed or not.
fn build(runtime: Runtime) -> Result<(), String> {
    let manifest = fixture().join("Cargo.toml");
    let manifest = path_str(&manifest)?;
    let target_dir = runtime.target_dir();
    let envs = [("CARGO_TARGET_DIR", path_str(&target_dir)?)];
    let mut args = vec!["build", "--release", "--manifest-path", manifest];
    if runtime == Runtime::Tokio {
        args.push("--locked");
        return cargo(&args, &envs);
    }
    let compat = workspace_root().join("compat").join("tokio");
    let patch = format!("patch.crates-io.tokio.path={:?}", path_str(&compat)?);
    let lock = fixture().join("Cargo.lock");
    let rt_lock = fixture().join("Cargo.rt.lock");
    let committed = read(&lock)?;
    let built = (|| {
        match std::fs::read(&rt_lock) {
            Ok(bytes) => write(&lock, &bytes)?,
            // No lock of rt's own yet: move tokio onto the patch.
            Err(_) => cargo(
                &[
                    "update",
                    "-p",
                    "tokio",
                    "--manifest-path",
                    manifest,
                    "--config",
                    &patch,
                ],
                &envs,
            )?,
        }
        args.extend(["--features", "sim", "--config", &patch]);
        let built = cargo(&args, &envs);
        write(&rt_lock, &read(&lock)?)?;
        built
    })();
    write(&lock, &committed)?;
    built
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Runs the fixture's smoke checks on `runtime`, and on rt the
/// simulation check after them.
fn smoke(runtime: Runtime) -> Result<(), String> {
    check(runtime, "smoke")?;
    if runtime == Runtime::Rt {
        check(runtime, "sim")?;
    }
    Ok(())
}

/// Runs `ecosystem COMMAND` on `runtime`; it passes when it exits 0.
fn check(runtime: Runtime, command: &str) -> Result<(), String> {
    println!("xtask: ecosystem {command} on {}", runtime.name());
    let finished = run_bounded(Command::new(runtime.binary()).arg(command), SMOKE_LIMIT)?;
    println!("xtask: ... {:.1?}", finished.elapsed);
    match finished.status {
        Some(status) if status.success() => Ok(()),
        Some(status) => Err(format!(
            "the ecosystem {command} run on {} failed ({status}); the lines above say what was wrong",
            runtime.name()
        )),
        None => Err(format!(
            "the ecosystem {command} run on {} was still running after {SMOKE_LIMIT:?} and was killed",
            runtime.name()
        )),
    }
}

/// A path as UTF-8, as cargo's arguments need it.
fn path_str(path: &Path) -> Result<&str, String> {
    path.to_str()
        .ok_or_else(|| format!("non-UTF-8 path {}", path.display()))
}
