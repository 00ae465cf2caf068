//! `WakeList`: a stack batch of wakers that a resource collects under its
//! lock and wakes after releasing it. Waking runs arbitrary code (an
//! executor's schedule function), so neither the reactor nor the sync
//! primitives wake while they hold their own lock.
//!
//! Dispatching one event usually wakes one or two tasks, so the batch must
//! cost nothing for the slots it does not use: the array starts
//! uninitialised and only the first `len` slots ever hold a waker. Creating
//! an empty batch writes one word and dropping it reads one. The small
//! methods are `#[inline]`, so that the crates that collect wakers (the
//! reactor, the sync primitives) inline them instead of calling across
//! crates for each waker.

use std::mem::MaybeUninit;
use std::task::Waker;

/// Wakers per batch; a caller with more wakes the batch, retakes its lock
/// and goes on.
pub const WAKE_BATCH: usize = 32;

/// Up to [`WAKE_BATCH`] wakers to wake once a lock is released.
///
/// Invariant: `wakers[..len]` are initialised and owned by the list;
/// `wakers[len..]` are uninitialised.
pub struct WakeList {
    wakers: [MaybeUninit<Waker>; WAKE_BATCH],
    len: usize,
}

impl WakeList {
    /// An empty batch; no slot is written.
    #[allow(clippy::new_without_default)]
    #[inline]
    pub fn new() -> WakeList {
        WakeList {
            // An array of `MaybeUninit` needs no initialisation.
            wakers: [const { MaybeUninit::uninit() }; WAKE_BATCH],
            len: 0,
        }
    }

    /// Whether the batch must be woken before another waker is added.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.len == WAKE_BATCH
    }

    /// Whether another waker fits.
    #[inline]
    pub fn can_push(&self) -> bool {
        !self.is_full()
    }

    /// Adds `waker`; the caller empties a full list before adding more.
    ///
    /// # Panics
    ///
    /// When the list is full.
    #[inline]
    pub fn push(&mut self, waker: Waker) {
        assert!(!self.is_full(), "WakeList is full");
        self.wakers[self.len].write(waker);
        self.len += 1;
    }

    /// Adds `waker` if there is one.
    #[inline]
    pub fn extend(&mut self, waker: Option<Waker>) {
        if let Some(waker) = waker {
            self.push(waker);
        }
    }

    /// Wakes every waker in the batch in the order they were added, and
    /// leaves the batch empty.
    pub fn wake_all(&mut self) {
        let len = std::mem::replace(&mut self.len, 0);
        // From here on the list owns no slot; `pending` owns `[..len]` and
        // drops what it has not woken if a waker panics.
        let mut pending = Pending {
            slots: &mut self.wakers[..len],
            next: 0,
        };
        while pending.next < pending.slots.len() {
            let slot = &pending.slots[pending.next];
            // SAFETY: `slot` is below the old `len`, so it was initialised,
            // and it is at or past `next`, so it has not been read out yet;
            // `next` moves past it before the waker runs, so it is never
            // read or dropped again.
            let waker = unsafe { slot.assume_init_read() };
            pending.next += 1;
            waker.wake();
        }
    }
}

impl Drop for WakeList {
    #[inline]
    fn drop(&mut self) {
        // Wakers left behind (a panic between collecting and waking) are
        // woken rather than lost: a missed wake-up hangs a task for good.
        // The usual batch was woken already, and costs one compare here.
        if self.len != 0 {
            self.wake_all();
        }
    }
}

/// The wakers of a batch being woken; those not yet woken when it is dropped
/// (a waker panicked) are dropped with it rather than leaked.
///
/// Invariant: `slots[next..]` are initialised and owned by this value.
struct Pending<'a> {
    slots: &'a mut [MaybeUninit<Waker>],
    next: usize,
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        for slot in &mut self.slots[self.next..] {
            // SAFETY: by the invariant, slots from `next` on are initialised
            // and nothing else will read or drop them.
            unsafe { slot.assume_init_drop() };
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::sync::{Arc, Mutex};
    use std::task::Wake;

    /// Records its wake in a shared log, and panics on wake if asked to.
    struct Logged {
        id: usize,
        log: Arc<Mutex<Vec<usize>>>,
        panics: bool,
    }

    impl Wake for Logged {
        fn wake(self: Arc<Self>) {
            self.log.lock().unwrap().push(self.id);
            assert!(!self.panics, "waker {} panics", self.id);
        }
    }

    fn logged(id: usize, log: &Arc<Mutex<Vec<usize>>>, panics: bool) -> (Arc<Logged>, Waker) {
        let waker = Arc::new(Logged {
            id,
            log: log.clone(),
            panics,
        });
        (waker.clone(), Waker::from(waker))
    }

    #[test]
    fn wakes_in_order_and_empties() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut list = WakeList::new();
        let mut handles = Vec::new();
        for id in 0..WAKE_BATCH {
            let (handle, waker) = logged(id, &log, false);
            handles.push(handle);
            list.extend(Some(waker));
        }
        list.extend(None);
        assert!(list.is_full());
        list.wake_all();
        assert!(!list.is_full());
        assert_eq!(*log.lock().unwrap(), (0..WAKE_BATCH).collect::<Vec<_>>());
        // Every waker was consumed by its wake: only our handles remain.
        assert!(handles.iter().all(|h| Arc::strong_count(h) == 1));
    }

    #[test]
    fn dropping_an_unwoken_list_wakes_its_wakers() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let (handle, waker) = logged(0, &log, false);
        let mut list = WakeList::new();
        list.extend(Some(waker));
        drop(list);
        assert_eq!(*log.lock().unwrap(), vec![0]);
        assert_eq!(Arc::strong_count(&handle), 1);
    }

    #[test]
    fn a_panicking_waker_drops_the_rest_once() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut list = WakeList::new();
        let mut handles = Vec::new();
        for id in 0..4 {
            let (handle, waker) = logged(id, &log, id == 1);
            handles.push(handle);
            list.extend(Some(waker));
        }
        let result = catch_unwind(AssertUnwindSafe(|| list.wake_all()));
        assert!(result.is_err());
        drop(list);
        assert_eq!(*log.lock().unwrap(), vec![0, 1]);
        assert!(handles.iter().all(|h| Arc::strong_count(h) == 1));
    }
}
