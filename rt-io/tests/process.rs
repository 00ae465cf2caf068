//! `rt_io::process`: spawning, pipes, exit statuses, killing, orphan
//! reaping, many children at once, and the errors and panics of misuse.
//!
//! Most tests run their body on both runtime flavors. Children are short
//! shell commands; the ones that would run long (`sleep 1000`) are killed by
//! the test. Reaping is observed with `kill(pid, 0)`, which fails with
//! `ESRCH` only once the zombie is collected.
// Unix only: shell commands, signals and reaping; `process_windows.rs`
// has the Windows tests.
#![cfg(unix)]
// Processes: Miri does not emulate fork, exec or waiting for children.
#![cfg(not(miri))]
#![cfg(feature = "process")]

use rt_core::runtime::{Builder, Runtime};
use rt_io::io::{AsyncReadExt, AsyncWriteExt};
use rt_io::process::{reap_orphans, Command};
use rt_io::signal::unix::{signal, Signal, SignalKind};
use std::future::{poll_fn, Future};
use std::io;
use std::os::raw::c_int;
use std::os::unix::process::ExitStatusExt;
use std::pin::pin;
use std::process::Stdio;
use std::task::Poll;
use std::time::{Duration, Instant};

extern "C" {
    fn kill(pid: i32, sig: c_int) -> c_int;
}

const SIGKILL: i32 = 9;

fn current_thread() -> Runtime {
    Builder::new_current_thread()
        .base_driver(rt_io::reactor::base_driver())
        .build()
        .unwrap()
}

fn multi_thread() -> Runtime {
    Builder::new_multi_thread()
        .worker_threads(2)
        .base_driver(rt_io::reactor::base_driver())
        .build()
        .unwrap()
}

/// Runs the future `body` makes on a current-thread runtime, then on a
/// multi-thread one.
fn on_both_flavors<F: Future<Output = ()> + Send + 'static>(body: impl Fn() -> F) {
    current_thread().block_on(body());
    let rt = multi_thread();
    // Spawned, so that the body runs on a worker thread.
    rt.block_on(rt.spawn(body())).unwrap();
}

/// Whether a process (or zombie) with `pid` exists.
fn exists(pid: u32) -> bool {
    // SAFETY: signal 0 only checks that the process exists; nothing is
    // delivered.
    unsafe { kill(pid as i32, 0) == 0 }
}

/// Waits until `pid` is reaped, collecting orphans after every `SIGCHLD`.
/// `sigchld` must have been created before the process could exit.
async fn reaped_by_queue_drain(pid: u32, sigchld: &mut Signal) {
    // Other tests' children send `SIGCHLD` too; each round either finds the
    // process collected or waits for the next delivery, one of which is
    // this process's exit.
    for _ in 0..10_000 {
        reap_orphans();
        if !exists(pid) {
            return;
        }
        sigchld.recv().await;
    }
    panic!("process {pid} was never reaped");
}

#[test]
fn echo_through_sh_is_read_from_stdout() {
    on_both_flavors(|| async {
        let mut child = Command::new("sh")
            .args(["-c", "echo hello from sh"])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        assert!(child.id().is_some());
        let mut out = String::new();
        let mut stdout = child.stdout.take().unwrap();
        stdout.read_to_string(&mut out).await.unwrap();
        assert_eq!(out, "hello from sh\n");
        assert!(child.wait().await.unwrap().success());
        assert_eq!(child.id(), None);
    });
}

#[test]
fn output_collects_stdout_stderr_and_status() {
    on_both_flavors(|| async {
        let output = Command::new("sh")
            .args(["-c", "echo out; echo err >&2; exit 7"])
            .output()
            .await
            .unwrap();
        assert_eq!(output.stdout, b"out\n");
        assert_eq!(output.stderr, b"err\n");
        assert_eq!(output.status.code(), Some(7));
    });
}

