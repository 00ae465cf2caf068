//! `rt_io::fs::File`: opening, reading, writing and seeking through its
//! buffers, the `&self` methods, conversion to and from `std::fs::File`, and
//! files used from several tasks at once.

use rt_io::fs::{self, File, OpenOptions};
use rt_io::io::{AsyncReadExt, AsyncSeekExt, AsyncWriteExt, ErrorKind, SeekFrom};
use rt_test::{pattern, run, run_multi_thread, ScratchDir};

/// Opens the existing file at `path` for reading and writing.
async fn open_read_write(path: &std::path::Path) -> File {
    OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .await
        .unwrap()
}

#[test]
fn create_write_flush_then_open_and_read() {
    let dir = ScratchDir::new("file-roundtrip");
    run(async {
        let path = dir.join("f");
        let mut file = File::create(&path).await.unwrap();
        file.write_all(b"hello ").await.unwrap();
        file.write_all(b"world").await.unwrap();
        file.flush().await.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"hello world");

        let mut file = File::open(&path).await.unwrap();
        let mut text = String::new();
        file.read_to_string(&mut text).await.unwrap();
        assert_eq!(text, "hello world");
        // At end of file reads return 0, again and again.
        assert_eq!(file.read(&mut [0u8; 4]).await.unwrap(), 0);
        assert_eq!(file.read(&mut [0u8; 4]).await.unwrap(), 0);
    });
}

#[test]
fn open_errors_keep_their_kind() {
    let dir = ScratchDir::new("file-open-errors");
    run(async {
        let path = dir.join("f");
        assert_eq!(
            File::open(&path).await.unwrap_err().kind(),
            ErrorKind::NotFound
        );
        File::create_new(&path).await.unwrap();
        assert_eq!(
            File::create_new(&path).await.unwrap_err().kind(),
            ErrorKind::AlreadyExists
        );
        let err = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::AlreadyExists);
        // Contradictory options are rejected by the OS layer, not a panic.
        let err = OpenOptions::new()
            .read(true)
            .truncate(true)
            .open(&path)
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        assert_eq!(
            File::options()
                .read(true)
                .open(dir.join("none"))
                .await
                .unwrap_err()
                .kind(),
            ErrorKind::NotFound
        );
    });
}

#[test]
fn open_options_append_and_truncate() {
    let dir = ScratchDir::new("file-options");
    run(async {
        let path = dir.join("log");
        let mut log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .await
            .unwrap();
        log.write_all(b"one\n").await.unwrap();
        log.flush().await.unwrap();
        drop(log);
        let mut log = File::options().append(true).open(&path).await.unwrap();
        log.write_all(b"two\n").await.unwrap();
        log.flush().await.unwrap();
        assert_eq!(fs::read(&path).await.unwrap(), b"one\ntwo\n");

        let mut file = OpenOptions::from({
            let mut std = std::fs::OpenOptions::new();
            std.write(true).truncate(true);
            std
        })
        .open(&path)
        .await
        .unwrap();
        file.write_all(b"x").await.unwrap();
        file.shutdown().await.unwrap();
        assert_eq!(fs::read(&path).await.unwrap(), b"x");
    });
}

#[test]
fn many_small_reads_return_every_byte_in_order() {
    let dir = ScratchDir::new("file-small-reads");
    run(async {
        let path = dir.join("f");
        // Miri-sized: still more than one read-ahead (64 KiB).
        let data = pattern(if cfg!(miri) { 70_000 } else { 200_000 });
        std::fs::write(&path, &data).unwrap();
        let mut file = File::open(&path).await.unwrap();
        let mut out = Vec::new();
        let mut chunk = [0u8; 16];
        loop {
            let n = file.read(&mut chunk).await.unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&chunk[..n]);
        }
        assert_eq!(out, data);
    });
}

#[test]
#[cfg_attr(miri, ignore = "slow under Miri")]
fn large_reads_and_writes_pass_the_buffer_limits() {
    let dir = ScratchDir::new("file-large");
    run(async {
        let path = dir.join("f");
        let data = pattern(5 * 1024 * 1024 + 17);
        let mut file = File::create(&path).await.unwrap();
        file.write_all(&data).await.unwrap();
        file.flush().await.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), data);

        let mut file = File::open(&path).await.unwrap();
        let mut out = vec![0u8; data.len()];
        file.read_exact(&mut out).await.unwrap();
        assert_eq!(out, data);
        assert_eq!(file.read(&mut [0u8; 1]).await.unwrap(), 0);
    });
}

