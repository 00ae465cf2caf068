//! A task dump with traces gives back its memory: the heap in use after the
//! process's first dump, once the dump is dropped, is within a small bound
//! of what it was before, the symbolizer's parsed debug info included.
//!
//! One test in this binary, so that the dump it measures is the process's
//! first. The counting allocator is rt-test's (it counts every thread
//! while a `Counter` is alive); the runtime is a current-thread one
//! without blocking work, and the harness's own thread only waits for the
//! test meanwhile.

use rt_core::runtime::Handle;
use rt_core::task::JoinHandle;
use rt_test::alloc::{Counter, CountingAlloc};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

#[global_allocator]
static ALLOCATOR: CountingAlloc = CountingAlloc;

/// What a dump may keep: the bounded cache of resolved addresses (under
/// 64 KiB) and the symbolizer's list of loaded objects, with slack.
const KEPT_BOUND: isize = 256 * 1024;

/// Miri-sized: each task's trace is slow to take under Miri.
const TASKS: usize = if cfg!(miri) { 10 } else { 100 };

async fn outer_wait(join: JoinHandle<()>, started: Arc<AtomicUsize>) {
    inner_wait(join, started).await;
}

async fn inner_wait(join: JoinHandle<()>, started: Arc<AtomicUsize>) {
    started.fetch_add(1, Ordering::SeqCst);
    join.await.unwrap();
}

/// Takes a dump, checks that each waiter's trace names both async fns,
/// drops it and returns the bytes in use then minus before the dump.
fn dump_and_drop() -> isize {
    let counter = Counter::start();
    let dump = Handle::current().dump();
    let waiters = dump
        .tasks()
        .iter()
        .filter_map(|t| t.trace())
        .filter(|trace| {
            // Miri names frames without their crate's path.
            let path = if cfg!(miri) { "" } else { "dump_memory::" };
            let text = trace.to_string();
            text.contains(&format!("{path}inner_wait"))
                && text.contains(&format!("{path}outer_wait"))
        })
        .count();
    assert_eq!(waiters, TASKS, "{}", dump_text(&dump));
    drop(dump);
    counter.net_bytes()
}

fn dump_text(dump: &rt_core::task::Dump) -> String {
    dump.tasks().iter().map(|t| format!("{t}\n")).collect()
}

#[test]
fn a_dump_gives_back_its_memory() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let started = Arc::new(AtomicUsize::new(0));
        for _ in 0..TASKS {
            let parked = rt_core::spawn(std::future::pending::<()>());
            rt_core::spawn(outer_wait(parked, started.clone()));
        }
        // Each waiter parks in the poll that counts it.
        while started.load(Ordering::SeqCst) < TASKS {
            rt_core::task::yield_now().await;
        }
        let first = dump_and_drop();
        let second = dump_and_drop();
        assert!(
            first < KEPT_BOUND && second < KEPT_BOUND,
            "the heap grew by {first} bytes over the first dump and {second} over the second"
        );
    });
    drop(rt);
}
