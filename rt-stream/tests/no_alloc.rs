//! The adapters allocate nothing: building a chain of them and polling it
//! to the end makes no heap allocation, and neither does polling a
//! `StreamMap` whose entries are already in place.
//!
//! A counting global allocator counts only the allocations of a thread
//! that opted in, so the test harness's other threads cannot disturb it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use rt_stream::{self as stream, Stream, StreamExt, StreamMap};

struct Counting;

thread_local! {
    // `const` cells need no lazy initialisation, so touching them from the
    // allocator never allocates.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn note_allocation() {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    }
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counting has no effect on the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: same contract as ours, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: same contract as ours, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        // SAFETY: same contract as ours, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns how many allocations it made on this thread.
fn allocations_in(f: impl FnOnce()) -> usize {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.with(Cell::get)
}

struct Noop;

impl Wake for Noop {
    fn wake(self: Arc<Self>) {}
}

fn drain<S: Stream>(stream: Pin<&mut S>, waker: &Waker) -> usize {
    let mut cx = Context::from_waker(waker);
    let mut stream = stream;
    let mut count = 0;
    loop {
        match stream.as_mut().poll_next(&mut cx) {
            Poll::Ready(Some(_)) => count += 1,
            Poll::Ready(None) => return count,
            Poll::Pending => {}
        }
    }
}

#[test]
fn a_chain_of_adapters_allocates_nothing() {
    let waker = Waker::from(Arc::new(Noop));
    let mut yielded = 0;
    let allocations = allocations_in(|| {
        let chain = stream::iter(0..200u32)
            .map(|n| n * 3)
            .filter(|n| n % 2 == 0)
            .filter_map(|n| n.checked_sub(6))
            .skip(2)
            .skip_while(|n| *n < 30)
            .take(40)
            .take_while(|n| *n < 500)
            .map_while(Some)
            .chain(stream::once(1))
            .merge(stream::iter([7, 8]))
            .fuse()
            .peekable()
            .then(std::future::ready);
        let mut chain = std::pin::pin!(chain);
        yielded = drain(chain.as_mut(), &waker);
    });
    assert_eq!(allocations, 0);
    assert!(yielded > 3);
}

/// Polls `future` until it completes.
fn finish<F: Future + Unpin>(mut future: F, waker: &Waker) -> F::Output {
    let mut cx = Context::from_waker(waker);
    loop {
        if let Poll::Ready(output) = Pin::new(&mut future).poll(&mut cx) {
            return output;
        }
    }
}

#[test]
fn consuming_futures_allocate_nothing() {
    let waker = Waker::from(Arc::new(Noop));
    let allocations = allocations_in(|| {
        let mut s = stream::iter(0..100u32);
        assert!(finish(s.any(|n| n == 10), &waker));
        assert!(finish(s.all(|n| n > 10), &waker));
        let mut s = stream::iter(0..100u32);
        assert_eq!(finish(s.next(), &waker), Some(0));
        assert_eq!(finish(s.fold(0u32, |a, b| a + b), &waker), 4950);
    });
    assert_eq!(allocations, 0);
}

#[test]
fn polling_a_stream_map_allocates_nothing() {
    let waker = Waker::from(Arc::new(Noop));
    let mut map = StreamMap::with_capacity(4);
    for key in 0..4u8 {
        map.insert(key, stream::iter(0..25u32));
    }
    let mut yielded = 0;
    let allocations = allocations_in(|| {
        yielded = drain(Pin::new(&mut map), &waker);
    });
    assert_eq!(allocations, 0);
    assert_eq!(yielded, 100);
}

/// Polls `stream` once.
#[cfg(feature = "sync")]
fn poll_step<S: Stream + Unpin>(stream: &mut S, waker: &Waker) -> Poll<Option<S::Item>> {
    Pin::new(stream).poll_next(&mut Context::from_waker(waker))
}

// The broadcast and watch streams box their read loop once, when built;
// items, including those that arrive after the stream waited, reuse it.
#[cfg(feature = "sync")]
#[test]
fn reading_broadcast_and_watch_streams_allocates_nothing_per_item() {
    use rt_stream::wrappers::{BroadcastStream, WatchStream};

    let waker = Waker::from(Arc::new(Noop));
    let (tx, rx) = rt_sync::broadcast::channel(4);
    let mut broadcast = BroadcastStream::new(rx);
    let (watch_tx, watch_rx) = rt_sync::watch::channel(0u32);
    let mut watch = WatchStream::from_changes(watch_rx);
    let allocations = allocations_in(|| {
        for n in 0..50u32 {
            assert!(poll_step(&mut broadcast, &waker).is_pending());
            tx.send(n).unwrap();
            assert_eq!(poll_step(&mut broadcast, &waker), Poll::Ready(Some(Ok(n))));

            assert!(poll_step(&mut watch, &waker).is_pending());
            watch_tx.send(n).unwrap();
            assert_eq!(poll_step(&mut watch, &waker), Poll::Ready(Some(n)));
        }
    });
    assert_eq!(allocations, 0);
}
