//! `rt_io::fs` on both I/O drivers: the same operations give the same
//! results and the same error kinds on epoll (the blocking pool) and on
//! io_uring (ring submissions); the io_uring driver falls back to epoll
//! when its probe fails, uses no blocking-pool thread for these
//! operations, and frees what a dropped operation held only once the
//! kernel is done with it.
//!
//! Where the kernel refuses io_uring (seccomp, `io_uring_disabled`), the
//! "uring" runtimes fall back to epoll: the comparisons still run, and the
//! tests of io_uring's own behaviour say that they were skipped.
#![cfg(all(target_os = "linux", feature = "uring"))]

use rt_core::runtime::{Builder, IoDriverKind, Runtime};
use rt_io::fs;
use rt_io::reactor::{base_driver_for, IoDriverOptions};
use rt_test::{pattern, ScratchDir};
use std::future::Future;
use std::io::{ErrorKind, Write};
use std::task::Poll;

fn build(kind: IoDriverKind, multi_thread: bool, force_probe_failure: bool) -> Runtime {
    let options = IoDriverOptions {
        kind: Some(kind),
        force_uring_probe_failure: force_probe_failure,
        ..IoDriverOptions::default()
    };
    let mut builder = if multi_thread {
        let mut builder = Builder::new_multi_thread();
        builder.worker_threads(2);
        builder
    } else {
        Builder::new_current_thread()
    };
    builder
        .base_driver(base_driver_for(options).expect("a driver kind"))
        .build()
        .expect("the runtime builds")
}

/// Runs `scenario` on every driver and flavor, each time on a fresh
/// runtime.
fn on_each_driver<F: Future<Output = ()> + Send + 'static>(scenario: impl Fn() -> F) {
    for kind in [IoDriverKind::Epoll, IoDriverKind::Uring] {
        for multi_thread in [false, true] {
            let runtime = build(kind, multi_thread, false);
            // On the multi-thread runtime the scenario runs as a task on a
            // worker, where the drivers are used as in production.
            let task = runtime.spawn(scenario());
            runtime
                .block_on(task)
                .unwrap_or_else(|e| panic!("{kind:?}, multi_thread {multi_thread}: {e}"));
        }
    }
}

/// A current-thread runtime on io_uring, or `None` (with a note) where the
/// kernel refuses it.
fn uring_runtime() -> Option<Runtime> {
    let runtime = build(IoDriverKind::Uring, false, false);
    if runtime.metrics().io_driver_kind() == Some(IoDriverKind::Uring) {
        Some(runtime)
    } else {
        eprintln!("io_uring is not available here: test skipped");
        None
    }
}

#[test]
fn the_metrics_name_the_driver_and_a_failed_probe_falls_back_to_epoll() {
    let epoll = build(IoDriverKind::Epoll, false, false);
    assert_eq!(epoll.metrics().io_driver_kind(), Some(IoDriverKind::Epoll));
    let fallback = build(IoDriverKind::Uring, false, true);
    assert_eq!(
        fallback.metrics().io_driver_kind(),
        Some(IoDriverKind::Epoll)
    );
    let dir = ScratchDir::new("uring-fallback");
    let path = dir.join("f");
    fallback.block_on(async {
        fs::write(&path, b"on epoll").await.unwrap();
        assert_eq!(fs::read(&path).await.unwrap(), b"on epoll");
    });
    let none = Builder::new_current_thread().build().unwrap();
    assert_eq!(none.metrics().io_driver_kind(), None);
}

#[test]
fn whole_file_reads_and_writes_agree() {
    on_each_driver(|| async {
        let dir = ScratchDir::new("uring-rw");
        let path = dir.join("f.txt");
        fs::write(&path, "hello world").await.unwrap();
        assert_eq!(fs::read(&path).await.unwrap(), b"hello world");
        assert_eq!(fs::read_to_string(&path).await.unwrap(), "hello world");
        fs::write(&path, b"hi").await.unwrap();
        assert_eq!(
            fs::read_to_string(&path).await.unwrap(),
            "hi",
            "write truncates"
        );
        fs::write(&path, b"").await.unwrap();
        assert_eq!(fs::read(&path).await.unwrap(), b"");
    });
}

#[test]
fn a_large_file_takes_several_reads_and_writes() {
    on_each_driver(|| async {
        let dir = ScratchDir::new("uring-large");
        let path = dir.join("large");
        let contents = pattern(3 << 20 | 7);
        fs::write(&path, &contents).await.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), contents);
        assert_eq!(fs::read(&path).await.unwrap(), contents);
    });
}

#[test]
fn files_around_the_first_read_and_its_probe_are_read_whole() {
    on_each_driver(|| async {
        let dir = ScratchDir::new("uring-boundaries");
        let path = dir.join("f");
        let first = 16 * 1024;
        for len in [
            0,
            1,
            first - 1,
            first,
            first + 1,
            first + 31,
            first + 32,
            first + 33,
        ] {
            let contents = pattern(len);
            std::fs::write(&path, &contents).unwrap();
            assert_eq!(fs::read(&path).await.unwrap(), contents, "{len} bytes");
        }
    });
}