#[test]
fn output_larger_than_a_pipe_buffer_does_not_deadlock() {
    on_both_flavors(|| async {
        // Both streams exceed the 64 KiB pipe buffer, so the child blocks
        // unless they are drained while it runs.
        let output = Command::new("sh")
            .args([
                "-c",
                "head -c 300000 /dev/zero; head -c 200000 /dev/zero >&2",
            ])
            .output()
            .await
            .unwrap();
        assert!(output.status.success());
        assert_eq!(output.stdout.len(), 300_000);
        assert_eq!(output.stderr.len(), 200_000);
    });
}

#[test]
fn status_reports_exit_codes() {
    on_both_flavors(|| async {
        for code in [0, 1, 42, 255] {
            let status = Command::new("sh")
                .arg("-c")
                .arg(format!("exit {code}"))
                .status()
                .await
                .unwrap();
            assert_eq!(status.code(), Some(code));
            assert_eq!(status.success(), code == 0);
        }
    });
}

#[test]
fn command_settings_reach_the_child() {
    on_both_flavors(|| async {
        let dir = std::env::temp_dir();
        let output = Command::new("sh")
            .args(["-c", "echo \"$A-$B-$C\"; pwd"])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap())
            .envs([("A", "1"), ("B", "2"), ("C", "3")])
            .env_remove("C")
            .current_dir(&dir)
            .output()
            .await
            .unwrap();
        let text = String::from_utf8(output.stdout).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("1-2-"));
        let pwd = std::fs::canonicalize(lines.next().unwrap()).unwrap();
        assert_eq!(pwd, std::fs::canonicalize(&dir).unwrap());
    });
}

#[test]
fn stdin_piped_to_cat_comes_back() {
    on_both_flavors(|| async {
        let mut child = Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        // 16 MiB, far more than a pipe buffer holds: the writer must wait
        // for the reader, so the two run as separate tasks.
        let payload: Vec<u8> = (0..16u32 << 20).map(|i| (i % 251) as u8).collect();
        let expected = payload.clone();
        let writer = rt_core::spawn(async move {
            stdin.write_all(&payload).await.unwrap();
            stdin.flush().await.unwrap();
            stdin.shutdown().await.unwrap();
            // Dropping the handle closes the pipe: `cat` reads end of file.
            drop(stdin);
        });
        let mut back = Vec::new();
        stdout.read_to_end(&mut back).await.unwrap();
        writer.await.unwrap();
        assert!(back == expected, "cat echoed different bytes");
        assert!(child.wait().await.unwrap().success());
    });
}

#[test]
fn one_childs_stdout_feeds_anothers_stdin() {
    on_both_flavors(|| async {
        let mut producer = Command::new("echo")
            .arg("piped along")
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout: Stdio = producer.stdout.take().unwrap().try_into().unwrap();
        let output = Command::new("cat").stdin(stdout).output().await.unwrap();
        assert_eq!(output.stdout, b"piped along\n");
        assert!(producer.wait().await.unwrap().success());
    });
}

#[test]
fn kill_then_wait_reports_the_signal() {
    on_both_flavors(|| async {
        let mut child = Command::new("sleep").arg("1000").spawn().unwrap();
        child.kill().await.unwrap();
        let status = child.wait().await.unwrap();
        assert_eq!(status.signal(), Some(SIGKILL));
        assert_eq!(status.code(), None);

        // Once collected, the pid is not ours to signal any more: killing
        // again does nothing and succeeds, as in tokio 1.54.
        child.start_kill().unwrap();
        child.kill().await.unwrap();
        assert_eq!(child.wait().await.unwrap().signal(), Some(SIGKILL));
    });
}

#[test]
fn start_kill_then_wait() {
    on_both_flavors(|| async {
        let mut child = Command::new("sleep").arg("1000").spawn().unwrap();
        child.start_kill().unwrap();
        assert_eq!(child.wait().await.unwrap().signal(), Some(SIGKILL));
    });
}

