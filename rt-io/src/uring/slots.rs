//! The slot table: one slot per operation the kernel holds, keyed by the
//! submission's `user_data` (the slot's index).
//!
//! A slot owns everything the kernel may read or write while the operation
//! is in flight (buffers, the path's `CString`, a descriptor), boxed so
//! that its address does not move. Its life:
//!
//! ```text
//! Free --submit--> InFlight --completion--> Completed --Op takes it--> Free
//!                     |                                                  ^
//!                     +--Op dropped--> Abandoned --completion------------+
//! ```
//!
//! Invariants: a slot's owned data is dropped only once its completion has
//! arrived (`Completed` hands it back to the `Op`, `Abandoned` drops it);
//! an index is reused only after its slot is `Free`, so a completion always
//! names the operation that submitted it. The table lives under the ring's
//! lock; nothing here is atomic.

use std::any::Any;
use std::task::Waker;

/// What a slot owns for the kernel: the operation's buffers.
pub(crate) type Owned = Box<dyn Any + Send>;

/// What to do with the result of an operation whose future was dropped:
/// release what the kernel created for it (an `openat`'s descriptor).
pub(crate) type Orphan = fn(i32);

/// An [`Orphan`] for operations whose result holds nothing to release.
pub(crate) fn forget_result(_: i32) {}

enum Slot {
    Free,
    InFlight {
        waker: Option<Waker>,
        owned: Owned,
        orphan: Orphan,
    },
    Completed {
        result: i32,
        owned: Owned,
    },
    Abandoned {
        owned: Owned,
        orphan: Orphan,
    },
}

/// What [`Slots::poll`] found.
pub(crate) enum Polled {
    /// Still in flight; the waker is stored.
    Pending,
    /// Done: the completion's result and the owned data, the slot freed.
    Ready(i32, Owned),
}

/// The table of in-flight operations.
#[derive(Default)]
pub(crate) struct Slots {
    slots: Vec<Slot>,
    free: Vec<usize>,
    /// Slots whose completion has not arrived (in flight or abandoned).
    in_flight: usize,
}

impl Slots {
    /// Takes a free slot for an operation that owns `owned`, and returns its
    /// index with a mutable borrow of the data in its final place (the
    /// submission's pointers are taken from it). `orphan` receives the
    /// result if the operation's future is dropped before it.
    pub(crate) fn insert(&mut self, owned: Owned, orphan: Orphan) -> (usize, &mut Owned) {
        let slot = Slot::InFlight {
            waker: None,
            owned,
            orphan,
        };
        let index = match self.free.pop() {
            Some(index) => {
                self.slots[index] = slot;
                index
            }
            None => {
                self.slots.push(slot);
                self.slots.len() - 1
            }
        };
        self.in_flight += 1;
        match &mut self.slots[index] {
            Slot::InFlight { owned, .. } => (index, owned),
            _ => unreachable!("the slot was just filled"),
        }
    }

    /// Records the completion of `index`. Returns the waker to wake, if the
    /// operation's future waits on it.
    pub(crate) fn complete(&mut self, index: usize, result: i32) -> Option<Waker> {
        let slot = self.slots.get_mut(index)?;
        match std::mem::replace(slot, Slot::Free) {
            Slot::InFlight { waker, owned, .. } => {
                self.in_flight -= 1;
                *slot = Slot::Completed { result, owned };
                waker
            }
            Slot::Abandoned { owned, orphan } => {
                self.in_flight -= 1;
                self.free.push(index);
                orphan(result);
                drop(owned);
                None
            }
            other => {
                // Not an operation of ours (a free or completed slot gets
                // no second completion): leave it as it was.
                *slot = other;
                None
            }
        }
    }

    /// The operation's future polls its slot.
    pub(crate) fn poll(&mut self, index: usize, waker: &Waker) -> Polled {
        match &mut self.slots[index] {
            Slot::InFlight { waker: stored, .. } => {
                match stored {
                    Some(stored) if stored.will_wake(waker) => {}
                    _ => *stored = Some(waker.clone()),
                }
                Polled::Pending
            }
            Slot::Completed { .. } => {
                let Slot::Completed { result, owned } =
                    std::mem::replace(&mut self.slots[index], Slot::Free)
                else {
                    unreachable!("matched just above")
                };
                self.free.push(index);
                Polled::Ready(result, owned)
            }
            Slot::Free | Slot::Abandoned { .. } => {
                unreachable!("an operation polls only its own live slot")
            }
        }
    }

