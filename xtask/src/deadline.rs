//! Test runs under a wall-clock deadline: xtask builds the test binaries
//! with `cargo test --no-run` and runs each one itself, killing it when it
//! runs past its bound. A hang in a plain `#[test]` then fails the step in
//! bounded time and names the binary; the binary is run once more with
//! `--test-threads=1`, where libtest announces each test before running
//! it, to name the test that hangs. `#[rt::test]`s get a deadline inside
//! the process, half the binary's (`RT_TEST_DEADLINE`, unless the
//! environment sets it), which prints the hung test's name and its
//! runtime's task dump before the binary would be killed.
//!
//! A binary's output is passed through as it comes and also kept, for the
//! callers that read libtest's summary.

use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::cargo::workspace_root;
use crate::test_binaries::{self, TestBinary};

/// The bound on each test binary of the workspace, unless
/// `RT_TEST_BINARY_DEADLINE` (seconds) says otherwise.
pub const BINARY_DEADLINE: Duration = Duration::from_secs(300);

/// The bound on all doc tests together (rustdoc compiles each one).
const DOC_TESTS_DEADLINE: Duration = Duration::from_secs(1800);

/// The variable that gives every `#[rt::test]` without a deadline of its
/// own one, in seconds.
const TEST_DEADLINE_VAR: &str = "RT_TEST_DEADLINE";

/// How often a run checks whether its process has ended.
const POLL: Duration = Duration::from_millis(50);

/// How long output is still collected after the process ended: a child
/// process it left behind may hold the pipe open.
const DRAIN: Duration = Duration::from_secs(1);

/// How a bounded run ended.
pub struct Finished {
    /// The exit status; `None` when the run was killed at its deadline.
    pub status: Option<ExitStatus>,
    /// Everything the process wrote to stdout.
    pub stdout: String,
    /// How long it ran.
    pub elapsed: Duration,
}

/// Runs `command` with stdout passed through and kept, killing it once it
/// has run for `limit`.
pub fn run_bounded(command: &mut Command, limit: Duration) -> Result<Finished, String> {
    let started = Instant::now();
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start {:?}: {e}", command.get_program()))?;
    let mut pipe = child.stdout.take().ok_or("stdout was not piped")?;
    let (chunks, received) = mpsc::channel::<Vec<u8>>();
    thread::spawn(move || {
        let mut buffer = [0u8; 8192];
        while let Ok(n @ 1..) = pipe.read(&mut buffer) {
            if chunks.send(buffer[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut stdout = Vec::new();
    let mut keep = |chunk: Vec<u8>| {
        let _ = std::io::stdout().write_all(&chunk);
        stdout.extend_from_slice(&chunk);
    };
    let status = loop {
        match received.recv_timeout(POLL) {
            Ok(chunk) => keep(chunk),
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {}
        }
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if started.elapsed() >= limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
    };
    while let Ok(chunk) = received.recv_timeout(DRAIN) {
        keep(chunk);
    }
    if !stdout.is_empty() && !stdout.ends_with(b"\n") {
        // A run cut off mid-line (`test NAME ... `): what follows starts
        // on a line of its own.
        println!();
    }
    let _ = std::io::stdout().flush();
    Ok(Finished {
        status,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        elapsed: started.elapsed(),
    })
}

/// The test libtest was running when its output stopped: with
/// `--test-threads=1` it writes `test NAME ... ` before each test and the
/// result after it.
pub fn running_test(stdout: &str) -> Option<&str> {
    let last = stdout.rsplit('\n').next()?;
    let name = last
        .strip_prefix("test ")?
        .trim_end()
        .strip_suffix(" ...")?;
    Some(name)
}

/// The deadline of each binary: `RT_TEST_BINARY_DEADLINE` seconds, or
/// `default`. A value that is not a number of seconds is an error.
pub fn binary_deadline(default: Duration) -> Result<Duration, String> {
    match std::env::var("RT_TEST_BINARY_DEADLINE") {
        Err(_) => Ok(default),
        Ok(text) => text
            .trim()
            .parse()
            .map(Duration::from_secs)
            .map_err(|_| format!("RT_TEST_BINARY_DEADLINE={text:?} is not a number of seconds")),
    }
}

/// Builds the test binaries `cargo test CARGO_ARGS` selects and runs each
/// with `test_args` under `limit`, going on past failures; the error lists
/// every binary that failed or hung. `envs` apply to the build and the runs.
pub fn test_binaries(
    cargo_args: &[&str],
    test_args: &[&str],
    envs: &[(&str, &str)],
    limit: Duration,
) -> Result<(), String> {
    let binaries = test_binaries::build(cargo_args, envs)?;
    let mut failed = Vec::new();
    for binary in &binaries {
        if let Err(failure) = run_one(binary, test_args, envs, limit) {
            failed.push(failure);
        }
    }
    all_passed(&failed, binaries.len(), "")
}

/// `Ok` when nothing failed; otherwise an error listing the `failed`
/// binaries out of `total`, with `note` after the count.
pub fn all_passed(failed: &[String], total: usize, note: &str) -> Result<(), String> {
    if failed.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} of {total} test binaries failed{note}:\n  {}",
        failed.len(),
        failed.join("\n  ")
    ))
}

fn run_one(
    binary: &TestBinary,
    test_args: &[&str],
    envs: &[(&str, &str)],
    limit: Duration,
) -> Result<(), String> {
    let label = binary.label();
    println!("xtask: {label} ({})", binary.path.display());
    let command = |args: &[&str]| {
        let mut command = binary.command(&[]);
        command.args(args).envs(envs.iter().copied());
        if std::env::var_os(TEST_DEADLINE_VAR).is_none() {
            let seconds = (limit.as_secs() / 2).max(1);
            command.env(TEST_DEADLINE_VAR, seconds.to_string());
        }
        command
    };
    let run = run_bounded(&mut command(test_args), limit)?;
    println!("xtask: ... {label}: {:.1?}", run.elapsed);
    match run.status {
        Some(status) if status.success() => Ok(()),
        Some(status) => Err(format!("{label}: {status}")),
        None => {
            println!(
                "xtask: {label} still ran after {} s and was killed; running it again with \
                 --test-threads=1 to name the test that hangs",
                limit.as_secs()
            );
            let rerun = run_bounded(&mut command(&one_thread(test_args)), limit)?;
            let hung = match (rerun.status, running_test(&rerun.stdout)) {
                (None, Some(test)) => format!("; it hangs in `{test}`"),
                (None, None) => "; the rerun hung too, in no test it announced".to_string(),
                (Some(status), _) => format!("; alone on one thread it ended ({status})"),
            };
            Err(format!(
                "{label}: killed at its deadline of {} s{hung}",
                limit.as_secs()
            ))
        }
    }
}

/// `test_args` with their thread count, if any, replaced by
/// `--test-threads=1`: libtest refuses an option given twice, and callers
/// pass their own count (`cargo xtask loom` runs two at a time).
fn one_thread<'a>(test_args: &[&'a str]) -> Vec<&'a str> {
    let mut args = Vec::with_capacity(test_args.len() + 1);
    let mut rest = test_args.iter();
    while let Some(&arg) = rest.next() {
        if arg == "--test-threads" {
            // The count follows as an argument of its own.
            rest.next();
        } else if !arg.starts_with("--test-threads=") {
            args.push(arg);
        }
    }
    args.push("--test-threads=1");
    args
}

