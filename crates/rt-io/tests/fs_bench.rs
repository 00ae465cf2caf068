//! A timing of many small sequential reads, `std::fs::File` against
//! `rt_io::fs::File` on a current-thread runtime. Ignored by default; run it
//! with
//!
//! ```text
//! cargo test --release -p rt-io --test fs_bench -- --ignored --nocapture
//! ```

mod fs_util;

use fs_util::{pattern, Scratch};
use rt_io::io::AsyncReadExt;
use std::io::Read;
use std::time::{Duration, Instant};

const READS: usize = 100_000;
const READ_LEN: usize = 16;

fn time_std(path: &std::path::Path) -> Duration {
    let start = Instant::now();
    let mut file = std::fs::File::open(path).unwrap();
    let mut buf = [0u8; READ_LEN];
    let mut sum = 0u64;
    for _ in 0..READS {
        file.read_exact(&mut buf).unwrap();
        sum += u64::from(buf[0]);
    }
    std::hint::black_box(sum);
    start.elapsed()
}

fn time_std_buffered(path: &std::path::Path) -> Duration {
    let start = Instant::now();
    let mut file = std::io::BufReader::with_capacity(64 * 1024, std::fs::File::open(path).unwrap());
    let mut buf = [0u8; READ_LEN];
    let mut sum = 0u64;
    for _ in 0..READS {
        file.read_exact(&mut buf).unwrap();
        sum += u64::from(buf[0]);
    }
    std::hint::black_box(sum);
    start.elapsed()
}

fn time_rt(path: &std::path::Path) -> Duration {
    let rt = rt_core::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let start = Instant::now();
        let mut file = rt_io::fs::File::open(path).await.unwrap();
        let mut buf = [0u8; READ_LEN];
        let mut sum = 0u64;
        for _ in 0..READS {
            file.read_exact(&mut buf).await.unwrap();
            sum += u64::from(buf[0]);
        }
        std::hint::black_box(sum);
        start.elapsed()
    })
}

#[test]
#[ignore = "timing; run with --release --ignored --nocapture"]
fn small_sequential_reads_rt_vs_std() {
    let dir = Scratch::new("bench");
    let path = dir.join("data");
    std::fs::write(&path, pattern(READS * READ_LEN)).unwrap();
    // Warm the page cache and both code paths, then take the best of five.
    let std_time = (0..5).map(|_| time_std(&path)).min().unwrap();
    let buffered_time = (0..5).map(|_| time_std_buffered(&path)).min().unwrap();
    let rt_time = (0..5).map(|_| time_rt(&path)).min().unwrap();
    let ratio = rt_time.as_secs_f64() / std_time.as_secs_f64();
    let buffered_ratio = rt_time.as_secs_f64() / buffered_time.as_secs_f64();
    println!(
        "{READS} reads of {READ_LEN} bytes: std::fs::File {std_time:?}, rt::fs::File {rt_time:?}, \
         rt/std = {ratio:.3}; std BufReader(64 KiB) {buffered_time:?}, rt/BufReader = {buffered_ratio:.2}"
    );
}