#[test]
fn names_directories_and_metadata_agree() {
    on_each_driver(|| async {
        let dir = ScratchDir::new("uring-names");
        let sub = dir.join("sub");
        fs::create_dir(&sub).await.unwrap();
        assert!(fs::metadata(&sub).await.unwrap().is_dir());
        let a = sub.join("a");
        fs::write(&a, b"12345").await.unwrap();
        let meta = fs::metadata(&a).await.unwrap();
        assert!(meta.is_file());
        assert_eq!(meta.len(), 5);
        let link = dir.join("link");
        std::os::unix::fs::symlink(&a, &link).unwrap();
        assert!(fs::symlink_metadata(&link).await.unwrap().is_symlink());
        assert!(fs::metadata(&link).await.unwrap().is_file());
        let b = sub.join("b");
        fs::rename(&a, &b).await.unwrap();
        assert_eq!(fs::read(&b).await.unwrap(), b"12345");
        fs::remove_file(&b).await.unwrap();
        fs::remove_dir(&sub).await.unwrap();
        assert!(!sub.exists());
    });
}

fn kind<T>(result: std::io::Result<T>) -> ErrorKind {
    result.map(drop).unwrap_err().kind()
}

#[test]
fn errors_keep_their_kind() {
    on_each_driver(|| async {
        let dir = ScratchDir::new("uring-errors");
        let missing = dir.join("missing");
        assert_eq!(kind(fs::read(&missing).await), ErrorKind::NotFound);
        assert_eq!(kind(fs::metadata(&missing).await), ErrorKind::NotFound);
        assert_eq!(kind(fs::remove_file(&missing).await), ErrorKind::NotFound);
        assert_eq!(
            kind(fs::rename(&missing, dir.join("x")).await),
            ErrorKind::NotFound
        );
        assert_eq!(
            kind(fs::write(missing.join("f"), b"x").await),
            ErrorKind::NotFound
        );
        assert_eq!(
            kind(fs::create_dir(dir.path()).await),
            ErrorKind::AlreadyExists
        );
        assert_eq!(kind(fs::read(dir.path()).await), ErrorKind::IsADirectory);
        assert_eq!(kind(fs::read("nul\0byte").await), ErrorKind::InvalidInput);
        let full = dir.join("full");
        fs::create_dir(&full).await.unwrap();
        fs::write(full.join("f"), b"x").await.unwrap();
        assert_eq!(
            kind(fs::remove_dir(&full).await),
            ErrorKind::DirectoryNotEmpty
        );
        let bad = dir.join("bad");
        fs::write(&bad, [0xff, 0xfe]).await.unwrap();
        assert_eq!(kind(fs::read_to_string(&bad).await), ErrorKind::InvalidData);
    });
}

#[test]
fn file_reads_writes_and_seeks_agree() {
    use rt_io::io::{AsyncReadExt, AsyncSeekExt, AsyncWriteExt};
    use std::io::SeekFrom;
    on_each_driver(|| async {
        let dir = ScratchDir::new("uring-file");
        let path = dir.join("f");
        let mut file = fs::File::create(&path).await.unwrap();
        file.write_all(b"hello ").await.unwrap();
        file.write_all(b"world").await.unwrap();
        file.flush().await.unwrap();
        file.sync_all().await.unwrap();
        file.sync_data().await.unwrap();
        drop(file);
        assert_eq!(std::fs::read(&path).unwrap(), b"hello world");

        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .await
            .unwrap();
        let mut five = [0; 5];
        file.read_exact(&mut five).await.unwrap();
        assert_eq!(&five, b"hello");
        // A write after a read-ahead lands at the logical position.
        file.write_all(b"_").await.unwrap();
        assert_eq!(file.seek(SeekFrom::Start(0)).await.unwrap(), 0);
        let mut all = String::new();
        file.read_to_string(&mut all).await.unwrap();
        assert_eq!(all, "hello_world");
        assert_eq!(file.seek(SeekFrom::End(-5)).await.unwrap(), 6);
        let mut tail = Vec::new();
        file.read_to_end(&mut tail).await.unwrap();
        assert_eq!(tail, b"world");
        drop(file);

        let mut log = fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .await
            .unwrap();
        log.write_all(b"!").await.unwrap();
        log.flush().await.unwrap();
        drop(log);
        assert_eq!(std::fs::read(&path).unwrap(), b"hello_world!");

        let large = pattern(5 << 20 | 3);
        let mut file = fs::File::create(&path).await.unwrap();
        file.write_all(&large).await.unwrap();
        file.flush().await.unwrap();
        drop(file);
        let mut back = Vec::new();
        fs::File::open(&path)
            .await
            .unwrap()
            .read_to_end(&mut back)
            .await
            .unwrap();
        assert_eq!(back, large);

        let read_only = fs::File::open(&path).await.unwrap();
        let mut read_only = read_only;
        let err = read_only.write_all(b"x").await.and(read_only.flush().await);
        assert_eq!(err.unwrap_err().raw_os_error(), Some(libc::EBADF));
    });
}

