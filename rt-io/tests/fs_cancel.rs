//! Abandoned `File` operations: a read or write future dropped after one
//! poll neither loses nor duplicates bytes. Whatever a dropped future's only
//! poll returned is taken as what the caller got; the tests then check that
//! the file's contents, or the bytes read later, fit exactly.

use rt_io::fs::File;
use rt_io::io::{AsyncReadExt, AsyncSeekExt, AsyncWriteExt, SeekFrom};
use rt_test::{pattern, run, run_multi_thread, ScratchDir};
use std::future::{poll_fn, Future};
use std::pin::pin;
use std::task::Poll;

/// Polls `fut` exactly once and drops it, returning what that poll gave.
async fn poll_once<F: Future>(fut: F) -> Poll<F::Output> {
    let mut fut = pin!(fut);
    poll_fn(|cx| Poll::Ready(fut.as_mut().poll(cx))).await
}

#[test]
fn abandoned_reads_lose_nothing() {
    let dir = ScratchDir::new("cancel-read");
    run(async {
        let path = dir.join("f");
        // Miri-sized: still more than one read-ahead (64 KiB).
        let data = pattern(if cfg!(miri) { 100_000 } else { 300_000 });
        std::fs::write(&path, &data).unwrap();
        let mut file = File::open(&path).await.unwrap();
        let mut got = Vec::new();
        let mut buf = [0u8; 1000];
        let mut round = 0usize;
        loop {
            round += 1;
            // Every third read is abandoned after its first poll.
            let n = if round % 3 == 0 {
                match poll_once(file.read(&mut buf)).await {
                    Poll::Ready(n) => n.unwrap(),
                    Poll::Pending => continue,
                }
            } else {
                file.read(&mut buf).await.unwrap()
            };
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        assert_eq!(got, data);
    });
}

#[test]
fn abandoned_writes_lose_and_duplicate_nothing() {
    let dir = ScratchDir::new("cancel-write");
    run(async {
        let path = dir.join("f");
        // Miri-sized: still more than one write batch (64 KiB).
        let data = pattern(if cfg!(miri) { 100_000 } else { 500_000 });
        let mut file = File::create(&path).await.unwrap();
        let mut accepted = 0;
        let mut round = 0usize;
        while accepted < data.len() {
            round += 1;
            let end = (accepted + 7_000 + round % 5_000).min(data.len());
            let chunk = &data[accepted..end];
            // Every other write is abandoned after its first poll: if that
            // poll was ready, its count was accepted; if pending, nothing was.
            let n = if round % 2 == 0 {
                match poll_once(file.write(chunk)).await {
                    Poll::Ready(n) => n.unwrap(),
                    Poll::Pending => 0,
                }
            } else {
                file.write(chunk).await.unwrap()
            };
            accepted += n;
        }
        file.flush().await.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), data);
    });
}

#[test]
#[cfg_attr(miri, ignore = "slow under Miri")]
fn abandoned_write_all_keeps_its_accepted_prefix() {
    let dir = ScratchDir::new("cancel-write-all");
    run(async {
        let path = dir.join("f");
        let data = pattern(3 * 1024 * 1024);
        let mut file = File::create(&path).await.unwrap();
        // One poll of `write_all` accepts some prefix and then waits for the
        // batch it started; the rest is never accepted.
        let _ = poll_once(file.write_all(&data)).await;
        file.flush().await.unwrap();
        let written = std::fs::read(&path).unwrap();
        assert!(!written.is_empty());
        assert_eq!(written[..], data[..written.len()]);
        // Writing the remainder completes the file exactly.
        let meta_len = file.metadata().await.unwrap().len() as usize;
        assert_eq!(meta_len, written.len());
        file.write_all(&data[written.len()..]).await.unwrap();
        file.flush().await.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), data);
    });
}

#[test]
fn an_abandoned_seek_still_completes_before_the_next_operation() {
    let dir = ScratchDir::new("cancel-seek");
    run(async {
        let path = dir.join("f");
        std::fs::write(&path, b"0123456789").unwrap();
        let mut file = File::open(&path).await.unwrap();
        // Learn the position first so the seek future starts the seek on its
        // first poll.
        assert_eq!(file.stream_position().await.unwrap(), 0);
        let _ = poll_once(file.seek(SeekFrom::Start(7))).await;
        let mut rest = Vec::new();
        file.read_to_end(&mut rest).await.unwrap();
        assert_eq!(rest, b"789");
    });
}

#[test]
fn reads_and_writes_abandoned_on_the_multi_thread_runtime() {
    let dir = ScratchDir::new("cancel-multi");
    let path = dir.join("f");
    run_multi_thread(async move {
        let data = pattern(200_000);
        let handle = rt_core::spawn(async move {
            let mut file = File::options()
                .read(true)
                .write(true)
                .create(true)
                .truncate(true)
                .open(&path)
                .await
                .unwrap();
            let mut accepted = 0;
            while accepted < data.len() {
                let end = (accepted + 65_000).min(data.len());
                if let Poll::Ready(n) = poll_once(file.write(&data[accepted..end])).await {
                    accepted += n.unwrap();
                }
                rt_core::task::yield_now().await;
            }
            file.rewind().await.unwrap();
            let mut got = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                match poll_once(file.read(&mut buf)).await {
                    Poll::Ready(n) => {
                        let n = n.unwrap();
                        if n == 0 {
                            break;
                        }
                        got.extend_from_slice(&buf[..n]);
                    }
                    Poll::Pending => rt_core::task::yield_now().await,
                }
            }
            assert_eq!(got, data);
        });
        handle.await.unwrap();
    });
}

#[test]
fn abandoned_next_entry_calls_lose_no_entry() {
    let dir = ScratchDir::new("cancel-read-dir");
    run(async {
        for i in 0..100 {
            std::fs::write(dir.join(&format!("{i:03}")), b"").unwrap();
        }
        let mut entries = rt_io::fs::read_dir(dir.path()).await.unwrap();
        let mut names = std::collections::BTreeSet::new();
        let mut round = 0usize;
        loop {
            round += 1;
            let next = if round % 2 == 0 {
                match poll_once(entries.next_entry()).await {
                    Poll::Ready(next) => next.unwrap(),
                    Poll::Pending => continue,
                }
            } else {
                entries.next_entry().await.unwrap()
            };
            match next {
                Some(entry) => assert!(names.insert(entry.file_name())),
                None => break,
            }
        }
        assert_eq!(names.len(), 100);
    });
}
