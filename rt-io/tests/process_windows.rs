//! `rt_io::process` on Windows: output and exit codes, piped standard
//! input, killing, `kill_on_drop`, and waiting on several children at
//! once. Children are `cmd.exe` commands, or this test binary itself run
//! as a child that copies its standard input to its standard output
//! (`RT_PROCESS_CHILD`), so that no other program is needed.
#![cfg(windows)]
#![cfg(feature = "process")]

use rt_io::io::{AsyncReadExt, AsyncWriteExt};
use rt_io::process::Command;
use std::process::Stdio;

/// Set in a child started by these tests: the child test copies stdin to
/// stdout; in the parent it does nothing.
const CHILD: &str = "RT_PROCESS_CHILD";

/// The child's side of the pipe tests (see the module comment).
#[test]
fn child_copies_stdin() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let mut input = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin(), &mut input).unwrap();
    std::io::Write::write_all(&mut std::io::stdout(), b"[").unwrap();
    std::io::Write::write_all(&mut std::io::stdout(), &input).unwrap();
    std::io::Write::write_all(&mut std::io::stdout(), b"]").unwrap();
}

/// This binary, run as the copying child.
fn copying_child() -> Command {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([
            "--exact",
            "child_copies_stdin",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1");
    command
}

#[test]
fn output_and_exit_codes() {
    rt_test::io_runtime().block_on(async {
        let out = Command::new("cmd")
            .args(["/C", "echo hello"])
            .output()
            .await
            .unwrap();
        assert!(out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim_end(), "hello");
        let status = Command::new("cmd")
            .args(["/C", "exit 3"])
            .status()
            .await
            .unwrap();
        assert_eq!(status.code(), Some(3));
    });
}

#[test]
fn piped_stdin_reaches_the_child() {
    rt_test::io_runtime().block_on(async {
        let mut child = copying_child()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"through the pipe").await.unwrap();
        stdin.flush().await.unwrap();
        drop(stdin);
        let mut out = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .await
            .unwrap();
        assert!(out.contains("[through the pipe]"), "stdout: {out}");
        assert!(child.wait().await.unwrap().success());
    });
}

#[test]
fn a_killed_child_is_waited_for() {
    rt_test::io_runtime().block_on(async {
        // Blocks reading its standard input until killed.
        let mut child = copying_child().stdin(Stdio::piped()).spawn().unwrap();
        assert!(child.id().is_some());
        assert!(child.try_wait().unwrap().is_none());
        child.kill().await.unwrap();
        let status = child.wait().await.unwrap();
        assert!(!status.success());
        assert_eq!(child.id(), None);
        // Killing an exited child does nothing.
        child.start_kill().unwrap();
    });
}

#[test]
fn several_children_are_waited_for_at_once() {
    rt_test::io_runtime().block_on(async {
        let mut children: Vec<_> = (0..4)
            .map(|i| {
                Command::new("cmd")
                    .args(["/C", &format!("exit {i}")])
                    .spawn()
                    .unwrap()
            })
            .collect();
        for (i, child) in children.iter_mut().enumerate() {
            assert_eq!(child.wait().await.unwrap().code(), Some(i as i32));
        }
    });
}

#[test]
fn kill_on_drop_ends_the_child() {
    rt_test::io_runtime().block_on(async {
        let mut child = copying_child()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        // Held open, so the child cannot finish on its own: it would write
        // `[` only after reading its input to the end.
        let stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        drop(child);
        // The output ends once the killed child's end of the pipe closes.
        let mut out = String::new();
        stdout.read_to_string(&mut out).await.unwrap();
        assert!(!out.contains('['), "stdout: {out}");
        drop(stdin);
    });
}
