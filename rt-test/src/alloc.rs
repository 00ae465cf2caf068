//! Heap accounting: how many bytes a piece of code leaves allocated.
//!
//! A test or benchmark binary installs [`CountingAlloc`] as its global
//! allocator; it forwards to the system allocator and, only while a
//! [`Counter`] is alive, adds every allocation's size to a signed total
//! and subtracts every free, on every thread. Outside a measurement the
//! cost is one relaxed load per allocation, so timing workloads in the
//! same binary are not skewed by a contended counter.
//!
//! The counts are process-wide: a measurement is only meaningful while no
//! other thread allocates, so a binary that measures keeps to one test
//! (or one measurement at a time).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

static COUNTING: AtomicBool = AtomicBool::new(false);
static NET_BYTES: AtomicIsize = AtomicIsize::new(0);

/// The system allocator, with byte counting while a [`Counter`] is alive.
///
/// ```
/// use rt_test::alloc::CountingAlloc;
///
/// #[global_allocator]
/// static ALLOC: CountingAlloc = CountingAlloc;
/// # fn main() {}
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingAlloc;

#[inline]
fn record(delta: isize) {
    if COUNTING.load(Ordering::Relaxed) {
        NET_BYTES.fetch_add(delta, Ordering::Relaxed);
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees are ours; the counting only reads
// sizes and touches two atomics, never the memory itself.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract
        // (non-zero size), which is also `System::alloc`'s.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            record(layout.size() as isize);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            record(layout.size() as isize);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller passes a block this allocator returned, which
        // `System` allocated, with the layout it was allocated with.
        unsafe { System.dealloc(ptr, layout) };
        record(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller passes a block `System` allocated with
        // `layout`, and a valid non-zero `new_size`.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            record(new_size as isize - layout.size() as isize);
        }
        new
    }
}

/// A measurement window: heap bytes allocated minus bytes freed, by every
/// thread, since [`Counter::start`]. Only meaningful in a binary whose
/// global allocator is [`CountingAlloc`], and with one counter at a time.
#[derive(Debug)]
pub struct Counter {
    baseline: isize,
}

impl Counter {
    /// Starts counting.
    pub fn start() -> Counter {
        COUNTING.store(true, Ordering::SeqCst);
        Counter {
            baseline: NET_BYTES.load(Ordering::SeqCst),
        }
    }

    /// Bytes allocated minus bytes freed since the counter started (memory
    /// allocated before and freed during the window counts negative).
    pub fn net_bytes(&self) -> isize {
        NET_BYTES.load(Ordering::SeqCst) - self.baseline
    }
}

impl Drop for Counter {
    fn drop(&mut self) {
        COUNTING.store(false, Ordering::SeqCst);
    }
}
