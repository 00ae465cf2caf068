//! Memory: heap bytes per spawned task that is alive but idle.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::build::runtime;
use super::tk;
use bench_harness::alloc::Counter;
use bench_harness::Size;

/// Spawns 10k tasks that each poll once and then wait forever, and divides
/// the heap growth by the task count. The growth includes everything the
/// runtime allocates for them (task cells, queue capacity, owned-task
/// lists); the runtime is warmed with one batch of tasks first so that
/// one-time structures are not counted.
pub fn idle_task_bytes(size: &Size) -> f64 {
    let tasks = size.count(10_000);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let warm: Vec<_> = (0..tasks).map(|i| tk::spawn(async move { i })).collect();
        for handle in warm {
            handle.await.expect("warm-up task completes");
        }
    });
    let polled = Arc::new(AtomicUsize::new(0));
    let counter = Counter::start();
    rt.block_on(async {
        for _ in 0..tasks {
            let polled = polled.clone();
            // The handle is dropped: the task stays alive, detached.
            drop(tk::spawn(async move {
                polled.fetch_add(1, Ordering::Relaxed);
                std::future::pending::<()>().await
            }));
        }
        while polled.load(Ordering::Relaxed) < tasks {
            tk::task::yield_now().await;
        }
    });
    let bytes = counter.net_bytes();
    drop(counter);
    drop(rt);
    bytes as f64 / tasks as f64
}