#[test]
fn try_wait_before_and_after_exit() {
    on_both_flavors(|| async {
        // `cat` runs until its stdin closes, so it is surely running here.
        let mut child = Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        assert!(child.try_wait().unwrap().is_none());
        assert!(child.id().is_some());
        let status = child.wait().await.unwrap();
        assert!(status.success());
        assert_eq!(child.try_wait().unwrap(), Some(status));
        assert_eq!(child.wait().await.unwrap(), status);
        assert_eq!(child.id(), None);
    });
}

#[test]
fn a_cancelled_wait_loses_nothing() {
    on_both_flavors(|| async {
        let mut child = Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let pending = poll_fn(|cx| {
            let mut wait = pin!(child.wait());
            Poll::Ready(wait.as_mut().poll(cx).is_pending())
        })
        .await;
        assert!(pending, "cat cannot exit while its stdin is open");
        drop(stdin);
        assert!(child.wait().await.unwrap().success());
    });
}

#[test]
fn kill_on_drop_kills_and_the_orphan_is_reaped() {
    on_both_flavors(|| async {
        let mut sigchld = signal(SignalKind::child()).unwrap();
        let mut command = Command::new("sleep");
        command.arg("1000").kill_on_drop(true);
        assert!(command.get_kill_on_drop());
        let child = command.spawn().unwrap();
        let pid = child.id().unwrap();
        assert!(exists(pid));
        drop(child);
        reaped_by_queue_drain(pid, &mut sigchld).await;
    });
}

#[test]
fn the_reaper_collects_orphans_without_any_process_call() {
    on_both_flavors(|| async {
        let mut sigchld = signal(SignalKind::child()).unwrap();
        let child = Command::new("sleep")
            .arg("1000")
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let pid = child.id().unwrap();
        drop(child);
        // The reaper thread collects the child once its `SIGCHLD` arrives;
        // this task only watches, yielding between looks.
        sigchld.recv().await;
        let deadline = Instant::now() + Duration::from_secs(30);
        while exists(pid) {
            assert!(Instant::now() < deadline, "process {pid} was never reaped");
            rt_core::task::yield_now().await;
            std::thread::yield_now();
        }
    });
}

#[test]
fn dropping_a_child_leaves_it_running_and_reaps_it_later() {
    on_both_flavors(|| async {
        let mut sigchld = signal(SignalKind::child()).unwrap();
        let mut child = Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id().unwrap();
        let stdin = child.stdin.take().unwrap();
        drop(child);
        // Without kill_on_drop the process lives on: `cat` still waits for
        // input on the pipe this test holds.
        reap_orphans();
        assert!(exists(pid));
        drop(stdin);
        reaped_by_queue_drain(pid, &mut sigchld).await;
    });
}

#[test]
fn two_hundred_short_children_in_a_row_leave_no_zombie() {
    on_both_flavors(|| async {
        // Subscribed before any child can exit, so no delivery is missed.
        let mut sigchld = signal(SignalKind::child()).unwrap();
        let mut dropped = Vec::new();
        for i in 0..200 {
            let mut child = Command::new("true").spawn().unwrap();
            let pid = child.id().unwrap();
            if i % 2 == 0 {
                assert!(child.wait().await.unwrap().success());
                assert!(!exists(pid), "waited child {pid} left a zombie");
            } else {
                // Dropped without waiting: the orphan queue must reap it.
                drop(child);
                dropped.push(pid);
            }
        }
        for pid in dropped {
            reaped_by_queue_drain(pid, &mut sigchld).await;
        }
    });
}

