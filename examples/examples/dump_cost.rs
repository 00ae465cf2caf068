//! What a task dump with traces costs: time, heap and RSS.
//!
//! Spawns 10,000 tasks parked two async fns deep on a `Notify`, then takes
//! three dumps in a row and prints, for each, how long it took, the heap in
//! use (counted by the benchmarks' allocator since `main` began) before,
//! with the dump held and after it was dropped, and the resident set size.
//! Run it in release, where the figures mean something:
//!
//! ```text
//! cargo run --release -p examples --example dump_cost
//! ```
//!
//! `--smoke` runs 100 tasks and checks that every trace names both async
//! fns and that the heap is back to its level after each dump.

use bench_harness::alloc::{Counter, CountingAlloc};
use rt::sync::Notify;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

#[global_allocator]
static ALLOCATOR: CountingAlloc = CountingAlloc;

/// The heap in use since `counter` started (at the top of `main`), in KiB.
fn heap_kib(counter: &Counter) -> isize {
    counter.net_bytes() / 1024
}

/// The resident set size in KiB, where /proc says (Linux).
fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn rss_text() -> String {
    rss_kib().map_or_else(|| "?".to_string(), |kib| format!("{kib} KiB"))
}

/// The outer of the two async fns each task is parked in.
async fn outer(notify: Arc<Notify>, started: Arc<AtomicUsize>) {
    inner(notify, started).await;
}

/// The inner one, parked on the `Notify`.
async fn inner(notify: Arc<Notify>, started: Arc<AtomicUsize>) {
    started.fetch_add(1, Ordering::Relaxed);
    notify.notified().await;
}

fn main() {
    let counter = Counter::start();
    let smoke = std::env::args().any(|a| a == "--smoke");
    let tasks = if smoke { 100 } else { 10_000 };
    let rt = rt::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let notify = Arc::new(Notify::new());
    let started = Arc::new(AtomicUsize::new(0));
    rt.block_on(async {
        for _ in 0..tasks {
            rt::spawn(outer(notify.clone(), started.clone()));
        }
        // Each task parks in the poll that counts it.
        while started.load(Ordering::Relaxed) < tasks {
            rt::task::yield_now().await;
        }
        println!("{tasks} idle tasks; heap {} KiB, RSS {}", heap_kib(&counter), rss_text());
        for n in 1..=3 {
            let before = heap_kib(&counter);
            let start = Instant::now();
            let dump = rt::runtime::Handle::current().dump();
            let took = start.elapsed();
            let held = heap_kib(&counter);
            let traced = dump.tasks().iter().filter(|t| t.trace().is_some()).count();
            if smoke {
                for info in dump.tasks() {
                    let trace = info.trace().map(|t| t.to_string()).unwrap_or_default();
                    assert!(
                        trace.contains("dump_cost::inner") && trace.contains("dump_cost::outer"),
                        "{info}"
                    );
                }
            }
            drop(dump);
            let after = heap_kib(&counter);
            println!(
                "dump {n}: {traced} traces in {:.1} ms; heap {before} KiB before, {held} KiB held, {after} KiB after (+{} KiB); RSS {}",
                took.as_secs_f64() * 1e3,
                after - before,
                rss_text()
            );
            if smoke {
                assert!(after - before < 256, "the dump kept {} KiB", after - before);
            }
        }
    });
    notify.notify_waiters();
}
