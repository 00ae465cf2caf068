//! The worker's local run queue: a bounded ring that one owner pushes to and
//! pops from, and any number of thieves steal half of at a time.
//!
//! The algorithm is a variant of the Chase-Lev work-stealing deque with a
//! fixed buffer. `tail` is written only by the owner. `head` packs two
//! 32-bit indices: `real`, the first task still in the queue, and `steal`,
//! the first task a thief may still be copying. They differ only while a
//! steal is in progress; the owner must not overwrite slots in
//! `steal..real`, and a second thief backs off until they are equal again.
//!
//! When the ring is full, the owner moves half of it, plus the new task, to
//! the injector in one batch, so that other workers can pick the work up
//! and the owner never blocks.
//!
//! Invariants: `tail - steal <= CAPACITY`; slots in `real..tail` hold
//! initialised tasks owned by the queue; only the thread that advanced
//! `real` over a slot may read it.

use crate::loom::cell::UnsafeCell;
use crate::loom::sync::atomic::{AtomicU32, AtomicU64, Ordering::*};
use crate::loom::sync::Arc;
use std::mem::MaybeUninit;

/// Slots per worker. Larger than tokio's 256: overflow moves tasks to the
/// injector, where they wait behind a local queue the driver keeps
/// refilling, so a small ring makes the tail latency of hundreds of busy
/// sockets much worse (examples/benches/MEASUREMENTS.md, "Local queues").
/// The price of serving them all in turn is kernel time: each packet then
/// meets a socket that a whole round of others has pushed out of the
/// caches, where tokio's overflow keeps fewer sockets busy at once
/// (MEASUREMENTS.md, "the price of serving 500 connections in turn").
#[cfg(not(loom))]
pub(crate) const CAPACITY: usize = 1024;
/// Small under loom, so that the full and overflow paths are explored.
#[cfg(loom)]
pub(crate) const CAPACITY: usize = 4;

const MASK: usize = CAPACITY - 1;

/// The owner's end.
pub(crate) struct Local<T: 'static> {
    inner: Arc<Inner<T>>,
}

/// A thief's end; cloneable.
pub(crate) struct Steal<T: 'static>(Arc<Inner<T>>);

struct Inner<T> {
    head: AtomicU64,
    tail: AtomicU32,
    buffer: Box<[UnsafeCell<MaybeUninit<T>>]>,
}

// SAFETY: tasks move between threads through the queue; the index protocol
// gives each slot a single reader and writer at a time.
unsafe impl<T: Send> Send for Inner<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for Inner<T> {}

fn pack(steal: u32, real: u32) -> u64 {
    ((steal as u64) << 32) | real as u64
}

fn unpack(head: u64) -> (u32, u32) {
    ((head >> 32) as u32, head as u32)
}

/// Creates a queue and returns its two ends.
pub(crate) fn local<T: 'static>() -> (Steal<T>, Local<T>) {
    let buffer = (0..CAPACITY)
        .map(|_| UnsafeCell::new(MaybeUninit::uninit()))
        .collect();
    let inner = Arc::new(Inner {
        head: AtomicU64::new(0),
        tail: AtomicU32::new(0),
        buffer,
    });
    (Steal(inner.clone()), Local { inner })
}

/// Where the owner sends half its queue when the ring is full.
pub(crate) trait Overflow<T> {
    /// Takes a batch of tasks.
    fn push_batch(&self, tasks: impl Iterator<Item = T>);
}

impl<T> Inner<T> {
    /// Reads the task at `index`, moving it out.
    ///
    /// # Safety
    ///
    /// The caller advanced `real` (or `steal`) over `index`, so it is the
    /// slot's only reader, and the slot is initialised.
    unsafe fn take(&self, index: u32) -> T {
        // SAFETY: per the caller's contract.
        self.buffer[index as usize & MASK].with(|slot| unsafe { (*slot).assume_init_read() })
    }

    fn len(&self) -> u32 {
        let (_, real) = unpack(self.head.load(Acquire));
        self.tail.load(Acquire).wrapping_sub(real)
    }
}

