//! The workload, written once against the crate alias `tk`: build the
//! runtime, spawn the tasks, wait until each is parked in its sleep.

use std::future::{poll_fn, Future};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

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
            tk::spawn(async move {
                let sleep = tk::time::sleep(FAR);
                tk::pin!(sleep);
                // Registered with the timer, then counted.
                poll_fn(|cx| {
                    let _ = sleep.as_mut().poll(cx);
                    Poll::Ready(())
                })
                .await;
                parked.fetch_add(1, Ordering::Relaxed);
                sleep.await;
            });
        }
        while parked.load(Ordering::Relaxed) < tasks {
            tk::task::yield_now().await;
        }
        rss()
    });
    std::mem::forget(rt);
    (before, after)
}
