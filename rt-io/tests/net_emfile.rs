//! An accept loop survives running out of file descriptors: the error
//! reaches the caller, the listener stays usable, and the queued connection
//! is accepted once a descriptor is free again.
//!
//! The descriptor limit is lowered in a child process (`ulimit -n` in a
//! shell that re-runs this test binary), so that the rest of the suite
//! never runs short.
// Sockets: Miri does not emulate socket system calls.
#![cfg(not(miri))]
// Unix only: the descriptor limit (`ulimit -n`).
#![cfg(unix)]
#![cfg(feature = "net")]

use rt_core::runtime::Builder;
use rt_io::net::TcpListener;
use std::fs::File;
use std::io;
use std::process::Command;

const CHILD_ENV: &str = "RT_IO_EMFILE_CHILD";
const EMFILE: i32 = 24;

#[test]
fn accept_survives_emfile() {
    let exe = std::env::current_exe().unwrap();
    let output = Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 64 && exec \"$0\" --exact emfile_child --nocapture --test-threads=1")
        .arg(exe)
        .env(CHILD_ENV, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "child failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("1 passed"), "child did not run: {stdout}");
}

/// Runs only inside the child that `accept_survives_emfile` starts.
#[test]
fn emfile_child() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let rt = Builder::new_current_thread()
        .base_driver(rt_io::reactor::base_driver())
        .build()
        .unwrap();
    rt.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();

        // Use up every descriptor the limit allows.
        let mut hog = Vec::new();
        loop {
            match File::open("/dev/null") {
                Ok(f) => hog.push(f),
                Err(e) if e.raw_os_error() == Some(EMFILE) => break,
                Err(e) => panic!("unexpected error while exhausting fds: {e}"),
            }
            assert!(hog.len() < 4096, "the descriptor limit was not lowered");
        }
        // Room for exactly one client socket; the server side then has none.
        hog.pop();
        let client = std::net::TcpStream::connect(addr).unwrap();

        let err = listener.accept().await.unwrap_err();
        assert_eq!(err.raw_os_error(), Some(EMFILE), "{err:?}");
        // Still out of descriptors: the error comes back again, promptly.
        let err = listener.accept().await.unwrap_err();
        assert_eq!(err.raw_os_error(), Some(EMFILE), "{err:?}");

        hog.pop();
        hog.pop();
        let (server, peer) = listener.accept().await.unwrap();
        assert_eq!(peer, client.local_addr().unwrap());
        drop(server);
        drop(hog);

        // And the listener keeps working afterwards.
        let again = std::net::TcpStream::connect(addr).unwrap();
        let (_s, peer) = listener.accept().await.unwrap();
        assert_eq!(peer, again.local_addr().unwrap());
        Ok::<_, io::Error>(())
    })
    .unwrap();
}
