//! Many small sequential reads of one file, three ways: `rt::fs::File` and
//! `tokio::fs::File` on a current-thread runtime, and `std::fs::File`
//! behind a `std::io::BufReader` as the reference for what the OS and a
//! plain buffer cost (tokio #3664: async file I/O that pays a thread hop
//! per small read is 25-64x slower than this).
//!
//! Each sample opens the file and reads it 16 bytes at a time with
//! `read_exact` (100k reads, 1.6 MB); the samples alternate.
//!
//! ```text
//! cargo bench -p examples --bench fs_vs_std [-- --samples N | --smoke]
//! ```

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::OnceLock;

use bench_harness::timed;
use bench_harness::versus::{self, Contestant, Versus};

/// Bytes per read.
const READ_LEN: usize = 16;

/// Reads per sample in a measured run, and in a smoke run.
const READS: usize = 100_000;
const SMOKE_READS: usize = 1_000;

/// The contestants; the last is the reference.
const READERS: [Contestant; 3] = [
    ("rt::fs::File", rt_reads),
    ("tokio::fs::File", tokio_reads),
    ("std BufReader<File>", std_reads),
];

/// The data file, written once per process (as large as a measured run
/// needs) and removed at exit by `main`.
fn data_file() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let path = std::env::temp_dir().join(format!("rt-fs-vs-std-{}", std::process::id()));
        let data: Vec<u8> = (0..READS * READ_LEN).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, data).expect("the temp directory is writable");
        path
    })
}

fn rt_reads(reads: usize) -> f64 {
    let rt = rt::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime builds");
    rt.block_on(async {
        use rt::io::AsyncReadExt;
        timed_async(async {
            let mut file = rt::fs::File::open(data_file()).await.expect("opens");
            let mut buf = [0u8; READ_LEN];
            let mut sum = 0u64;
            for _ in 0..reads {
                file.read_exact(&mut buf).await.expect("reads");
                sum += u64::from(buf[0]);
            }
            std::hint::black_box(sum);
        })
        .await
    })
}

fn tokio_reads(reads: usize) -> f64 {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime builds");
    rt.block_on(async {
        use tokio::io::AsyncReadExt;
        timed_async(async {
            let mut file = tokio::fs::File::open(data_file()).await.expect("opens");
            let mut buf = [0u8; READ_LEN];
            let mut sum = 0u64;
            for _ in 0..reads {
                file.read_exact(&mut buf).await.expect("reads");
                sum += u64::from(buf[0]);
            }
            std::hint::black_box(sum);
        })
        .await
    })
}

fn std_reads(reads: usize) -> f64 {
    timed(|| {
        let file = std::fs::File::open(data_file()).expect("opens");
        let mut file = std::io::BufReader::new(file);
        let mut buf = [0u8; READ_LEN];
        let mut sum = 0u64;
        for _ in 0..reads {
            file.read_exact(&mut buf).expect("reads");
            sum += u64::from(buf[0]);
        }
        std::hint::black_box(sum);
    })
}

/// Nanoseconds `fut` takes, measured inside the runtime so that building
/// and dropping it is not counted.
async fn timed_async(fut: impl std::future::Future<Output = ()>) -> f64 {
    let start = std::time::Instant::now();
    fut.await;
    start.elapsed().as_nanos() as f64
}

fn main() -> ExitCode {
    let code = versus::main(&Versus {
        name: "fs_vs_std",
        title: format!("{READS} sequential reads of {READ_LEN} bytes from one file"),
        contestants: &READERS,
        size: READS,
        smoke_size: SMOKE_READS,
        per: "read",
    });
    let _ = std::fs::remove_file(data_file());
    code
}
