//! The file system through the runtime: whole small files read and written,
//! metadata queries, many tiny reads through a buffered `File`, and a
//! directory listing.
//!
//! With `RT_IO_DRIVER=uring` in the environment, rt's side runs on the
//! io_uring driver (tokio ignores the variable), which is how the
//! measurements document compares rt on io_uring, rt on epoll and tokio.
//!
//! `fs_read_small_*` read small files at a paced 1,000 reads a second,
//! from `block_on` and from a spawned task: the figure is the process's
//! CPU time per read (recorded by the harness beside the wall time per
//! read, which is the pace), the cost of each read's trip through the
//! blocking pool when the runtime has nothing else to do.
//!
//! Each run works in its own scratch directory under the system temporary
//! directory, filled with `std::fs` before the clock starts and removed
//! after it stops, so only the runtime's file operations are timed.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::build::runtime;
use super::paced::pacer;
use super::tk;
use bench_harness::{Size, Stopwatch};
use tk::io::{AsyncReadExt, BufReader};

/// Bytes in each file of the whole-file workloads.
const SMALL_FILE: usize = 4 * 1024;

/// Bytes per read in the buffered-read workload.
const TINY_READ: usize = 16;

/// 1k files of 4 KiB, each read whole with `fs::read`, one after the other.
pub fn fs_read_files(size: &Size) -> f64 {
    let files = size.count(1_000);
    let dir = ScratchDir::new("read-files");
    let paths = dir.fill(files, &[0x5a; SMALL_FILE]);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let started = Stopwatch::start();
            for path in &paths {
                let contents = tk::fs::read(path).await.expect("file is readable");
                assert_eq!(contents.len(), SMALL_FILE);
            }
            started.elapsed().as_nanos() as f64
        });
        driver.await.expect("driver completes")
    })
}

/// Reads in a sample of the paced small-file workloads: 0.2 s at the pace.
const PACED_READS: usize = 200;

/// 200 files of 4 KiB, each read whole with `fs::read` at 1,000 reads a
/// second, from the future `block_on` runs; the region covers the reads,
/// per read.
pub fn fs_read_small_block_on(size: &Size) -> f64 {
    let reads = size.count(PACED_READS);
    let dir = ScratchDir::new("read-small-block-on");
    let paths = dir.fill(reads, &[0x5a; SMALL_FILE]);
    runtime(size.flavor).block_on(paced_reads(paths))
}

/// The same from inside a spawned task.
pub fn fs_read_small_spawned(size: &Size) -> f64 {
    let reads = size.count(PACED_READS);
    let dir = ScratchDir::new("read-small-spawned");
    let paths = dir.fill(reads, &[0x5a; SMALL_FILE]);
    runtime(size.flavor).block_on(async move {
        let reader = tk::spawn(paced_reads(paths));
        reader.await.expect("reader completes")
    })
}

/// Reads each of `paths` whole, one per tick of the pacer; nanoseconds
/// per read.
async fn paced_reads(paths: Vec<PathBuf>) -> f64 {
    let mut ticks = pacer().await;
    let watch = Stopwatch::start();
    for path in &paths {
        ticks.tick().await;
        let contents = tk::fs::read(path).await.expect("file is readable");
        assert_eq!(contents.len(), SMALL_FILE);
    }
    watch.elapsed_per(paths.len() as u32).as_nanos() as f64
}

/// 1k new files of 4 KiB, each written whole with `fs::write` (no fsync),
/// one after the other.
pub fn fs_write_files(size: &Size) -> f64 {
    let files = size.count(1_000);
    let dir = ScratchDir::new("write-files");
    let paths: Vec<PathBuf> = (0..files).map(|i| dir.file(i)).collect();
    let rt = runtime(size.flavor);
    let elapsed = rt.block_on(async move {
        let driver = tk::spawn(async move {
            let contents = [0x5au8; SMALL_FILE];
            let started = Stopwatch::start();
            for path in &paths {
                tk::fs::write(path, &contents[..])
                    .await
                    .expect("file is writable");
            }
            started.elapsed().as_nanos() as f64
        });
        driver.await.expect("driver completes")
    });
    let written = std::fs::metadata(dir.file(files - 1)).expect("last file exists");
    assert_eq!(written.len(), SMALL_FILE as u64);
    elapsed
}