impl<T: 'static> Local<T> {
    /// Whether there is anything a thief could take.
    pub(crate) fn is_empty(&self) -> bool {
        self.inner.len() == 0
    }

    /// Number of queued tasks.
    pub(crate) fn len(&self) -> usize {
        self.inner.len() as usize
    }

    /// Appends a task; when full, moves half the queue and the task to
    /// `overflow`. Returns whether an overflow happened (for metrics).
    pub(crate) fn push_back(&mut self, mut task: T, overflow: &impl Overflow<T>) -> bool {
        let tail = loop {
            let (steal, real) = unpack(self.inner.head.load(Acquire));
            // Only the owner writes `tail`.
            let tail = self.inner.tail.load(Relaxed);
            if (tail.wrapping_sub(steal) as usize) < CAPACITY {
                break tail;
            }
            if steal != real {
                // A thief is copying out: space frees up soon, but do not
                // wait for it.
                overflow.push_batch(std::iter::once(task));
                return true;
            }
            match self.push_overflow(task, real, tail, overflow) {
                Ok(()) => return true,
                // Lost a race with a thief: there is room now; retry.
                Err(back) => task = back,
            }
        };
        // SAFETY: `tail - steal < CAPACITY`, so the slot is free, and only
        // the owner writes slots at `tail`.
        self.inner.buffer[tail as usize & MASK].with_mut(|slot| unsafe {
            (*slot).write(task);
        });
        self.inner.tail.store(tail.wrapping_add(1), Release);
        false
    }

    fn push_overflow(
        &mut self,
        task: T,
        real: u32,
        tail: u32,
        overflow: &impl Overflow<T>,
    ) -> Result<(), T> {
        let half = (CAPACITY / 2) as u32;
        debug_assert_eq!(tail.wrapping_sub(real) as usize, CAPACITY);
        let claimed = real.wrapping_add(half);
        // Claim the older half by moving both indices past it at once; fails
        // if a thief got there first.
        if self
            .inner
            .head
            .compare_exchange(pack(real, real), pack(claimed, claimed), Release, Relaxed)
            .is_err()
        {
            return Err(task);
        }
        let inner = &self.inner;
        let moved = (0..half).map(|i| {
            // SAFETY: the CAS above gave us `real..claimed`.
            unsafe { inner.take(real.wrapping_add(i)) }
        });
        overflow.push_batch(moved.chain(std::iter::once(task)));
        Ok(())
    }

    /// Takes the oldest task.
    pub(crate) fn pop(&mut self) -> Option<T> {
        let mut head = self.inner.head.load(Acquire);
        let index = loop {
            let (steal, real) = unpack(head);
            let tail = self.inner.tail.load(Relaxed);
            if real == tail {
                return None;
            }
            let next_real = real.wrapping_add(1);
            // With no thief active, `steal` moves along with `real`.
            let next = if steal == real {
                pack(next_real, next_real)
            } else {
                pack(steal, next_real)
            };
            match self
                .inner
                .head
                .compare_exchange(head, next, AcqRel, Acquire)
            {
                Ok(_) => break real,
                Err(actual) => head = actual,
            }
        };
        // SAFETY: we advanced `real` over `index`.
        Some(unsafe { self.inner.take(index) })
    }
}

impl<T: 'static> Drop for Local<T> {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            assert!(self.pop().is_none(), "queue not empty at drop");
        }
    }
}

