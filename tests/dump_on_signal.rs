//! `Builder::dump_on_signal`: a process that receives the signal writes its
//! runtime's task dump, with traces, to stderr and keeps running. The
//! program receiving the signal runs as a child process of this test
//! binary, so that its stderr can be read.

#![cfg(all(unix, feature = "signal", feature = "sync"))]

use rt::runtime::{Builder, Handle};
use rt::signal::unix::SignalKind;
use rt::sync::Notify;
use rt::task::TaskState;
use std::process::{Command, Stdio};
use std::sync::Arc;

/// Waits on `notify`: the async fn the dump must name.
async fn parked_on(notify: Arc<Notify>) {
    notify.notified().await;
}

/// Whether the task named `name` is idle after at least `polls` polls.
fn idle_after(name: &str, polls: u64) -> bool {
    Handle::current()
        .dump()
        .tasks()
        .iter()
        .any(|t| t.name() == Some(name) && t.state() == TaskState::Idle && t.poll_count() >= polls)
}

/// Receives `SIGUSR1` while a task is parked, then lets the task finish.
/// Run only as a child process by the test below.
#[test]
#[ignore = "raises SIGUSR1; driven by a_signal_writes_the_dump_and_the_program_goes_on"]
fn signal_probe() {
    let rt = Builder::new_current_thread()
        .enable_all()
        .dump_on_signal(SignalKind::user_defined1())
        .build()
        .unwrap();
    let notify = Arc::new(Notify::new());
    let parked = rt::task::Builder::new()
        .name("parked")
        .spawn_on(parked_on(notify.clone()), rt.handle())
        .unwrap();
    rt.block_on(async {
        while !idle_after("parked", 1) || !idle_after("rt-dump-on-signal", 1) {
            rt::task::yield_now().await;
        }
        rt_test::raise_now(SignalKind::user_defined1());
        // The listener has written the dump once it is parked again.
        while !idle_after("rt-dump-on-signal", 2) {
            rt::task::yield_now().await;
        }
        notify.notify_one();
        parked.await.unwrap();
    });
}

#[test]
fn a_signal_writes_the_dump_and_the_program_goes_on() {
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "signal_probe", "--test-threads=1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let expected = [
        "rt: task dump on signal",
        "\"parked\"",
        "rt_sync::notify::Notified",
        "dump_on_signal::parked_on",
        "\"rt-dump-on-signal\"",
    ];
    for part in expected {
        assert!(stderr.contains(part), "{part:?} missing from:\n{stderr}");
    }
}