    /// The operation's future is dropped: an in-flight slot passes to the
    /// table, which frees it when the completion comes; a completed one is
    /// freed now.
    pub(crate) fn abandon(&mut self, index: usize) {
        let slot = &mut self.slots[index];
        match std::mem::replace(slot, Slot::Free) {
            Slot::InFlight { owned, orphan, .. } => *slot = Slot::Abandoned { owned, orphan },
            Slot::Completed { owned, .. } => {
                drop(owned);
                self.free.push(index);
            }
            Slot::Free | Slot::Abandoned { .. } => {
                unreachable!("an operation abandons only its own live slot")
            }
        }
    }

    /// Operations whose completion has not arrived.
    pub(crate) fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// Wakers of every operation still waiting (the runtime shuts down).
    pub(crate) fn take_wakers(&mut self) -> Vec<Waker> {
        self.slots
            .iter_mut()
            .filter_map(|slot| match slot {
                Slot::InFlight { waker, .. } => waker.take(),
                _ => None,
            })
            .collect()
    }

    /// Gives up on the operations still in flight: their owned data is
    /// leaked, since the kernel may still write into it.
    pub(crate) fn leak_in_flight(&mut self) {
        for slot in &mut self.slots {
            if let Slot::InFlight { owned, .. } | Slot::Abandoned { owned, .. } =
                std::mem::replace(slot, Slot::Free)
            {
                std::mem::forget(owned);
            }
        }
        self.in_flight = 0;
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::Wake;

    struct Count(AtomicUsize);
    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    struct DropFlag(Arc<AtomicUsize>);
    impl Drop for DropFlag {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn completion_wakes_the_polled_op_and_hands_back_its_data() {
        let mut slots = Slots::default();
        let (index, _) = slots.insert(Box::new(7u32), forget_result);
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let waker = Waker::from(count.clone());
        assert!(matches!(slots.poll(index, &waker), Polled::Pending));
        slots.complete(index, 3).expect("a waker").wake();
        assert_eq!(count.0.load(Ordering::Relaxed), 1);
        let Polled::Ready(result, owned) = slots.poll(index, &waker) else {
            panic!("completed")
        };
        assert_eq!((result, *owned.downcast::<u32>().unwrap()), (3, 7));
        assert_eq!(slots.in_flight(), 0);
        assert_eq!(
            slots.insert(Box::new(()), forget_result).0,
            index,
            "the slot is reused"
        );
    }

    #[test]
    fn abandoned_data_lives_until_the_completion() {
        let mut slots = Slots::default();
        let drops = Arc::new(AtomicUsize::new(0));
        let (index, _) = slots.insert(Box::new(DropFlag(drops.clone())), forget_result);
        slots.abandon(index);
        assert_eq!(
            drops.load(Ordering::Relaxed),
            0,
            "the kernel may still write"
        );
        assert_eq!(slots.in_flight(), 1);
        assert!(slots.complete(index, 0).is_none());
        assert_eq!(drops.load(Ordering::Relaxed), 1);
        assert_eq!(slots.in_flight(), 0);
        assert_eq!(slots.insert(Box::new(()), forget_result).0, index);
    }

    #[test]
    fn an_abandoned_result_goes_to_the_orphan_handler() {
        static ORPHANED: AtomicUsize = AtomicUsize::new(0);
        fn orphan(result: i32) {
            ORPHANED.store(result as usize, Ordering::Relaxed);
        }
        let mut slots = Slots::default();
        let (index, _) = slots.insert(Box::new(()), orphan);
        slots.abandon(index);
        slots.complete(index, 42);
        assert_eq!(ORPHANED.load(Ordering::Relaxed), 42);
    }

    #[test]
    fn a_completion_for_a_free_slot_changes_nothing() {
        let mut slots = Slots::default();
        assert!(slots.complete(5, 0).is_none());
        let (index, _) = slots.insert(Box::new(()), forget_result);
        slots.complete(index, 1);
        assert!(slots.complete(index, 2).is_none(), "no second completion");
        let waker = Waker::from(Arc::new(Count(AtomicUsize::new(0))));
        assert!(matches!(slots.poll(index, &waker), Polled::Ready(1, _)));
    }

    #[test]
    fn leaking_forgets_what_the_kernel_holds() {
        let mut slots = Slots::default();
        let drops = Arc::new(AtomicUsize::new(0));
        slots.insert(Box::new(DropFlag(drops.clone())), forget_result);
        let (abandoned, _) = slots.insert(Box::new(DropFlag(drops.clone())), forget_result);
        slots.abandon(abandoned);
        slots.leak_in_flight();
        assert_eq!(drops.load(Ordering::Relaxed), 0);
        assert_eq!(slots.in_flight(), 0);
    }
}
