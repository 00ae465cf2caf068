//! `io::stdin`, `io::stdout` and `io::stderr`: the test binary runs itself
//! as a child whose standard streams are pipes, so that what goes through
//! the blocking pool can be checked from outside.
// Processes: the test runs itself as a child, and Miri does not emulate fork or exec.
#![cfg(not(miri))]
#![cfg(feature = "fs")]

use rt_io::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use std::io::Write;
use std::process::{Command, Stdio};

const ROLE: &str = "RT_IO_STDIO_CHILD";

/// Runs this binary's test `name` as a child with `input` on its standard
/// input; returns its standard output and error.
fn run_child(name: &str, input: &[u8]) -> (String, String) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--nocapture", "--test-threads", "1"])
        .env(ROLE, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "child failed: {out:?}");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn is_child() -> bool {
    std::env::var_os(ROLE).is_some()
}

#[test]
fn child_upper_cases_lines() {
    if !is_child() {
        return;
    }
    rt_test::run(async {
        let mut lines = BufReader::new(rt_io::io::stdin()).lines();
        let mut out = rt_io::io::stdout();
        let mut err = rt_io::io::stderr();
        while let Some(line) = lines.next_line().await.unwrap() {
            out.write_all(format!("<{}>\n", line.to_uppercase()).as_bytes())
                .await
                .unwrap();
            err.write_all(b"e").await.unwrap();
        }
        out.flush().await.unwrap();
        err.shutdown().await.unwrap();
    });
}

#[test]
fn stdin_lines_to_stdout_and_stderr() {
    if is_child() {
        return;
    }
    let (out, err) = run_child("child_upper_cases_lines", b"one\ntwo\nthree\n");
    assert!(out.contains("<ONE>\n<TWO>\n<THREE>\n"), "stdout: {out}");
    assert!(err.contains("eee"), "stderr: {err}");
}

#[test]
fn child_copies_a_large_input() {
    if !is_child() {
        return;
    }
    rt_test::run(async {
        let mut all = Vec::new();
        rt_io::io::stdin().read_to_end(&mut all).await.unwrap();
        let mut out = rt_io::io::stdout();
        out.write_all(format!("[len={}]", all.len()).as_bytes())
            .await
            .unwrap();
        out.flush().await.unwrap();
    });
}

#[test]
fn stdin_reads_to_end_across_many_pool_calls() {
    if is_child() {
        return;
    }
    let input = vec![b'x'; 1 << 20];
    let (out, _) = run_child("child_copies_a_large_input", &input);
    assert!(out.contains("[len=1048576]"), "stdout: {out}");
}

#[cfg(unix)]
#[test]
fn handles_are_send_sync_unpin_with_descriptors() {
    fn check<T: Send + Sync + Unpin + std::os::fd::AsRawFd>(_: &T) {}
    check(&rt_io::io::stdout());
    check(&rt_io::io::stderr());
    check(&rt_io::io::stdin());
    use std::os::fd::AsRawFd;
    assert_eq!(rt_io::io::stdin().as_raw_fd(), 0);
    assert_eq!(rt_io::io::stdout().as_raw_fd(), 1);
    assert_eq!(rt_io::io::stderr().as_raw_fd(), 2);
}

#[test]
fn writes_after_shutdown_fail_with_the_shutdown_error() {
    let rt = rt_test::runtime();
    let handle = rt.handle().clone();
    rt.shutdown_timeout(std::time::Duration::from_secs(10));
    for err in [
        handle.block_on(async { rt_io::io::stdout().write_all(b"x").await }),
        handle.block_on(async { rt_io::io::stderr().write_all(b"x").await }),
    ] {
        let err = err.unwrap_err();
        assert!(rt_io::reactor::is_rt_shutdown_err(&err), "{err:?}");
    }
}
