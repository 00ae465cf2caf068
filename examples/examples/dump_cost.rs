//! What a task dump with traces costs: time, heap and RSS.
//!
//! Spawns 10,000 tasks parked two async fns deep on a `Notify`, then takes
//! three dumps in a row and prints, for each, how long it took, the heap in
//! use (counted by this program's global allocator) before, with the dump
//! held and after it was dropped, and the resident set size. Run it in
//! release, where the figures mean something:
//!
//! ```text
//! cargo run --release -p examples --example dump_cost
//! ```
//!
//! `--smoke` runs 100 tasks and checks that every trace names both async
//! fns and that the heap is back to its level after each dump.

use rt::sync::Notify;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Counts the bytes in use on top of the system allocator, on every thread.
struct Counting;

static LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counter has no effect on the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as ours, passed on.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            LIVE_BYTES.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        LIVE_BYTES.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as ours, passed on.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            LIVE_BYTES.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn heap_kib() -> isize {
    LIVE_BYTES.load(Ordering::Relaxed) / 1024
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
        println!("{tasks} idle tasks; heap {} KiB, RSS {}", heap_kib(), rss_text());
        for n in 1..=3 {
            let before = heap_kib();
            let start = Instant::now();
            let dump = rt::runtime::Handle::current().dump();
            let took = start.elapsed();
            let held = heap_kib();
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
            let after = heap_kib();
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
