//! A fixed-size batch of wakers, filled under a lock and woken after it is
//! released.
//!
//! Waking a task can run arbitrary code (an executor's schedule function), so
//! the primitives never wake while they hold their internal lock. They move
//! the wakers they want to wake into this batch, drop the lock, then call
//! [`WakeList::wake_all`].

use std::task::Waker;

/// How many wakers one batch holds before the caller must flush it.
pub(crate) const BATCH: usize = 32;

/// Up to [`BATCH`] wakers waiting to be woken outside a lock.
pub(crate) struct WakeList {
    wakers: [Option<Waker>; BATCH],
    len: usize,
}

impl WakeList {
    pub(crate) fn new() -> WakeList {
        WakeList {
            wakers: std::array::from_fn(|_| None),
            len: 0,
        }
    }

    /// Whether another waker fits in this batch.
    pub(crate) fn can_push(&self) -> bool {
        self.len < BATCH
    }

    /// Adds a waker; the caller checks [`can_push`](Self::can_push) first.
    pub(crate) fn push(&mut self, waker: Waker) {
        debug_assert!(self.can_push());
        self.wakers[self.len] = Some(waker);
        self.len += 1;
    }

    /// Wakes and removes every waker in the batch.
    pub(crate) fn wake_all(&mut self) {
        for slot in &mut self.wakers[..self.len] {
            if let Some(waker) = slot.take() {
                waker.wake();
            }
        }
        self.len = 0;
    }
}

impl Drop for WakeList {
    fn drop(&mut self) {
        // Wakers left behind (e.g. on a panic between push and wake_all) are
        // woken rather than silently lost.
        self.wake_all();
    }
}