impl<T: 'static> Steal<T> {
    /// Whether the queue looks empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.len() == 0
    }

    /// Number of queued tasks, as seen from another thread.
    pub(crate) fn len(&self) -> usize {
        self.0.len() as usize
    }

    /// Moves about half of this queue into `dst` and returns one of the
    /// stolen tasks to run at once.
    pub(crate) fn steal_into(&self, dst: &mut Local<T>) -> Option<T> {
        let dst_tail = dst.inner.tail.load(Relaxed);
        let (dst_steal, _) = unpack(dst.inner.head.load(Acquire));
        // Only steal into a queue with room for half a queue.
        if dst_tail.wrapping_sub(dst_steal) as usize > CAPACITY / 2 {
            return None;
        }
        let n = self.steal_into_inner(dst, dst_tail);
        if n == 0 {
            return None;
        }
        // Run the last stolen task; publish the others.
        let n = n - 1;
        let ret_index = dst_tail.wrapping_add(n);
        // SAFETY: `steal_into_inner` wrote this slot, and `dst`'s tail has
        // not been published over it yet, so only we can read it.
        let task = unsafe { dst.inner.take(ret_index) };
        if n > 0 {
            dst.inner.tail.store(dst_tail.wrapping_add(n), Release);
        }
        Some(task)
    }

    fn steal_into_inner(&self, dst: &mut Local<T>, dst_tail: u32) -> u32 {
        let src = &self.0;
        let mut head = src.head.load(Acquire);
        // Claim: advance `real` past half the tasks, leaving `steal` behind
        // to mark the copy in progress.
        let (first, n) = loop {
            let (steal, real) = unpack(head);
            if steal != real {
                // Another thief is at work.
                return 0;
            }
            let src_tail = src.tail.load(Acquire);
            let available = src_tail.wrapping_sub(real);
            let n = available - available / 2;
            if n == 0 {
                return 0;
            }
            let claimed = pack(steal, real.wrapping_add(n));
            match src.head.compare_exchange(head, claimed, AcqRel, Acquire) {
                Ok(_) => break (real, n),
                Err(actual) => head = actual,
            }
        };
        debug_assert!(n as usize <= CAPACITY / 2);
        for i in 0..n {
            // SAFETY: the claim gave us `first..first + n` in `src`; the
            // destination slots lie between `dst`'s steal index and its
            // unpublished tail, which only `dst`'s owner (us, holding
            // `&mut dst`) writes.
            unsafe {
                let task = src.take(first.wrapping_add(i));
                dst.inner.buffer[dst_tail.wrapping_add(i) as usize & MASK]
                    .with_mut(|slot| (*slot).write(task));
            }
        }
        // Release: move `steal` up to `real` (which the owner may have
        // advanced meanwhile by popping).
        let mut head = src.head.load(Acquire);
        loop {
            let (steal, real) = unpack(head);
            debug_assert_eq!(steal, first);
            match src
                .head
                .compare_exchange(head, pack(real, real), AcqRel, Acquire)
            {
                Ok(_) => return n,
                Err(actual) => head = actual,
            }
        }
    }
}

impl<T: 'static> Clone for Steal<T> {
    fn clone(&self) -> Steal<T> {
        Steal(self.0.clone())
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::cell::RefCell;

    struct Sink(RefCell<Vec<u32>>);
    impl Overflow<u32> for Sink {
        fn push_batch(&self, tasks: impl Iterator<Item = u32>) {
            self.0.borrow_mut().extend(tasks);
        }
    }

    #[test]
    fn fifo_push_pop() {
        let (_steal, mut local) = local::<u32>();
        let sink = Sink(RefCell::new(Vec::new()));
        for i in 0..10 {
            assert!(!local.push_back(i, &sink));
        }
        assert_eq!(local.len(), 10);
        for i in 0..10 {
            assert_eq!(local.pop(), Some(i));
        }
        assert_eq!(local.pop(), None);
    }

    #[test]
    fn full_queue_overflows_half_plus_one() {
        let (_steal, mut local) = local::<u32>();
        let sink = Sink(RefCell::new(Vec::new()));
        for i in 0..CAPACITY as u32 {
            assert!(!local.push_back(i, &sink));
        }
        assert!(local.push_back(999, &sink));
        let moved = sink.0.borrow().clone();
        assert_eq!(moved.len(), CAPACITY / 2 + 1);
        assert_eq!(moved[0], 0);
        assert_eq!(*moved.last().unwrap(), 999);
        assert_eq!(local.len(), CAPACITY / 2);
        while local.pop().is_some() {}
    }

    #[test]
    fn steal_takes_half() {
        let (steal, mut a) = local::<u32>();
        let (_s2, mut b) = local::<u32>();
        let sink = Sink(RefCell::new(Vec::new()));
        for i in 0..8 {
            a.push_back(i, &sink);
        }
        let first = steal.steal_into(&mut b).unwrap();
        assert_eq!(first, 3, "the last of the stolen half runs first");
        assert_eq!(b.len(), 3);
        assert_eq!(a.len(), 4);
        let mut rest: Vec<u32> = std::iter::from_fn(|| b.pop()).collect();
        rest.extend(std::iter::from_fn(|| a.pop()));
        assert_eq!(rest, [0, 1, 2, 4, 5, 6, 7]);
        assert!(steal.steal_into(&mut b).is_none());
    }
}
