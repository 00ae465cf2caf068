//! A slot that one side fills with a waker and another side wakes, lock-free.
//!
//! The protocol is a three-state machine in one atomic byte:
//!
//! * `IDLE`: nobody is touching the slot;
//! * `REGISTERING`: the (single) registering side owns the slot;
//! * `WAKING`: a waking side owns the slot, or has asked a registration in
//!   progress to wake on its way out.
//!
//! `REGISTERING | WAKING` means a wake arrived during a registration; the
//! registering side then takes the waker back out and wakes it itself, so a
//! wake is never lost between "store waker" and "check condition".

use crate::loom::cell::UnsafeCell;
use crate::loom::sync::atomic::{AtomicUsize, Ordering};
use std::fmt;
use std::task::Waker;

const IDLE: usize = 0;
const REGISTERING: usize = 0b01;
const WAKING: usize = 0b10;

/// Holds at most one [`Waker`], registered by one side and woken by any.
///
/// Registration must not run concurrently with another registration
/// (a concurrent `register` is detected and wakes the new waker at once
/// rather than corrupting the slot). `wake` may run from any thread at any
/// time.
pub struct AtomicWaker {
    state: AtomicUsize,
    waker: UnsafeCell<Option<Waker>>,
}

// SAFETY: the waker is only read or written by the side that moved the
// state out of IDLE, so access is exclusive; `Waker` is `Send + Sync`.
unsafe impl Send for AtomicWaker {}
// SAFETY: as above.
unsafe impl Sync for AtomicWaker {}

impl AtomicWaker {
    /// An empty slot.
    #[cfg(not(loom))]
    pub const fn new() -> AtomicWaker {
        AtomicWaker {
            state: AtomicUsize::new(IDLE),
            waker: UnsafeCell::new(None),
        }
    }

    /// An empty slot.
    #[cfg(loom)]
    pub fn new() -> AtomicWaker {
        AtomicWaker {
            state: AtomicUsize::new(IDLE),
            waker: UnsafeCell::new(None),
        }
    }

    /// Stores `waker` (a clone, unless the stored one already wakes the same
    /// task), to be woken by the next [`wake`](Self::wake).
    pub fn register_by_ref(&self, waker: &Waker) {
        match self
            .state
            .compare_exchange(IDLE, REGISTERING, Ordering::Acquire, Ordering::Acquire)
        {
            Ok(_) => {
                // SAFETY: the REGISTERING bit gives us the slot.
                let old = self.waker.with_mut(|slot| unsafe {
                    match &*slot {
                        Some(current) if current.will_wake(waker) => None,
                        _ => (*slot).replace(waker.clone()),
                    }
                });
                match self.state.compare_exchange(
                    REGISTERING,
                    IDLE,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                ) {
                    Ok(_) => drop(old),
                    Err(actual) => {
                        // A waker arrived while we held the slot; it could
                        // not wake anyone, so we take the waker out and wake
                        // it ourselves.
                        debug_assert_eq!(actual, REGISTERING | WAKING);
                        // SAFETY: the slot is still ours: WAKING set while
                        // REGISTERING is held does not take it.
                        let taken = self.waker.with_mut(|slot| unsafe { (*slot).take() });
                        self.state.swap(IDLE, Ordering::AcqRel);
                        drop(old);
                        if let Some(w) = taken {
                            w.wake();
                        }
                    }
                }
            }
            Err(WAKING) => {
                // A wake is in progress: the caller must poll again.
                waker.wake_by_ref();
                crate::loom::hint::spin_loop();
            }
            Err(_) => {
                // Concurrent registration (misuse) or a registration whose
                // wake is pending: wake the new waker so nothing is lost.
                waker.wake_by_ref();
            }
        }
    }

    /// Wakes the stored waker, if any, and empties the slot.
    pub fn wake(&self) {
        if let Some(waker) = self.take_waker() {
            waker.wake();
        }
    }

    /// Removes and returns the stored waker, if any.
    pub fn take_waker(&self) -> Option<Waker> {
        match self.state.fetch_or(WAKING, Ordering::AcqRel) {
            IDLE => {
                // SAFETY: we moved the state from IDLE to WAKING, which gives
                // us the slot until we reset it.
                let waker = self.waker.with_mut(|slot| unsafe { (*slot).take() });
                self.state.fetch_and(!WAKING, Ordering::Release);
                waker
            }
            // Either a registration is running (it will see WAKING and wake
            // on its way out) or another waker already holds the slot.
            _ => None,
        }
    }
}

impl Default for AtomicWaker {
    fn default() -> Self {
        AtomicWaker::new()
    }
}

impl fmt::Debug for AtomicWaker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AtomicWaker").finish_non_exhaustive()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize as StdCounter;
    use std::sync::Arc;
    use std::task::Wake;

    struct Count(StdCounter);
    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    fn counting() -> (Arc<Count>, Waker) {
        let c = Arc::new(Count(StdCounter::new(0)));
        (c.clone(), Waker::from(c))
    }

    #[test]
    fn wake_after_register_wakes_once() {
        let slot = AtomicWaker::new();
        let (count, waker) = counting();
        slot.register_by_ref(&waker);
        slot.wake();
        slot.wake();
        assert_eq!(count.0.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[test]
    fn reregister_replaces_previous_waker() {
        let slot = AtomicWaker::new();
        let (first, w1) = counting();
        let (second, w2) = counting();
        slot.register_by_ref(&w1);
        slot.register_by_ref(&w2);
        slot.wake();
        assert_eq!(first.0.load(std::sync::atomic::Ordering::SeqCst), 0);
        assert_eq!(second.0.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[test]
    fn take_from_empty_slot() {
        assert!(AtomicWaker::new().take_waker().is_none());
    }
}
