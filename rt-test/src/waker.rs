//! Wakers for polling by hand: one that does nothing, one that counts.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Wake, Waker};

/// Counts how often the wakers made from it were woken.
#[derive(Debug, Default)]
pub struct WakeCounter(AtomicUsize);

impl WakeCounter {
    /// The wakes so far.
    pub fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

impl Wake for WakeCounter {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// A waker and the counter behind it.
///
/// ```
/// let (wakes, waker) = rt_test::counting_waker();
/// waker.wake_by_ref();
/// waker.wake();
/// assert_eq!(wakes.count(), 2);
/// ```
pub fn counting_waker() -> (Arc<WakeCounter>, Waker) {
    let counter = Arc::new(WakeCounter::default());
    (counter.clone(), Waker::from(counter))
}

/// A waker whose wakes nobody looks at.
pub fn noop_waker() -> Waker {
    counting_waker().1
}
