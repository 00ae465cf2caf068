//! Leak check for the multi-thread runtime: after 100k tasks (200 under
//! Miri) spawned from several threads and joined, and after the runtime is
//! dropped, every allocation made since just before it was built has been
//! freed.
//!
//! Allocations happen on worker threads, so the whole process is counted;
//! this binary therefore runs without the test harness (whose own threads
//! would allocate during the measurement) and prints the plain
//! "N passed, N failed" line.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::{mpsc, Arc};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is forwarded unchanged to `System`; the counter has no
// effect on the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract, passed on.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            LIVE.fetch_add(1, Ordering::SeqCst);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(1, Ordering::SeqCst);
        // SAFETY: same contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Tasks each of the four spawning threads spawns and joins: Miri
/// interprets a few dozen in the time the native run takes for all.
const PER_SPAWNER: u64 = if cfg!(miri) { 50 } else { 25_000 };

/// Tasks left pending when the runtime drops.
const PENDING: usize = if cfg!(miri) { 20 } else { 1_000 };

fn run_workload() {
    let rt = rt_core::runtime::Builder::new_multi_thread()
        .worker_threads(3)
        .build()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let spawners: Vec<_> = (0..4)
        .map(|_| {
            let handle = rt.handle().clone();
            let tx = tx.clone();
            std::thread::spawn(move || {
                let handles: Vec<_> = (0..PER_SPAWNER)
                    .map(|i| handle.spawn(async move { Arc::new(i) }))
                    .collect();
                let sum: u64 = handle.block_on(async move {
                    let mut sum = 0;
                    for h in handles {
                        sum += *h.await.unwrap();
                    }
                    sum
                });
                tx.send(sum).unwrap();
            })
        })
        .collect();
    for s in spawners {
        s.join().unwrap();
    }
    drop(tx);
    let total: u64 = rx.iter().sum();
    assert_eq!(total, 4 * ((PER_SPAWNER - 1) * PER_SPAWNER / 2));
    // Leave some tasks pending: the drop must free them too.
    for _ in 0..PENDING {
        drop(rt.spawn(std::future::pending::<()>()));
    }
    drop(rt);
}

fn main() {
    // Warm up once: thread-locals and lazily allocated process state
    // (thread names, TLS destructors lists) allocate on first use.
    run_workload();
    let before = LIVE.load(Ordering::SeqCst);
    run_workload();
    let after = LIVE.load(Ordering::SeqCst);
    // Worker threads are joined by the runtime's drop; their thread-local
    // state is freed as they exit. Allow a handful of allocations of
    // process-wide state that the runtime does not own (e.g. the thread
    // spawn machinery's caches), but nothing proportional to the tasks.
    let leaked = after - before;
    if leaked.abs() <= 16 {
        println!("alloc_multi_thread: no leak ({leaked} allocations of difference)");
        println!("1 passed, 0 failed");
    } else {
        println!("alloc_multi_thread: {leaked} allocations still live after the runtime dropped");
        println!("0 passed, 1 failed");
        std::process::exit(1);
    }
}
