//! The blocking pool: batches of short closures sent to it and awaited.

use super::build::runtime;
use super::tk;
use bench_harness::{Size, Stopwatch};

/// Closures per batch: a few more than the cores, so the pool runs several
/// threads but thread creation does not dominate.
const BATCH: usize = 16;

/// 50 batches of 16 `spawn_blocking` closures, each batch awaited before the
/// next. One untimed batch first starts the pool's threads.
pub fn spawn_blocking_batches(size: &Size) -> f64 {
    let batches = size.count(50);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            run_batch().await;
            let started = Stopwatch::start();
            for _ in 0..batches {
                run_batch().await;
            }
            started.elapsed().as_nanos() as f64
        });
        driver.await.expect("driver completes")
    })
}

async fn run_batch() {
    let handles: Vec<_> = (0..BATCH)
        .map(|i| tk::task::spawn_blocking(move || std::hint::black_box(i * 2)))
        .collect();
    for handle in handles {
        handle.await.expect("blocking closure completes");
    }
}
