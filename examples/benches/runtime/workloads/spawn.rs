//! Spawning: many tasks from inside a task, from outside onto an idle or a
//! busy runtime, from several threads at once, and as a chain where each
//! task spawns the next.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use super::build::runtime;
use super::tk;
use bench_harness::mailbox::Mailbox;
use bench_harness::{timed, Flavor, Size};

/// 10k tasks spawned from inside a task (so onto a worker's local queue),
/// then joined.
pub fn spawn_many_local(size: &Size) -> f64 {
    let tasks = size.count(10_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let spawner = tk::spawn(async move {
                let handles: Vec<_> = (0..tasks).map(|i| tk::spawn(async move { i })).collect();
                for handle in handles {
                    handle.await.expect("task completes");
                }
            });
            spawner.await.expect("spawner completes");
        })
    })
}

/// 10k tasks spawned from a thread outside the runtime while it has nothing
/// else to do, then joined.
pub fn spawn_many_remote_idle(size: &Size) -> f64 {
    let tasks = size.count(10_000);
    let rt = runtime(size.flavor);
    let handle = rt.handle().clone();
    timed(|| {
        let handles: Vec<_> = (0..tasks).map(|i| handle.spawn(async move { i })).collect();
        rt.block_on(async move {
            for handle in handles {
                handle.await.expect("task completes");
            }
        });
    })
}

/// Most yields a busy task makes before it gives up by itself. A scheduler
/// that never looks at its injection queue while local work remains would
/// otherwise hang here; with the cap it finishes, late, and the ratio shows
/// it.
const MAX_BUSY_YIELDS: usize = 200_000;

/// The same, while every worker (or the one thread) is kept busy by tasks
/// that do nothing but yield.
pub fn spawn_many_remote_busy(size: &Size) -> f64 {
    let tasks = size.count(10_000);
    let rt = runtime(size.flavor);
    let busy_tasks = match size.flavor {
        Flavor::CurrentThread => 1,
        Flavor::MultiThread(workers) => workers,
        Flavor::MultiThreadDefault => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let started = Arc::new(AtomicUsize::new(0));
    let busy: Vec<_> = (0..busy_tasks)
        .map(|_| {
            let (stop, started) = (stop.clone(), started.clone());
            rt.spawn(async move {
                started.fetch_add(1, Ordering::Relaxed);
                for _ in 0..MAX_BUSY_YIELDS {
                    if stop.load(Ordering::Relaxed) {
                        return false;
                    }
                    tk::task::yield_now().await;
                }
                true
            })
        })
        .collect();
    if size.flavor != Flavor::CurrentThread {
        // Workers pick the busy tasks up by themselves; wait until they have
        // (the current-thread runtime runs them inside `block_on` below).
        while started.load(Ordering::Relaxed) < busy_tasks {
            std::thread::yield_now();
        }
    }
    let handle = rt.handle().clone();
    let elapsed = timed(|| {
        let handles: Vec<_> = (0..tasks).map(|i| handle.spawn(async move { i })).collect();
        rt.block_on(async move {
            for handle in handles {
                handle.await.expect("task completes");
            }
        });
    });
    stop.store(true, Ordering::Relaxed);
    let capped = rt.block_on(async move {
        let mut capped = false;
        for task in busy {
            capped |= task.await.expect("busy task completes");
        }
        capped
    });
    let flavor_bit = match size.flavor {
        Flavor::CurrentThread => 1,
        Flavor::MultiThread(workers) => 2 << workers.min(62),
        // The bit no worker count takes: counts start at 1.
        Flavor::MultiThreadDefault => 2,
    };
    if capped && CAP_REPORTED.fetch_or(flavor_bit, Ordering::Relaxed) & flavor_bit == 0 {
        let runtime = std::any::type_name::<tk::runtime::Runtime>();
        let crate_name = runtime.split("::").next().unwrap_or(runtime);
        eprint!(
            " [{crate_name}: busy tasks hit the {MAX_BUSY_YIELDS}-yield cap; \
             spawned tasks waited for them to give up] "
        );
    }
    elapsed
}

/// The flavors (one bit each) for which the yield cap warning was printed
/// already: it is printed once per runtime and flavor.
static CAP_REPORTED: AtomicU64 = AtomicU64::new(0);

/// 10k tasks spawned from four threads outside the runtime at once, then
/// joined.
pub fn remote_spawn_threads(size: &Size) -> f64 {
    const THREADS: usize = 4;
    let per_thread = size.count(10_000) / THREADS;
    let rt = runtime(size.flavor);
    timed(|| {
        let handles: Vec<_> = std::thread::scope(|scope| {
            let spawners: Vec<_> = (0..THREADS)
                .map(|_| {
                    let handle = rt.handle().clone();
                    scope.spawn(move || {
                        (0..per_thread)
                            .map(|i| handle.spawn(async move { i }))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            spawners
                .into_iter()
                .flat_map(|s| s.join().expect("spawner thread"))
                .collect()
        });
        rt.block_on(async move {
            for handle in handles {
                handle.await.expect("task completes");
            }
        });
    })
}

/// Ten chains, one after the other, in which each of 1k tasks spawns the
/// next and the last one reports back.
pub fn chained_spawn(size: &Size) -> f64 {
    const CHAINS: usize = 10;
    let depth = size.count(1_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let done = Mailbox::new();
            for _ in 0..CHAINS {
                let link_done = done.clone();
                tk::spawn(async move { next_link(link_done, depth) });
                done.recv().await;
            }
        })
    })
}

/// Spawns the next task of a chain, or reports the end of it.
fn next_link(done: Mailbox<()>, left: usize) {
    if left == 0 {
        done.send(());
    } else {
        tk::spawn(async move { next_link(done, left - 1) });
    }
}
