//! A task dump with traces gives back its memory: the heap in use after the
//! process's first dump, once the dump is dropped, is within a small bound
//! of what it was before, the symbolizer's parsed debug info included.
//!
//! One test in this binary, so that the dump it measures is the process's
//! first. Only allocations on the thread that opted in (the one taking the
//! dump and resolving its symbols) are counted, so the test harness's own
//! threads cannot disturb the numbers.

use rt_core::runtime::Handle;
use rt_core::task::JoinHandle;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};
use std::sync::Arc;

/// Counts the bytes in use on top of the system allocator.
struct Counting;

static LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    /// Whether this thread's allocations are counted. A `const` `Cell`
    /// needs no lazy initialisation, so reading it never allocates.
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

fn record(bytes: isize) {
    if COUNTED.try_with(Cell::get).unwrap_or(false) {
        LIVE_BYTES.fetch_add(bytes, Ordering::SeqCst);
    }
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counter has no effect on the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as ours, passed on.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            record(layout.size() as isize);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as ours, passed on.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            record(layout.size() as isize);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (we only
        // ever hand out `System` pointers).
        unsafe { System.dealloc(ptr, layout) };
        record(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as ours, passed on.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            record(new_size as isize - layout.size() as isize);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What a dump may keep: the bounded cache of resolved addresses (under
/// 64 KiB) and the symbolizer's list of loaded objects, with slack.
const KEPT_BOUND: isize = 256 * 1024;

const TASKS: usize = 100;

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
    let before = LIVE_BYTES.load(Ordering::SeqCst);
    let dump = Handle::current().dump();
    let waiters = dump
        .tasks()
        .iter()
        .filter_map(|t| t.trace())
        .filter(|trace| {
            let text = trace.to_string();
            text.contains("dump_memory::inner_wait") && text.contains("dump_memory::outer_wait")
        })
        .count();
    assert_eq!(waiters, TASKS, "{}", dump_text(&dump));
    drop(dump);
    LIVE_BYTES.load(Ordering::SeqCst) - before
}

fn dump_text(dump: &rt_core::task::Dump) -> String {
    dump.tasks().iter().map(|t| format!("{t}\n")).collect()
}

#[test]
fn a_dump_gives_back_its_memory() {
    COUNTED.with(|c| c.set(true));
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