/// `fs::metadata` of 1k files of 4 KiB, one after the other.
pub fn fs_metadata(size: &Size) -> f64 {
    let files = size.count(1_000);
    let dir = ScratchDir::new("metadata");
    let paths = dir.fill(files, &[0x5a; SMALL_FILE]);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let started = Stopwatch::start();
            for path in &paths {
                let metadata = tk::fs::metadata(path).await.expect("file exists");
                assert_eq!(metadata.len(), SMALL_FILE as u64);
            }
            started.elapsed().as_nanos() as f64
        });
        driver.await.expect("driver completes")
    })
}

/// 100k reads of 16 bytes from one file through `File` wrapped in a
/// `BufReader`, opening the file included.
pub fn fs_buffered_reads(size: &Size) -> f64 {
    let reads = size.count(100_000);
    let dir = ScratchDir::new("buffered-reads");
    let contents: Vec<u8> = (0..reads * TINY_READ).map(|i| i as u8).collect();
    let path = dir.fill(1, &contents).remove(0);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let started = Stopwatch::start();
            let file = tk::fs::File::open(&path).await.expect("file opens");
            let mut reader = BufReader::new(file);
            let mut buf = [0u8; TINY_READ];
            let mut checksum = 0u64;
            for _ in 0..reads {
                reader.read_exact(&mut buf).await.expect("read succeeds");
                checksum += u64::from(buf[TINY_READ - 1]);
            }
            let elapsed = started.elapsed().as_nanos() as f64;
            let expected: u64 = contents
                .chunks(TINY_READ)
                .map(|read| u64::from(read[TINY_READ - 1]))
                .sum();
            assert_eq!(checksum, expected);
            elapsed
        });
        driver.await.expect("driver completes")
    })
}

/// A directory of 1k empty files listed with `read_dir` and `next_entry`.
pub fn fs_read_dir(size: &Size) -> f64 {
    let files = size.count(1_000);
    let dir = ScratchDir::new("read-dir");
    dir.fill(files, &[]);
    let listed = dir.path.clone();
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let started = Stopwatch::start();
            let mut entries = tk::fs::read_dir(&listed).await.expect("directory opens");
            let mut count = 0;
            while let Some(entry) = entries.next_entry().await.expect("entry is readable") {
                std::hint::black_box(entry.file_name());
                count += 1;
            }
            let elapsed = started.elapsed().as_nanos() as f64;
            assert_eq!(count, files);
            elapsed
        });
        driver.await.expect("driver completes")
    })
}

/// A directory of its own under the system temporary directory, removed
/// with everything in it when dropped (also when a run panics).
struct ScratchDir {
    path: PathBuf,
}

impl ScratchDir {
    /// Creates a fresh directory named after `purpose`, the process and a
    /// counter. The counter is per runtime (this file is compiled once for
    /// each), so a name already taken is skipped rather than shared.
    fn new(purpose: &str) -> ScratchDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let base = std::env::temp_dir();
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("rt-bench-{purpose}-{}-{n}", std::process::id()));
            match std::fs::create_dir(&path) {
                Ok(()) => return ScratchDir { path },
                Err(err) if err.kind() == ErrorKind::AlreadyExists => continue,
                Err(err) => panic!("cannot create {}: {err}", path.display()),
            }
        }
    }

    /// The path of the `index`th file.
    fn file(&self, index: usize) -> PathBuf {
        self.path.join(format!("file-{index:05}"))
    }

    /// Creates `count` files holding `contents` and returns their paths.
    fn fill(&self, count: usize, contents: &[u8]) -> Vec<PathBuf> {
        (0..count)
            .map(|i| {
                let path = self.file(i);
                write_file(&path, contents);
                path
            })
            .collect()
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        // Best effort: a leftover directory in the temporary directory is
        // harmless, and panicking in drop would hide the original failure.
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

fn write_file(path: &Path, contents: &[u8]) {
    if let Err(err) = std::fs::write(path, contents) {
        panic!("cannot write {}: {err}", path.display());
    }
}
