//! `net::unix::pipe`: anonymous pipes, FIFOs opened by path with their
//! checks, the try_* calls and the conversions back to descriptors.
// Unix only: Unix pipes.
#![cfg(unix)]
#![cfg(feature = "net")]

use rt_io::io::{AsyncReadExt, AsyncWriteExt};
use rt_io::net::unix::pipe;
use rt_io::Interest;
use std::io;
use std::os::fd::AsRawFd;
use std::path::Path;

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path for the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

#[test]
fn anonymous_pipe_carries_bytes_to_end_of_file() {
    rt_test::io_runtime().block_on(async {
        let (mut tx, mut rx) = pipe::pipe().unwrap();
        let writer = rt_core::spawn(async move {
            tx.write_all(&vec![7u8; 256 * 1024]).await.unwrap();
        });
        let mut got = Vec::new();
        rx.read_to_end(&mut got).await.unwrap();
        writer.await.unwrap();
        assert_eq!(got.len(), 256 * 1024);
        assert!(got.iter().all(|&b| b == 7));
    });
}

#[test]
fn try_read_and_try_write_report_would_block() {
    rt_test::io_runtime().block_on(async {
        let (tx, rx) = pipe::pipe().unwrap();
        let mut buf = [0u8; 8];
        assert_eq!(
            rx.try_read(&mut buf).unwrap_err().kind(),
            io::ErrorKind::WouldBlock
        );
        tx.writable().await.unwrap();
        assert_eq!(tx.try_write(b"abc").unwrap(), 3);
        rx.readable().await.unwrap();
        let mut vec = Vec::with_capacity(8);
        assert_eq!(rx.try_read_buf(&mut vec).unwrap(), 3);
        assert_eq!(vec, b"abc");
        // Fill the pipe until it refuses more.
        let chunk = [0u8; 4096];
        loop {
            match tx.try_write(&chunk) {
                Ok(_) => {}
                Err(e) => break assert_eq!(e.kind(), io::ErrorKind::WouldBlock),
            }
        }
        drop(tx);
        let mut rx = rx;
        let ready = rx.ready(Interest::READABLE).await.unwrap();
        assert!(ready.is_readable());
        let mut sink = Vec::new();
        rx.read_to_end(&mut sink).await.unwrap();
        assert!(!sink.is_empty());
    });
}

#[test]
#[cfg_attr(miri, ignore = "FIFOs: Miri does not emulate mkfifo")]
fn fifo_opened_by_path_both_ways() {
    let dir = rt_test::ScratchDir::new("fifo");
    let path = dir.join("fifo");
    mkfifo(&path);
    rt_test::io_runtime().block_on(async {
        // No reader yet: opening the sender fails with ENXIO.
        let err = pipe::OpenOptions::new().open_sender(&path).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ENXIO));
        let mut rx = pipe::OpenOptions::new().open_receiver(&path).unwrap();
        let mut tx = pipe::OpenOptions::new().open_sender(&path).unwrap();
        tx.write_all(b"named").await.unwrap();
        drop(tx);
        let mut got = String::new();
        rx.read_to_string(&mut got).await.unwrap();
        assert_eq!(got, "named");
    });
}

#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(miri, ignore = "FIFOs: Miri does not emulate mkfifo")]
fn read_write_sender_opens_without_a_reader() {
    let dir = rt_test::ScratchDir::new("fifo-rw");
    let path = dir.join("fifo");
    mkfifo(&path);
    rt_test::io_runtime().block_on(async {
        let mut tx = pipe::OpenOptions::new()
            .read_write(true)
            .open_sender(&path)
            .unwrap();
        tx.write_all(b"early").await.unwrap();
        let mut rx = pipe::OpenOptions::new().open_receiver(&path).unwrap();
        let mut buf = [0u8; 5];
        rx.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"early");
    });
}

#[test]
#[cfg_attr(miri, ignore = "Miri's open does not accept O_NONBLOCK")]
fn wrong_files_are_refused() {
    let dir = rt_test::ScratchDir::new("fifo-checks");
    let file = dir.join("plain");
    std::fs::write(&file, b"x").unwrap();
    rt_test::io_runtime().block_on(async {
        let err = pipe::OpenOptions::new().open_receiver(&file).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        // Unchecked, the file is opened, and the reactor refuses a regular
        // file with the OS's error instead.
        let err = pipe::OpenOptions::new()
            .unchecked(true)
            .open_receiver(&file)
            .unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::EPERM));
        let err = pipe::OpenOptions::new()
            .open_receiver(dir.join("missing"))
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);

        // A read end is no sender, and a write end no receiver.
        let (tx, rx) = pipe::pipe().unwrap();
        let rx_fd = rx.into_blocking_fd().unwrap();
        let tx_fd = tx.into_nonblocking_fd().unwrap();
        assert_eq!(
            pipe::Sender::from_owned_fd(rx_fd).unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
        assert_eq!(
            pipe::Receiver::from_owned_fd(tx_fd).unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
    });
}

#[test]
fn into_blocking_fd_clears_nonblocking() {
    rt_test::io_runtime().block_on(async {
        let (tx, rx) = pipe::pipe().unwrap();
        let fd = rx.into_blocking_fd().unwrap();
        // SAFETY: F_GETFL only reads the flags of the open descriptor.
        let flags = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETFL) };
        assert_eq!(flags & libc::O_NONBLOCK, 0);
        let fd = tx.into_nonblocking_fd().unwrap();
        // SAFETY: as above.
        let flags = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETFL) };
        assert_ne!(flags & libc::O_NONBLOCK, 0);
        // A blocking descriptor becomes non-blocking again on the way in.
        let tx = pipe::Sender::from_owned_fd(fd).unwrap();
        tx.writable().await.unwrap();
        assert_eq!(tx.try_write(b"ok").unwrap(), 2);
    });
}
