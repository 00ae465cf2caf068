//! Leak checks with a counting global allocator: tasks, once joined or
//! cancelled, give back every byte they took.
//!
//! Only allocations made on a thread that opted in (the one running the
//! checks) are counted, so the test harness's own threads cannot disturb the
//! numbers. Every scenario runs a current-thread runtime without blocking
//! work, so all its memory is allocated and freed on that thread.

use rt_core::task;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::future::Future;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Wake, Waker};

/// Counts live allocations (number and bytes) on top of the system
/// allocator.
struct Counting;

static LIVE_ALLOCS: AtomicIsize = AtomicIsize::new(0);
static LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    /// Whether this thread's allocations are counted. A `const` `Cell`
    /// needs no lazy initialisation, so reading it never allocates.
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

fn counted() -> bool {
    COUNTED.try_with(Cell::get).unwrap_or(false)
}

fn record(allocs: isize, bytes: isize) {
    if counted() {
        LIVE_ALLOCS.fetch_add(allocs, Ordering::SeqCst);
        LIVE_BYTES.fetch_add(bytes, Ordering::SeqCst);
    }
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counters have no effect on the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as ours, passed on.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            record(1, layout.size() as isize);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as ours, passed on.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            record(1, layout.size() as isize);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (we only
        // ever hand out `System` pointers).
        unsafe { System.dealloc(ptr, layout) };
        record(-1, -(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as ours, passed on.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            record(0, new_size as isize - layout.size() as isize);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Live {
    allocs: isize,
    bytes: isize,
}

fn live() -> Live {
    Live {
        allocs: LIVE_ALLOCS.load(Ordering::SeqCst),
        bytes: LIVE_BYTES.load(Ordering::SeqCst),
    }
}

struct NoopWake;

impl Wake for NoopWake {
    fn wake(self: Arc<Self>) {}
}

/// Runs a small workload once so that lazily allocated thread-locals and
/// process-wide state (the task-id counter, context slots, the RNG) exist
/// before anything is measured.
fn warm_up() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let handles: Vec<_> = (0..16).map(|i| rt_core::spawn(async move { i })).collect();
        for h in handles {
            h.await.unwrap();
        }
        task::yield_now().await;
    });
    let pending = rt.spawn(std::future::pending::<()>());
    drop(pending);
    drop(rt);
}

/// (a) 100 000 tasks (200 under Miri) spawned and joined in batches leave
/// nothing behind.
fn spawned_and_joined_tasks_leave_no_allocation() {
    const TASKS: usize = if cfg!(miri) { 200 } else { 100_000 };
    const BATCH: usize = if cfg!(miri) { 50 } else { 1_000 };

    let before = live();
    let rt = rt_test::runtime();
    let total = rt.block_on(async {
        let mut total = 0usize;
        let mut handles = Vec::with_capacity(BATCH);
        for batch in 0..TASKS / BATCH {
            for i in 0..BATCH {
                handles.push(rt_core::spawn(async move {
                    // Suspend once so that every task goes through a wake.
                    task::yield_now().await;
                    batch * BATCH + i
                }));
            }
            for h in handles.drain(..) {
                total += h.await.unwrap();
            }
        }
        total
    });
    assert_eq!(total, (0..TASKS).sum::<usize>());
    assert_eq!(rt.handle().num_alive_tasks(), 0);
    drop(rt);
    assert_eq!(live(), before, "joined tasks leaked memory");
}

/// (b) Dropping a runtime with 10 000 pending tasks (200 under Miri) drops
/// each future once and frees every task.
fn dropping_a_runtime_with_pending_tasks_frees_everything() {
    const TASKS: usize = if cfg!(miri) { 200 } else { 10_000 };
    /// One in this many of the polled tasks keeps its handle past the drop.
    const KEEP_EVERY: usize = TASKS / 10;

    let drops = Arc::new(AtomicUsize::new(0));
    let before = live();
    let rt = rt_test::runtime();
    // Half the tasks are polled once and park on a future that never
    // completes; the other half are never polled at all.
    let kept = rt.block_on(async {
        let mut kept = Vec::new();
        for i in 0..TASKS / 2 {
            let guard = rt_test::DropCounter(drops.clone());
            let h = rt_core::spawn(async move {
                let _guard = guard;
                std::future::pending::<()>().await;
            });
            if i % KEEP_EVERY == 0 {
                kept.push(h);
            }
        }
        task::yield_now().await;
        kept
    });
    for _ in 0..TASKS / 2 {
        let guard = rt_test::DropCounter(drops.clone());
        drop(rt.spawn(async move {
            let _guard = guard;
            std::future::pending::<()>().await;
        }));
    }
    assert_eq!(drops.load(Ordering::SeqCst), 0);
    assert_eq!(rt.handle().num_alive_tasks(), TASKS);
    drop(rt);
    assert_eq!(
        drops.load(Ordering::SeqCst),
        TASKS,
        "each future dropped once"
    );

    // The handles kept across the drop report cancellation.
    let waker = Waker::from(Arc::new(NoopWake));
    let mut cx = Context::from_waker(&waker);
    for mut h in kept {
        match std::pin::Pin::new(&mut h).poll(&mut cx) {
            std::task::Poll::Ready(Err(e)) => assert!(e.is_cancelled()),
            other => panic!("expected a cancelled task, got {other:?}"),
        }
    }
    drop(waker);
    assert_eq!(live(), before, "cancelled tasks leaked memory");
}

/// (c) A `JoinSet` owned by a task, with children that never finish, is
/// torn down without a reference cycle when the runtime drops; and one that
/// is joined to the end frees its entries.
fn join_sets_leave_no_allocation() {
    let (joined_tasks, parked_tasks) = if cfg!(miri) { (100, 20) } else { (1000, 100) };
    let drops = Arc::new(AtomicUsize::new(0));
    let before = live();
    let rt = rt_test::runtime();
    let joined = rt.block_on(async {
        let mut set = task::JoinSet::new();
        for i in 0..joined_tasks {
            set.spawn(async move {
                task::yield_now().await;
                i
            });
        }
        let mut total = 0;
        while let Some(res) = set.join_next().await {
            total += res.unwrap();
        }
        total
    });
    assert_eq!(joined, (0..joined_tasks).sum::<usize>());

    let guard_drops = drops.clone();
    drop(rt.spawn(async move {
        let mut set = task::JoinSet::new();
        for _ in 0..parked_tasks {
            let guard = rt_test::DropCounter(guard_drops.clone());
            set.spawn(async move {
                let _guard = guard;
                std::future::pending::<()>().await;
            });
        }
        // Parks with its waker registered in the set.
        set.join_next().await
    }));
    rt.block_on(async {
        for _ in 0..4 {
            task::yield_now().await;
        }
    });
    drop(rt);
    assert_eq!(drops.load(Ordering::SeqCst), parked_tasks);
    assert_eq!(live(), before, "join sets leaked memory");
}

#[test]
fn tasks_leave_no_live_allocations() {
    COUNTED.with(|c| c.set(true));
    warm_up();
    spawned_and_joined_tasks_leave_no_allocation();
    dropping_a_runtime_with_pending_tasks_frees_everything();
    join_sets_leave_no_allocation();
}