/// CI's test step: every test binary of the workspace, all features on,
/// each under its deadline; then the doc tests, under one bound together.
pub fn workspace_tests() -> Result<(), String> {
    let limit = binary_deadline(BINARY_DEADLINE)?;
    let selection = ["--workspace", "--all-features"];
    let binaries = test_binaries(&selection, &[], &[], limit);
    let doc = cargo_bounded(
        &["test", "--workspace", "--all-features", "--doc"],
        DOC_TESTS_DEADLINE,
    );
    match (binaries, doc) {
        (Ok(()), Ok(())) => Ok(()),
        (Err(e), Ok(())) | (Ok(()), Err(e)) => Err(e),
        (Err(a), Err(b)) => Err(format!("{a}\n{b}")),
    }
}

/// Runs `cargo ARGS` from the workspace root, killed after `limit`.
fn cargo_bounded(args: &[&str], limit: Duration) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let shown = format!("cargo {}", args.join(" "));
    println!("xtask: {shown} (bounded at {} s)", limit.as_secs());
    let mut command = Command::new(cargo);
    command.args(args).current_dir(workspace_root());
    let run = run_bounded(&mut command, limit)?;
    println!("xtask: ... {:.1?}", run.elapsed);
    match run.status {
        Some(status) if status.success() => Ok(()),
        Some(status) => Err(format!("`{shown}` failed ({status})")),
        None => Err(format!(
            "`{shown}` still ran after {} s and was killed",
            limit.as_secs()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_running_at_a_hang_is_found() {
        let out = "running 3 tests\ntest a ... ok\ntest b::c ... ";
        assert_eq!(running_test(out), Some("b::c"));
        assert_eq!(running_test("test a ... ok\n"), None);
        assert_eq!(running_test("running 0 tests"), None);
    }

    #[test]
    fn the_rerun_runs_one_thread_whatever_the_first_run_asked() {
        assert_eq!(one_thread(&[]), ["--test-threads=1"]);
        assert_eq!(
            one_thread(&["loom_models", "--test-threads=2"]),
            ["loom_models", "--test-threads=1"]
        );
        assert_eq!(
            one_thread(&["--test-threads", "4", "--exact", "a"]),
            ["--exact", "a", "--test-threads=1"]
        );
    }

    fn shell(script: &str, limit: Duration) -> Finished {
        run_bounded(Command::new("sh").args(["-c", script]), limit).unwrap()
    }

    #[test]
    fn a_bounded_run_is_killed_at_its_deadline() {
        let run = shell("echo started; exec sleep 30", Duration::from_millis(300));
        assert!(run.status.is_none());
        assert_eq!(run.stdout, "started\n");
        assert!(run.elapsed < Duration::from_secs(10));
    }

    #[test]
    fn a_bounded_run_reports_its_status() {
        let run = shell("echo out; exit 3", Duration::from_secs(30));
        assert_eq!(run.status.and_then(|s| s.code()), Some(3));
        assert_eq!(run.stdout, "out\n");
    }
}