#[test]
fn small_max_buf_size_still_moves_every_byte() {
    let dir = ScratchDir::new("file-max-buf");
    run(async {
        let path = dir.join("f");
        // Miri-sized: each few bytes are a job on the blocking pool.
        let data = pattern(if cfg!(miri) { 1_000 } else { 10_000 });
        let mut file = File::create(&path).await.unwrap();
        file.set_max_buf_size(7);
        file.write_all(&data).await.unwrap();
        file.flush().await.unwrap();
        let mut file = File::open(&path).await.unwrap();
        file.set_max_buf_size(13);
        let mut out = Vec::new();
        file.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, data);
    });
}

#[test]
fn seek_then_read_and_write_go_to_the_right_place() {
    let dir = ScratchDir::new("file-seek");
    run(async {
        let path = dir.join("f");
        std::fs::write(&path, b"0123456789").unwrap();
        let mut file = open_read_write(&path).await;

        let mut two = [0u8; 2];
        file.read_exact(&mut two).await.unwrap();
        assert_eq!(&two, b"01");
        // The read-ahead holds the whole file; the position is still 2.
        assert_eq!(file.stream_position().await.unwrap(), 2);
        assert_eq!(file.seek(SeekFrom::Current(3)).await.unwrap(), 5);
        file.read_exact(&mut two).await.unwrap();
        assert_eq!(&two, b"56");

        // A write after a read lands right after the bytes read, not after
        // the read-ahead.
        file.write_all(b"ab").await.unwrap();
        file.flush().await.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"0123456ab9");

        // A read after a write sees the written bytes' successor.
        file.seek(SeekFrom::Start(1)).await.unwrap();
        file.write_all(b"X").await.unwrap();
        let mut one = [0u8; 1];
        file.read_exact(&mut one).await.unwrap();
        assert_eq!(&one, b"2");
        file.flush().await.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"0X23456ab9");

        // Seek with buffered writes writes them first.
        file.seek(SeekFrom::End(0)).await.unwrap();
        file.write_all(b"END").await.unwrap();
        assert_eq!(file.seek(SeekFrom::Start(0)).await.unwrap(), 0);
        let mut all = Vec::new();
        file.read_to_end(&mut all).await.unwrap();
        assert_eq!(all, b"0X23456ab9END");
        assert_eq!(file.seek(SeekFrom::End(-3)).await.unwrap(), 10);
        file.rewind().await.unwrap();
        assert_eq!(file.stream_position().await.unwrap(), 0);

        // Seeking before the start is an error, not a panic.
        let err = file.seek(SeekFrom::Current(-1)).await.unwrap_err();
        #[cfg(not(windows))]
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        // Windows reports ERROR_NEGATIVE_SEEK, which std leaves
        // uncategorised.
        #[cfg(windows)]
        assert_eq!(err.raw_os_error(), Some(131));
        // The file stays usable.
        file.rewind().await.unwrap();
        file.read_exact(&mut two).await.unwrap();
        assert_eq!(&two, b"0X");
    });
}

#[test]
fn set_len_sync_and_metadata_see_buffered_writes() {
    let dir = ScratchDir::new("file-set-len");
    run(async {
        let path = dir.join("f");
        let mut file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .await
            .unwrap();
        file.write_all(b"abcdef").await.unwrap();
        // metadata waits for the buffered bytes.
        assert_eq!(file.metadata().await.unwrap().len(), 6);
        file.write_all(b"gh").await.unwrap();
        file.sync_all().await.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"abcdefgh");
        file.write_all(b"ij").await.unwrap();
        file.sync_data().await.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"abcdefghij");

        file.set_len(4).await.unwrap();
        assert_eq!(file.metadata().await.unwrap().len(), 4);
        file.rewind().await.unwrap();
        let mut out = Vec::new();
        file.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, b"abcd");
        file.set_len(6).await.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"abcd\0\0");

        // set_len on a read-only file fails with the OS error.
        let ro = File::open(&path).await.unwrap();
        assert!(ro.set_len(0).await.is_err());
    });
}

#[test]
fn set_len_discards_stale_read_ahead() {
    let dir = ScratchDir::new("file-set-len-read-ahead");
    run(async {
        let path = dir.join("f");
        std::fs::write(&path, b"0123456789").unwrap();
        let mut file = open_read_write(&path).await;
        let mut two = [0u8; 2];
        file.read_exact(&mut two).await.unwrap();
        file.set_len(4).await.unwrap();
        let mut rest = Vec::new();
        file.read_to_end(&mut rest).await.unwrap();
        assert_eq!(rest, b"23");
    });
}

#[test]
fn try_clone_shares_the_cursor_and_set_permissions_works() {
    let dir = ScratchDir::new("file-clone");
    run(async {
        let path = dir.join("f");
        let mut file = File::create(&path).await.unwrap();
        file.write_all(b"first").await.unwrap();
        let mut clone = file.try_clone().await.unwrap();
        clone.write_all(b"second").await.unwrap();
        clone.flush().await.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"firstsecond");

        let mut perm = file.metadata().await.unwrap().permissions();
        perm.set_readonly(true);
        file.set_permissions(perm).await.unwrap();
        assert!(fs::metadata(&path).await.unwrap().permissions().readonly());
    });
}

