//! The workload, written once against the crate alias `tk`: build the
//! runtime, spawn the tasks, wait until each is parked in its sleep.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::far_sleep::sleep_after_registering;
use super::tk;

/// Far enough that no sleep fires while it is measured.
const FAR: Duration = Duration::from_secs(3600);

/// Builds the runtime (`workers` 0: current-thread), reads `rss` once
/// before spawning `tasks` sleeping tasks and once after they are all
/// parked, and returns both readings. The runtime is leaked: the process
/// exits right after.
pub fn hold(workers: usize, tasks: usize, rss: fn() -> u64) -> (u64, u64) {
    let built = if workers == 0 {
        tk::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tk::runtime::Builder::new_multi_thread()
            .worker_threads(workers)
            .enable_all()
            .build()
    };
    let rt = built.expect("the runtime builds");
    let before = rss();
    let parked = Arc::new(AtomicUsize::new(0));
    let after = rt.block_on(async move {
        for _ in 0..tasks {
            let parked = parked.clone();
            tk::spawn(sleep_after_registering(FAR, move || {
                parked.fetch_add(1, Ordering::Relaxed);
            }));
        }
        while parked.load(Ordering::Relaxed) < tasks {
            tk::task::yield_now().await;
        }
        rss()
    });
    std::mem::forget(rt);
    (before, after)
}