#[test]
fn fifty_concurrent_children_on_the_multi_thread_runtime() {
    multi_thread().block_on(async {
        let tasks: Vec<_> = (0..50)
            .map(|i| {
                rt_core::spawn(async move {
                    let output = Command::new("sh")
                        .arg("-c")
                        .arg(format!("echo child {i}; exit {}", i % 7))
                        .output()
                        .await
                        .unwrap();
                    assert_eq!(output.stdout, format!("child {i}\n").as_bytes());
                    assert_eq!(output.status.code(), Some(i % 7));
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
    });
}

#[test]
fn a_missing_program_is_not_found() {
    on_both_flavors(|| async {
        let err = Command::new("/nonexistent/rt-no-such-program")
            .spawn()
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        let err = Command::new("rt-no-such-program-in-path")
            .status()
            .await
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
    });
}

#[test]
fn spawning_outside_a_runtime_panics_with_guidance() {
    let err = std::panic::catch_unwind(|| Command::new("true").spawn()).unwrap_err();
    let msg = err.downcast_ref::<String>().unwrap();
    assert!(msg.contains("there is no reactor running"), "{msg}");

    let no_io = Builder::new_current_thread().build().unwrap();
    let _guard = no_io.enter();
    let err = std::panic::catch_unwind(|| Command::new("true").spawn()).unwrap_err();
    let msg = err.downcast_ref::<String>().unwrap();
    assert!(msg.contains("IO is disabled"), "{msg}");
    assert!(msg.contains("enable_io"), "{msg}");
}

#[test]
fn std_command_conversion_and_getters() {
    let mut std = std::process::Command::new("sh");
    std.arg("-c");
    let mut command = Command::from(std);
    command.arg("exit 0").current_dir("/");
    assert_eq!(command.get_program(), "sh");
    assert_eq!(command.get_args().collect::<Vec<_>>(), ["-c", "exit 0"]);
    assert_eq!(command.get_current_dir(), Some(std::path::Path::new("/")));
    assert!(!command.get_kill_on_drop());
    assert_eq!(command.as_std().get_program(), "sh");
    command.as_std_mut().env("X", "1");
    assert_eq!(command.get_envs().count(), 1);
    assert_eq!(command.into_std().get_args().count(), 2);
}

#[test]
fn process_types_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Command>();
    assert_send_sync::<rt_io::process::Child>();
    assert_send_sync::<rt_io::process::ChildStdin>();
    assert_send_sync::<rt_io::process::ChildStdout>();
    assert_send_sync::<rt_io::process::ChildStderr>();
}

#[test]
fn pipes_convert_from_std_and_back_to_blocking_descriptors() {
    on_both_flavors(|| async {
        // A std child's stdout, wrapped for the reactor.
        let mut std_child = std::process::Command::new("echo")
            .arg("from std")
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout =
            rt_io::process::ChildStdout::from_std(std_child.stdout.take().unwrap()).unwrap();
        let mut out = String::new();
        stdout.read_to_string(&mut out).await.unwrap();
        assert_eq!(out, "from std\n");
        assert!(std_child.wait().unwrap().success());

        // And the other way: an owned descriptor in blocking mode, so a
        // plain blocking read waits for the child instead of failing with
        // `WouldBlock`.
        let mut child = Command::new("sh")
            .args(["-c", "read line; echo \"got $line\""])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap().into_owned_fd().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"it\n").await.unwrap();
        drop(stdin);
        let mut file = std::fs::File::from(stdout);
        let mut text = String::new();
        std::io::Read::read_to_string(&mut file, &mut text).unwrap();
        assert_eq!(text, "got it\n");
        assert!(child.wait().await.unwrap().success());
    });
}

#[test]
fn spawn_with_uses_the_given_spawner_and_pipes() {
    on_both_flavors(|| async {
        let mut called = false;
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn_with(|cmd| {
                called = true;
                cmd.spawn()
            })
            .unwrap();
        assert!(called);
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"via spawn_with").await.unwrap();
        drop(stdin);
        let out = child.wait_with_output().await.unwrap();
        assert_eq!(out.stdout, b"via spawn_with");

        let err = Command::new("true")
            .spawn_with(|_| Err(io::Error::other("refused")))
            .unwrap_err();
        assert_eq!(err.to_string(), "refused");
    });
}