#[test]
fn into_std_and_from_std_keep_the_position() {
    let dir = ScratchDir::new("file-std");
    run(async {
        let path = dir.join("f");
        std::fs::write(&path, b"0123456789").unwrap();
        let mut file = open_read_write(&path).await;
        let mut three = [0u8; 3];
        file.read_exact(&mut three).await.unwrap();
        file.write_all(b"abc").await.unwrap();
        let mut std = file.into_std().await;
        assert_eq!(std::io::Seek::stream_position(&mut std).unwrap(), 6);
        assert_eq!(std::fs::read(&path).unwrap(), b"012abc6789");

        let mut file = File::from_std(std);
        let mut rest = Vec::new();
        file.read_to_end(&mut rest).await.unwrap();
        assert_eq!(rest, b"6789");

        // try_into_std undoes read-ahead without a hop.
        let mut file = File::from(std::fs::File::open(&path).unwrap());
        file.read_exact(&mut three).await.unwrap();
        let mut std = file.try_into_std().unwrap();
        assert_eq!(std::io::Seek::stream_position(&mut std).unwrap(), 3);

        // ... but refuses while bytes wait to be written.
        let mut file = File::create(dir.join("g")).await.unwrap();
        file.write_all(b"pending").await.unwrap();
        let mut file = file.try_into_std().unwrap_err();
        file.flush().await.unwrap();
        assert!(file.try_into_std().is_ok());
        assert_eq!(std::fs::read(dir.join("g")).unwrap(), b"pending");
    });
}

#[test]
fn dropping_a_file_writes_out_its_buffer() {
    let dir = ScratchDir::new("file-drop");
    let path = dir.join("f");
    let data = pattern(1000);
    run(async {
        let mut file = File::create(&path).await.unwrap();
        file.write_all(&data).await.unwrap();
        // Dropped with bytes buffered: `drop` writes them.
        drop(file);
        assert_eq!(fs::read(&path).await.unwrap(), data);
    });
    assert_eq!(std::fs::read(&path).unwrap(), data);

    // Also outside any runtime.
    let rt = rt_core::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let file = rt.block_on(async {
        let mut file = File::create(&path).await.unwrap();
        file.write_all(b"inline").await.unwrap();
        file
    });
    drop(rt);
    drop(file);
    assert_eq!(std::fs::read(&path).unwrap(), b"inline");
}

#[test]
fn write_errors_surface_on_flush() {
    let dir = ScratchDir::new("file-write-error");
    run(async {
        // A file opened read-only accepts bytes into its buffer, and the
        // failure to write them shows on flush, with the OS's kind.
        let path = dir.join("f");
        std::fs::write(&path, b"x").unwrap();
        let mut file = File::open(&path).await.unwrap();
        assert_eq!(file.write(b"data").await.unwrap(), 4);
        let err = file.flush().await.unwrap_err();
        assert_ne!(err.kind(), ErrorKind::Other);
        // The error is reported once; the file keeps working.
        file.flush().await.unwrap();
        let mut out = Vec::new();
        file.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, b"x");
    });
}