#[test]
fn after_shutdown_operations_fail_with_the_pools_error() {
    let dir = ScratchDir::new("uring-after-shutdown");
    let path = dir.join("f");
    std::fs::write(&path, b"x").unwrap();
    for kind in [IoDriverKind::Epoll, IoDriverKind::Uring] {
        let runtime = build(kind, false, false);
        let handle = runtime.handle().clone();
        runtime.shutdown_timeout(std::time::Duration::from_secs(1000));
        let err = handle.block_on(fs::read_to_string(&path)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Other, "{kind:?}");
        assert_eq!(err.to_string(), "background task failed", "{kind:?}");
    }
}

#[test]
fn on_uring_no_blocking_thread_is_started() {
    use rt_io::io::{AsyncReadExt, AsyncSeekExt, AsyncWriteExt};
    use std::io::SeekFrom;
    let Some(runtime) = uring_runtime() else {
        return;
    };
    let dir = ScratchDir::new("uring-no-pool");
    let path = dir.join("f");
    runtime.block_on(async {
        for _ in 0..10 {
            fs::write(&path, b"data").await.unwrap();
            assert_eq!(fs::read(&path).await.unwrap(), b"data");
            fs::metadata(&path).await.unwrap();
        }
        // `File`'s reads, writes, seeks and syncs (opening stays a hop).
        let std = std::fs::File::options().read(true).write(true).open(&path);
        let mut file = fs::File::from_std(std.unwrap());
        file.write_all(b"more data").await.unwrap();
        file.flush().await.unwrap();
        file.sync_data().await.unwrap();
        file.seek(SeekFrom::Start(5)).await.unwrap();
        let mut rest = String::new();
        file.read_to_string(&mut rest).await.unwrap();
        assert_eq!(rest, "data");
        drop(file);
        fs::remove_file(&path).await.unwrap();
    });
    assert_eq!(runtime.metrics().num_blocking_threads(), 0);
}

/// A FIFO: a read from it stays in flight in the kernel until a writer
/// writes or goes away, so the test decides when the operation completes.
struct Fifo {
    _dir: ScratchDir,
    path: std::path::PathBuf,
}

impl Fifo {
    fn new(test: &str) -> Fifo {
        let dir = ScratchDir::new(test);
        let path = dir.join("fifo");
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: `c` is a NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        Fifo { _dir: dir, path }
    }

    /// Opens the write side without blocking: fails with `ENXIO` when no
    /// one holds the read side open.
    fn open_writer(&self) -> std::io::Result<std::fs::File> {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&self.path)
    }

    /// Whether some descriptor still holds the read side open.
    fn has_reader(&self) -> bool {
        match self.open_writer() {
            Ok(_) => true,
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => false,
            Err(e) => panic!("opening the FIFO's write side: {e}"),
        }
    }
}

/// Polls `future` once, inside the runtime, and drops it.
async fn poll_once_and_drop<F: Future>(future: F) {
    let mut future = std::pin::pin!(future);
    std::future::poll_fn(|cx| {
        assert!(future.as_mut().poll(cx).is_pending(), "still in the kernel");
        Poll::Ready(())
    })
    .await;
}

#[test]
fn an_operation_dropped_in_flight_is_released_when_the_kernel_finishes() {
    let Some(runtime) = uring_runtime() else {
        return;
    };
    let fifo = Fifo::new("uring-drop-in-flight");
    // The read side opens at once; its read then waits for data.
    runtime.block_on(poll_once_and_drop(fs::read(&fifo.path)));
    assert!(
        fifo.has_reader(),
        "the dropped read's slot keeps its descriptor"
    );
    // `has_reader` opened a writer and closed it: the read completed (end
    // of file). Dropping the runtime reaps that completion, and the slot's
    // descriptor is closed with the rest of what the dropped operation
    // owned.
    drop(runtime);
    assert!(!fifo.has_reader());
}

#[test]
fn shutdown_with_an_operation_in_flight_drops_its_task() {
    let Some(runtime) = uring_runtime() else {
        return;
    };
    let fifo = Fifo::new("uring-shutdown");
    let path = fifo.path.clone();
    let (started_tx, started_rx) = std::sync::mpsc::channel();
    runtime.spawn(async move {
        let read = fs::read(&path);
        started_tx.send(()).unwrap();
        let _ = read.await;
        unreachable!("the runtime shuts down first");
    });
    runtime.block_on(rt_core::task::yield_now());
    started_rx.try_recv().expect("the task ran up to its read");
    let mut writer = fifo
        .open_writer()
        .expect("the task's read holds the read side");
    writer.write_all(b"x").unwrap();
    drop(writer);
    drop(runtime);
    assert!(!fifo.has_reader());
}

#[test]
fn shutdown_does_not_wait_forever_for_the_kernel() {
    let Some(runtime) = uring_runtime() else {
        return;
    };
    let fifo = Fifo::new("uring-stuck");
    let _writer_keeps_the_read_waiting = {
        runtime.block_on(poll_once_and_drop(fs::read(&fifo.path)));
        fifo.open_writer().unwrap()
    };
    // The read never completes: dropping the runtime waits its bound, then
    // leaks what the operation owns (the kernel may still write into it)
    // and returns.
    drop(runtime);
}
