//! An `#[rt::test]` that runs past its deadline (`deadline_secs`, or
//! `RT_TEST_DEADLINE`) prints its name and its runtime's task dump, and
//! aborts the process instead of hanging. The hanging tests run in child
//! processes of this test binary. (That a test with neither is not
//! watched is a unit test of the watchdog.)

#![cfg(feature = "macros")]

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// Hangs on purpose, with a named task pending beside it. Run only as a
/// child process by the tests below.
#[rt::test]
#[ignore = "hangs on purpose; driven by a_hanging_test_is_named_dumped_and_aborted"]
async fn hanging_probe() {
    hang_beside_a_named_task().await;
}

/// The same on the multi-thread runtime.
#[rt::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "hangs on purpose; driven by a_hanging_multi_thread_test_is_named_dumped_and_aborted"]
async fn hanging_probe_multi_thread() {
    hang_beside_a_named_task().await;
}

/// Hangs on purpose under a deadline of its own.
#[rt::test(deadline_secs = 1)]
#[ignore = "hangs on purpose; driven by a_test_s_own_deadline_needs_no_environment"]
async fn hanging_probe_with_a_deadline() {
    hang_beside_a_named_task().await;
}

/// Waits on a `Notify` nobody notifies: where the dump's trace must
/// show the stuck task.
async fn wait_forever() {
    rt::sync::Notify::new().notified().await;
}

/// Spawns a task named `stuck-worker` that never finishes, and never
/// finishes either.
async fn hang_beside_a_named_task() {
    rt::task::Builder::new()
        .name("stuck-worker")
        .spawn(wait_forever())
        .unwrap();
    std::future::pending::<()>().await;
}

/// How long the child may take, far above its one-second deadline: past
/// it the watchdog has failed, and the child is killed.
const BOUND: Duration = Duration::from_secs(30);

/// Runs `probe` in a child with `RT_TEST_DEADLINE` set to `environment`,
/// or unset; returns whether it succeeded, its stderr, and how long it
/// took.
fn run_probe(probe: &str, environment: Option<&str>) -> (bool, String, Duration) {
    let started = Instant::now();
    let mut command = Command::new(std::env::current_exe().unwrap());
    command.args(["--ignored", "--exact", probe, "--test-threads=1"]);
    match environment {
        Some(seconds) => command.env("RT_TEST_DEADLINE", seconds),
        None => command.env_remove("RT_TEST_DEADLINE"),
    };
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        let _ = sender.send(text);
    });
    let stderr = match receiver.recv_timeout(BOUND) {
        Ok(text) => text,
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`{probe}` still ran after {BOUND:?}: the watchdog did not fire");
        }
    };
    let status = child.wait().unwrap();
    (status.success(), stderr, started.elapsed())
}

/// Runs the hanging `probe` with `RT_TEST_DEADLINE` set to `environment`
/// and checks that its one-second deadline (from `source`) fired.
fn check_probe(probe: &str, environment: Option<&str>, source: &str) {
    let (success, stderr, took) = run_probe(probe, environment);
    assert!(!success, "a hanging test fails the process:\n{stderr}");
    assert!(
        stderr.contains(&format!(
            "rt: test `{probe}` ran past its deadline of 1 s ({source})"
        )),
        "the test is named:\n{stderr}"
    );
    assert!(
        stderr.contains("1 live tasks") && stderr.contains("\"stuck-worker\""),
        "the runtime's task dump is printed:\n{stderr}"
    );
    assert!(
        stderr.contains("rt_sync::notify::Notified")
            && stderr.contains("macros_test_deadline::wait_forever"),
        "the dump traces the stuck task:\n{stderr}"
    );
    assert!(
        stderr.contains(&format!("aborting the test process: `{probe}` hung")),
        "the end is said:\n{stderr}"
    );
    assert!(took < BOUND, "took {took:?}");
}

#[test]
fn a_hanging_test_is_named_dumped_and_aborted() {
    check_probe("hanging_probe", Some("1"), "RT_TEST_DEADLINE");
}

#[test]
fn a_hanging_multi_thread_test_is_named_dumped_and_aborted() {
    check_probe("hanging_probe_multi_thread", Some("1"), "RT_TEST_DEADLINE");
}

#[test]
fn a_test_s_own_deadline_needs_no_environment() {
    check_probe("hanging_probe_with_a_deadline", None, "deadline_secs");
}

#[test]
fn a_test_s_own_deadline_wins_over_the_environment() {
    check_probe(
        "hanging_probe_with_a_deadline",
        Some("3600"),
        "deadline_secs",
    );
}
