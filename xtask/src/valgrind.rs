//! `cargo xtask valgrind [--quick]`: the test binaries of rt-core, rt-io,
//! rt-sync, rt-time and the facade under valgrind's memcheck, which must
//! find no error (invalid reads and writes, use of freed or uninitialised
//! memory, bad frees) in any of them. Prints a table of binaries, tests
//! run, errors and time; each binary's valgrind log is kept under
//! `target/valgrind/`.
//!
//! `--quick` runs the binaries in [`QUICK`], chosen to cover the unsafe
//! protocols (task cells, wakers, the reactor, the timer wheel, mpsc,
//! oneshot, the semaphore) in about five minutes on two cores; CI runs it.
//! Without it every binary runs, which takes much longer.
//!
//! Leaks are not errors here (`--errors-for-leak-kinds=none`; valgrind's
//! leak summary stays in the log): a test process ends with threads still
//! parked (the blocking pool's, the test watchdog's), with statics and
//! thread-locals of the main thread that are never dropped, and libtest
//! itself leaves memory behind, so "possibly lost" and "still reachable"
//! blocks are expected at exit. rt's own leaks are tested where they can
//! be told apart: rt-sync's `no_leak` test and rt-core's allocation
//! counting tests.

use std::path::Path;
use std::time::Duration;

use crate::cargo::workspace_root;
use crate::deadline::{all_passed, binary_deadline, run_bounded};
use crate::libtest::test_counts;
use crate::test_binaries::{self, TestBinary};

/// The packages whose test binaries run under valgrind.
const PACKAGES: &[&str] = &["rt-core", "rt-io", "rt-sync", "rt-time", "rt"];

/// The binaries `--quick` runs, and what each covers.
pub const QUICK: &[(&str, &str)] = &[
    (
        "rt-core/spawn_join",
        "task cells: spawn, join, abort, output hand-off",
    ),
    (
        "rt-core/block_on_wakeups",
        "wakers: clone, wake, drop across threads",
    ),
    (
        "rt-io/net_tcp",
        "the reactor: registration, readiness, deregistration",
    ),
    (
        "rt-io/net_stale_token",
        "the reactor: an event under a released registration's token reaches no freed state",
    ),
    (
        "rt-time/sleep",
        "the timer wheel: insert, fire, cancel, reset",
    ),
    (
        "rt-sync/mpsc",
        "mpsc: the block list, senders, receiver, close",
    ),
    (
        "rt-sync/oneshot",
        "oneshot: the value cell and its two wakers",
    ),
    (
        "rt-sync/semaphore",
        "the semaphore: the waiter list and permit hand-off",
    ),
];

/// What cannot run under valgrind, by binary and, for a single test, its
/// exact name (`None`: the whole binary); with the reason.
pub const SKIPPED: &[(&str, Option<&str>, &str)] = &[
    (
        "rt-core/alloc_multi_thread",
        None,
        "`harness = false`: counts allocations with its own global allocator \
         and takes no libtest arguments",
    ),
    (
        "rt-io/net_tcp",
        Some("sixty_four_mib_through_a_slow_reader"),
        "moves 64 MiB through a socket 4 KiB at a time: far past any bound \
         under valgrind, and its code paths are those of the smaller transfers",
    ),
    (
        "rt-io/process",
        Some("a_missing_program_is_not_found"),
        "valgrind runs glibc's posix_spawn child (a CLONE_VM|CLONE_VFORK \
         clone) as a plain fork, so the exec error, which glibc hands back \
         through the shared memory, is lost and spawning a missing program \
         succeeds",
    ),
    (
        "rt/macros_ui",
        None,
        "compiles the macros' error cases with cargo; no rt code runs",
    ),
];

/// The bound on one binary: valgrind runs code 20 to 50 times slower.
const QUICK_DEADLINE: Duration = Duration::from_secs(300);
const FULL_DEADLINE: Duration = Duration::from_secs(1800);

/// valgrind's exit status when it found errors.
const ERROR_EXIT: i32 = 99;

/// One binary's line in the table.
struct Row {
    label: String,
    tests: usize,
    errors: Option<usize>,
    elapsed: Duration,
    verdict: String,
}

/// Runs the command; `args` is empty or `--quick`.
pub fn valgrind(args: &[String]) -> Result<(), String> {
    let quick = match args {
        [] => false,
        [flag] if flag == "--quick" => true,
        _ => return Err("usage: cargo xtask valgrind [--quick]".to_string()),
    };
    check_installed()?;
    let limit = binary_deadline(if quick { QUICK_DEADLINE } else { FULL_DEADLINE })?;
    // The same selection as CI's test step, so that CI builds nothing new.
    let selection = ["--workspace", "--all-features"];
    let binaries: Vec<TestBinary> = test_binaries::build(&selection, &[])?
        .into_iter()
        .filter(|b| PACKAGES.contains(&b.package.as_str()))
        .filter(|b| !b.target.starts_with("loom_"))
        .filter(|b| !quick || QUICK.iter().any(|(label, _)| *label == b.label()))
        .collect();
    if quick && binaries.len() != QUICK.len() {
        return Err(format!(
            "--quick names {} binaries but {} were built; a name in QUICK is stale",
            QUICK.len(),
            binaries.len()
        ));
    }
    let logs = workspace_root().join("target").join("valgrind");
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let mut rows = Vec::new();
    for binary in &binaries {
        rows.push(run_one(binary, &logs, limit)?);
    }
    print_table(&rows);
    let failed: Vec<String> = rows
        .iter()
        .filter(|r| r.verdict != "ok" && r.verdict != "skipped")
        .map(|r| format!("{}: {}", r.label, r.verdict))
        .collect();
    let note = format!(" under valgrind (logs in {})", logs.display());
    all_passed(&failed, rows.len(), &note)
}

