//! `select!`, `join!` and `try_join!` allocate nothing: their futures live
//! in place on the caller's stack. A counting allocator checks it.

#![cfg(feature = "macros")]

mod macros_common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counter is a const-initialised thread local, which never allocates.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

fn allocations_while<F: Future>(future: F) -> (F::Output, usize) {
    // The waker is built before counting starts.
    let flag = std::sync::Arc::new(macros_common::FlagWaker::default());
    let waker = Waker::from(flag.clone());
    let mut cx = Context::from_waker(&waker);
    let mut future = pin!(future);
    let before = ALLOCATIONS.with(Cell::get);
    let output = loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            break output;
        }
        assert!(flag.take_woken());
    };
    (output, ALLOCATIONS.with(Cell::get) - before)
}

#[test]
fn select_allocates_nothing() {
    let probe = macros_common::Probe::default();
    let (out, allocations) = allocations_while(async {
        let mut total = 0;
        for _ in 0..10 {
            total += rt::select! {
                v = probe.ready_after(2, 1) => v,
                v = probe.ready_after(3, 2) => v,
                Some(v) = async { None::<u32> } => v,
            };
        }
        total
    });
    assert!(out >= 10);
    assert_eq!(allocations, 0);
}

#[test]
fn joins_allocate_nothing() {
    let probe = macros_common::Probe::default();
    let (out, allocations) = allocations_while(async {
        let (a, b) = rt::join!(probe.ready_after(2, 1), probe.ready_after(1, 2));
        let tried = rt::try_join!(probe.ready_after(1, Ok::<_, ()>(3)), async { Ok(4) });
        a + b + tried.map_or(0, |(c, d)| c + d)
    });
    assert_eq!(out, 10);
    assert_eq!(allocations, 0);
}

#[test]
fn the_counter_sees_allocations() {
    let (boxed, allocations) = allocations_while(async { Box::new(7) });
    assert_eq!(*boxed, 7);
    assert_eq!(allocations, 1);
}
