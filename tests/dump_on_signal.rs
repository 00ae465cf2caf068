//! `Builder::dump_on_signal`: a process that receives the signal writes its
//! runtime's task dump, with traces, to stderr and keeps running, even when
//! its only worker is blocked. The program receiving the signal runs as a
//! child process of this test binary, so that its stderr can be read and
//! its blocked task released through its stdin.
// Unix only: Unix signals.
#![cfg(unix)]
#![cfg(all(unix, feature = "signal", feature = "sync"))]

use rt::runtime::{Builder, Handle};
use rt::signal::unix::SignalKind;
use rt::sync::Notify;
use rt::task::TaskState;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Waits on `notify`: the async fn the dump must name.
async fn parked_on(notify: Arc<Notify>) {
    notify.notified().await;
}

/// Whether the task named `name` is idle after at least one poll.
fn idle(name: &str) -> bool {
    Handle::current()
        .dump()
        .tasks()
        .iter()
        .any(|t| t.name() == Some(name) && t.state() == TaskState::Idle && t.poll_count() >= 1)
}

/// Receives `SIGUSR1` while one task is parked and another holds the only
/// worker (blocked reading stdin), then lets both finish once stdin has a
/// line. Run only as a child process by the test below.
#[test]
#[ignore = "raises SIGUSR1 and blocks on stdin; driven by a_signal_dumps_a_runtime_whose_workers_are_all_blocked"]
fn signal_probe() {
    let rt = Builder::new_multi_thread()
        .worker_threads(1)
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
        while !idle("parked") {
            rt::task::yield_now().await;
        }
    });
    let (started_tx, started_rx) = mpsc::channel();
    let busy = rt::task::Builder::new()
        .name("busy")
        .spawn_on(
            async move {
                started_tx.send(()).unwrap();
                let mut line = String::new();
                std::io::stdin().read_line(&mut line).unwrap();
                notify.notify_one();
            },
            rt.handle(),
        )
        .unwrap();
    started_rx.recv().unwrap();
    rt_test::raise_now(SignalKind::user_defined1());
    rt.block_on(async {
        busy.await.unwrap();
        parked.await.unwrap();
    });
}

#[test]
fn a_signal_dumps_a_runtime_whose_workers_are_all_blocked() {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "signal_probe", "--test-threads=1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let (lines_tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if lines_tx.send(line).is_err() {
                return;
            }
        }
    });
    let expected = [
        "rt: task dump on signal",
        "rt_sync::notify::Notified",
        "dump_on_signal::parked_on",
    ];
    let complete = |text: &str| {
        expected.iter().all(|part| text.contains(part))
            && text
                .lines()
                .any(|l| l.contains("\"parked\"") && l.contains("Idle"))
            && text
                .lines()
                .any(|l| l.contains("\"busy\"") && l.contains("Running"))
    };
    // The bound is for a dump that never comes; the child is blocked on
    // its stdin until it gets a line.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut text = String::new();
    while !complete(&text) {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => {
                text.push_str(&line);
                text.push('\n');
            }
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("no complete dump in the child's stderr:\n{text}");
            }
        }
    }
    child.stdin.take().unwrap().write_all(b"go\n").unwrap();
    let status = child.wait().unwrap();
    text.extend(lines.iter().map(|line| line + "\n"));
    assert!(status.success(), "{text}");
}
