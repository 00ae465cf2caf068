//! Resident memory with a million sleeping tasks, rt against tokio.
//!
//! Heap counters (`idle_task_bytes`, `sleeping_task_bytes` in the runtime
//! suite) see what the allocator hands out; the resident set also shows
//! what that costs in pages: allocator slack, fragmentation, thread stacks.
//! RSS belongs to a process, so each runtime is measured in a child
//! process of its own (this binary, started with `--child`): it builds the
//! runtime, reads its RSS, spawns the tasks, waits until every one is
//! parked in a one-hour `sleep`, and reads the RSS again. The parent
//! prints both runtimes' figures and their ratio.
//!
//! `cargo bench -p examples --bench rss_sleepers [-- --tasks N] [--smoke]`

// Compiling the workload twice, once per runtime, is the point of `on_rt`
// and `on_tokio`.
#![allow(clippy::duplicate_mod)]

use std::process::{Command, ExitCode};

mod on_rt;
mod on_tokio;

/// Tasks in a measured run.
const DEFAULT_TASKS: usize = 1_000_000;

/// Tasks in a smoke run.
const SMOKE_TASKS: usize = 10_000;

/// The flavors measured: `(name, worker threads)`, 0 meaning the
/// current-thread scheduler.
const FLAVORS: [(&str, usize); 2] = [("current", 0), ("multi-2", 2)];

/// One child's figures, in kibibytes as `/proc/self/status` gives them.
struct Rss {
    before_kib: u64,
    after_kib: u64,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = args.iter().position(|a| a == "--child") {
        return child(&args[at + 1..]);
    }
    let mut tasks = DEFAULT_TASKS;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--bench" => {}
            "--smoke" => tasks = SMOKE_TASKS,
            "--tasks" => match iter.next().and_then(|v| v.parse().ok()) {
                Some(n) if n > 0 && n <= 10_000_000 => tasks = n,
                _ => return usage("--tasks takes a whole number from 1 to 10000000"),
            },
            other => return usage(&format!("unknown argument {other:?}")),
        }
    }
    println!("RSS with {tasks} tasks each parked in a one-hour sleep:");
    for (flavor, workers) in FLAVORS {
        let mut figures = Vec::new();
        for side in ["rt", "tokio"] {
            match measure(side, workers, tasks) {
                Ok(rss) => figures.push(rss),
                Err(err) => {
                    eprintln!("error: {side} on {flavor}: {err}");
                    return ExitCode::FAILURE;
                }
            }
        }
        let growth = |r: &Rss| r.after_kib.saturating_sub(r.before_kib);
        let (rt, tokio) = (&figures[0], &figures[1]);
        for (side, rss) in [("rt", rt), ("tokio", tokio)] {
            println!(
                "  {flavor:<8} {side:<6} RSS {:>8} KiB (runtime alone {:>6} KiB, growth {:>8} KiB = {:.0} B/task)",
                rss.after_kib,
                rss.before_kib,
                growth(rss),
                growth(rss) as f64 * 1024.0 / tasks as f64
            );
        }
        if growth(tokio) > 0 {
            println!(
                "  {flavor:<8} growth rt/tokio {:.2}",
                growth(rt) as f64 / growth(tokio) as f64
            );
        }
    }
    ExitCode::SUCCESS
}

fn usage(err: &str) -> ExitCode {
    eprintln!("error: {err}\nusage: rss_sleepers [--smoke] [--tasks N]");
    ExitCode::from(2)
}

/// Runs one child and parses its `before after` line.
fn measure(side: &str, workers: usize, tasks: usize) -> Result<Rss, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let output = Command::new(exe)
        .args(["--child", side, &workers.to_string(), &tasks.to_string()])
        .output()
        .map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!(
            "child failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut numbers = stdout.split_whitespace().map(str::parse::<u64>);
    match (numbers.next(), numbers.next()) {
        (Some(Ok(before_kib)), Some(Ok(after_kib))) => Ok(Rss {
            before_kib,
            after_kib,
        }),
        _ => Err(format!("unexpected child output {stdout:?}")),
    }
}

/// The child: `SIDE WORKERS TASKS`; prints `before after` in KiB and exits
/// without tearing the million tasks down.
fn child(args: &[String]) -> ExitCode {
    let parsed = match args {
        [side, workers, tasks] => workers
            .parse::<usize>()
            .ok()
            .zip(tasks.parse::<usize>().ok())
            .map(|(w, t)| (side.as_str(), w, t)),
        _ => None,
    };
    let (before, after) = match parsed {
        Some(("rt", workers, tasks)) => on_rt::sleepers::hold(workers, tasks, rss_kib),
        Some(("tokio", workers, tasks)) => on_tokio::sleepers::hold(workers, tasks, rss_kib),
        _ => return usage("--child takes rt|tokio WORKERS TASKS"),
    };
    println!("{before} {after}");
    // Dropping a million tasks takes longer than measuring them and is
    // not what is measured.
    std::process::exit(0)
}

/// The process's resident set, in KiB (0 where `/proc` is missing).
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}
