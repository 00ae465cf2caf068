//! Dropping channels that still hold messages frees everything: a counting
//! global allocator checks that live bytes return to where they started.
//!
//! The count is kept per thread: the test harness's own thread allocates
//! while the test runs, and those bytes are not the channels'. Everything the
//! test allocates and frees happens on its own thread.

use rt_sync::{mpsc, oneshot};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    // A const-initialised Cell has no destructor and never allocates, so the
    // allocator may touch it at any time, also while the thread is torn down.
    static LIVE_BYTES: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    let _ = LIVE_BYTES.try_with(|live| live.set(live.get() + delta));
}

fn live_bytes() -> isize {
    LIVE_BYTES.with(Cell::get)
}

// SAFETY: forwards to the system allocator and only counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn exercise() {
    // Bounded with pending messages, an unused permit and a parked sender.
    let (tx, mut rx) = mpsc::channel(40);
    for i in 0..35 {
        tx.try_send(vec![i as u8; 100]).unwrap();
    }
    let _ = rx.try_recv();
    let permit = tx.try_reserve().unwrap();
    drop(permit);
    drop(rx);
    drop(tx);

    // Unbounded across several blocks, dropped sender-last.
    let (tx, rx) = mpsc::unbounded_channel();
    for i in 0..200 {
        tx.send(format!("message {i}")).unwrap();
    }
    drop(rx);
    let _ = tx.send(String::from("after close"));
    drop(tx);

    // Bounded where a permit sends after the receiver is gone.
    let (tx, rx) = mpsc::channel(2);
    let permit = tx.try_reserve().unwrap();
    drop(rx);
    permit.send(Box::new(5u64));
    drop(tx);

    // Oneshot with a value nobody receives.
    let (tx, rx) = oneshot::channel();
    tx.send(vec![0u8; 1000]).unwrap();
    drop(rx);
}

#[test]
fn channels_with_pending_messages_free_everything() {
    // Warm up anything lazily allocated once (thread-locals, test harness).
    exercise();
    let before = live_bytes();
    for _ in 0..10 {
        exercise();
    }
    let after = live_bytes();
    assert_eq!(
        before,
        after,
        "live bytes changed: leak of {}",
        after - before
    );
}