fn check_installed() -> Result<(), String> {
    match std::process::Command::new("valgrind")
        .arg("--version")
        .output()
    {
        Ok(out) if out.status.success() => Ok(()),
        _ => Err(
            "valgrind is not installed: install Debian's `valgrind` package \
                  (`apt-get install valgrind`; .ci/run does so on CI)"
                .to_string(),
        ),
    }
}

fn run_one(binary: &TestBinary, logs: &Path, limit: Duration) -> Result<Row, String> {
    let label = binary.label();
    let skips: Vec<_> = SKIPPED.iter().filter(|(b, ..)| *b == label).collect();
    if let Some((_, None, reason)) = skips.iter().find(|(_, test, _)| test.is_none()) {
        println!("xtask: valgrind: skipping {label}: {reason}");
        return Ok(Row {
            label,
            tests: 0,
            errors: None,
            elapsed: Duration::ZERO,
            verdict: "skipped".to_string(),
        });
    }
    let log = logs.join(format!("{}-{}.log", binary.package, binary.target));
    let wrapper = vec![
        "valgrind".to_string(),
        "--tool=memcheck".to_string(),
        format!("--error-exitcode={ERROR_EXIT}"),
        "--errors-for-leak-kinds=none".to_string(),
        "--leak-check=summary".to_string(),
        "--fair-sched=yes".to_string(),
        "--num-callers=40".to_string(),
        format!("--log-file={}", log.display()),
    ];
    let mut command = binary.command(&wrapper);
    for (_, test, _) in &skips {
        command.args(["--skip", test.unwrap_or_default()]);
    }
    if !skips.is_empty() {
        command.arg("--exact");
    }
    // The in-process deadline of each #[rt::test], well inside the
    // binary's own.
    command.env("RT_TEST_DEADLINE", (limit.as_secs() / 2).max(1).to_string());
    println!("xtask: valgrind {label}");
    let run = run_bounded(&mut command, limit)?;
    let log_text = std::fs::read_to_string(&log).unwrap_or_default();
    let errors = error_count(&log_text);
    let verdict = match (run.status, errors) {
        (None, _) => format!("killed after {} s", limit.as_secs()),
        (Some(_), Some(n)) if n > 0 => "memory errors".to_string(),
        (Some(status), _) if status.code() == Some(ERROR_EXIT) => "memory errors".to_string(),
        (Some(status), _) if !status.success() => format!("tests failed ({status})"),
        (Some(_), None) => "no valgrind summary".to_string(),
        (Some(_), Some(_)) => "ok".to_string(),
    };
    if verdict != "ok" {
        println!("xtask: valgrind {label}: {verdict}; log: {}", log.display());
    }
    Ok(Row {
        label,
        tests: tests_run(&run.stdout),
        errors,
        elapsed: run.elapsed,
        verdict,
    })
}

/// The count in valgrind's last `ERROR SUMMARY: N errors from M contexts`.
fn error_count(log: &str) -> Option<usize> {
    let rest = log.rsplit("ERROR SUMMARY: ").next()?;
    if rest.len() == log.len() {
        return None;
    }
    rest.split_whitespace().next()?.parse().ok()
}

/// Tests run (passed or failed) per libtest's `test result:` lines.
fn tests_run(stdout: &str) -> usize {
    let (passed, failed, _) = test_counts(stdout);
    passed + failed
}

fn print_table(rows: &[Row]) {
    let width = rows.iter().map(|r| r.label.len()).max().unwrap_or(6).max(6);
    println!();
    println!(
        "{:<width$}  {:>6}  {:>6}  {:>8}  result",
        "binary", "tests", "errors", "time"
    );
    for row in rows {
        let errors = row.errors.map_or("-".to_string(), |n| n.to_string());
        println!(
            "{:<width$}  {:>6}  {:>6}  {:>7.1}s  {}",
            row.label,
            row.tests,
            errors,
            row.elapsed.as_secs_f64(),
            row.verdict
        );
    }
    let ran = rows.iter().filter(|r| r.verdict != "skipped");
    let total: Duration = ran.clone().map(|r| r.elapsed).sum();
    println!(
        "{:<width$}  {:>6}  {:>6}  {:>7.1}s  {} binaries run",
        "total",
        ran.clone().map(|r| r.tests).sum::<usize>(),
        ran.clone().filter_map(|r| r.errors).sum::<usize>(),
        total.as_secs_f64(),
        ran.count()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_summary_is_read() {
        let log = "==1== ERROR SUMMARY: 0 errors from 0 contexts\n==1== ERROR SUMMARY: 3 errors from 2 contexts (suppressed: 0 from 0)\n";
        assert_eq!(error_count(log), Some(3));
        assert_eq!(error_count("no summary"), None);
    }

    #[test]
    fn tests_run_are_counted() {
        let out = "test result: ok. 12 passed; 1 failed; 2 ignored; 0 measured; 0 filtered out; finished in 1.00s\n";
        assert_eq!(tests_run(out), 13);
        assert_eq!(tests_run("running 0 tests\n"), 0);
    }
}