#[test]
fn many_files_read_and_written_concurrently() {
    let dir = ScratchDir::new("file-concurrent");
    let root = dir.path().to_owned();
    run_multi_thread(async move {
        let mut tasks = Vec::new();
        let len = if cfg!(miri) { 10_000 } else { 100_000 };
        for i in 0..8usize {
            let path = root.join(format!("f{i}"));
            tasks.push(rt_core::spawn(async move {
                let data: Vec<u8> = pattern(len + i * 1000)
                    .into_iter()
                    .map(|b| b ^ i as u8)
                    .collect();
                let mut file = File::create(&path).await.unwrap();
                for chunk in data.chunks(333) {
                    file.write_all(chunk).await.unwrap();
                }
                file.flush().await.unwrap();
                drop(file);
                let mut file = File::open(&path).await.unwrap();
                let mut out = Vec::new();
                let mut buf = [0u8; 100];
                loop {
                    let n = file.read(&mut buf).await.unwrap();
                    if n == 0 {
                        break;
                    }
                    out.extend_from_slice(&buf[..n]);
                }
                assert_eq!(out, data);
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
    });
}

#[test]
fn shared_file_methods_run_from_several_tasks() {
    let dir = ScratchDir::new("file-shared");
    let path = dir.join("f");
    run_multi_thread(async move {
        let mut file = File::create(&path).await.unwrap();
        file.write_all(&pattern(100_000)).await.unwrap();
        let file = std::sync::Arc::new(file);
        let mut tasks = Vec::new();
        for i in 0..6 {
            let file = file.clone();
            tasks.push(rt_core::spawn(async move {
                match i % 3 {
                    0 => assert_eq!(file.metadata().await.unwrap().len(), 100_000),
                    1 => file.sync_data().await.unwrap(),
                    _ => file.sync_all().await.unwrap(),
                }
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
    });
}

#[test]
fn reads_served_from_memory_still_yield_to_other_tasks() {
    let dir = ScratchDir::new("file-budget");
    let path = dir.join("data");
    std::fs::write(&path, pattern(64 * 1024)).unwrap();
    run(async move {
        let mut file = File::open(&path).await.unwrap();
        let mut byte = [0u8; 1];
        // The first read fetches the whole file ahead through the pool;
        // every later one is served from memory and is always ready.
        file.read_exact(&mut byte).await.unwrap();
        let other_ran = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = other_ran.clone();
        // Queued behind the reader on this single thread: it runs only if
        // the reader yields.
        let other = rt_core::spawn(async move {
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        let mut yielded_at = None;
        // Miri-sized: still more reads than the budget allows between yields.
        let reads = if cfg!(miri) { 5_000 } else { 60_000 };
        for i in 0..reads {
            file.read_exact(&mut byte).await.unwrap();
            if yielded_at.is_none() && other_ran.load(std::sync::atomic::Ordering::SeqCst) {
                yielded_at = Some(i);
            }
        }
        other.await.unwrap();
        // 128 budget units at 16 reads each, give or take the units spent
        // before the loop.
        let at = yielded_at.expect("the ready reads never yielded");
        assert!(at <= 2 * 128 * 16, "yielded only after {at} ready reads");
    });
}

#[test]
fn set_times_and_set_modified_after_buffered_writes() {
    use std::time::{Duration, SystemTime};
    let dir = ScratchDir::new("file-times");
    run(async {
        let path = dir.join("f");
        let mut file = File::create(&path).await.unwrap();
        // A buffered write must reach the file first, or it would move the
        // modification time after it was set.
        file.write_all(b"buffered").await.unwrap();
        let accessed = SystemTime::UNIX_EPOCH + Duration::from_secs(1_600_000_000);
        let modified = SystemTime::UNIX_EPOCH + Duration::from_secs(1_500_000_000);
        let times = fs::FileTimes::new()
            .set_accessed(accessed)
            .set_modified(modified);
        file.set_times(times).await.unwrap();
        let meta = file.metadata().await.unwrap();
        assert_eq!(meta.len(), 8);
        assert_eq!(meta.accessed().unwrap(), accessed);
        assert_eq!(meta.modified().unwrap(), modified);

        let later = modified + Duration::from_secs(60);
        file.set_modified(later).await.unwrap();
        let meta = file.metadata().await.unwrap();
        assert_eq!(meta.modified().unwrap(), later);
        assert_eq!(meta.accessed().unwrap(), accessed);
    });
}

#[test]
fn max_buf_size_reads_back_and_survives_try_clone() {
    let dir = ScratchDir::new("file-max-buf");
    run(async {
        let mut file = File::create(dir.join("f")).await.unwrap();
        file.set_max_buf_size(128);
        assert_eq!(file.max_buf_size(), 128);
        assert_eq!(file.try_clone().await.unwrap().max_buf_size(), 128);
    });
}

#[cfg(unix)]
#[test]
fn from_raw_fd_takes_over_a_descriptor() {
    use std::os::fd::{FromRawFd, IntoRawFd};
    let dir = ScratchDir::new("file-from-raw");
    let path = dir.join("f");
    std::fs::write(&path, b"raw").unwrap();
    run(async {
        let raw = std::fs::File::open(&path).unwrap().into_raw_fd();
        // SAFETY: `raw` was just released by the file that owned it.
        let mut file = unsafe { File::from_raw_fd(raw) };
        let mut text = String::new();
        file.read_to_string(&mut text).await.unwrap();
        assert_eq!(text, "raw");
    });
}

#[test]
fn write_vectored_takes_every_slice() {
    use std::io::IoSlice;
    let dir = ScratchDir::new("file-vectored");
    run(async {
        let path = dir.join("f");
        let mut file = File::create(&path).await.unwrap();
        let bufs = [
            IoSlice::new(b"hello "),
            IoSlice::new(b""),
            IoSlice::new(b"world"),
        ];
        assert_eq!(file.write_vectored(&bufs).await.unwrap(), 11);
        // With a one-byte limit, each call takes what fits and stops.
        file.set_max_buf_size(1);
        let mut written = 0;
        let tail = [IoSlice::new(b"!"), IoSlice::new(b"?")];
        while written < 2 {
            let left: Vec<IoSlice<'_>> = match written {
                0 => tail.to_vec(),
                _ => vec![IoSlice::new(b"?")],
            };
            written += file.write_vectored(&left).await.unwrap();
        }
        file.flush().await.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"hello world!?");
    });
}
