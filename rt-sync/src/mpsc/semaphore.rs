//! The two capacity policies an mpsc channel can have, behind one trait so
//! that the channel, its receiver and its senders are written once and
//! specialised at compile time instead of branching on an `Option` at run
//! time.
//!
//! A bounded channel counts free slots with a batch semaphore whose permits
//! travel with the messages; an unbounded one has nothing to count, so
//! every operation on its "semaphore" is a no-op.

use crate::batch_semaphore as ll;

/// How a channel accounts for its capacity.
pub(super) trait ChanSemaphore {
    /// No permit is outstanding: nothing queued and nothing reserved.
    fn is_idle(&self) -> bool;

    /// Gives back `n` permits freed by the receiver or by unused
    /// reservations.
    fn add_permits(&self, n: usize);

    /// Stops handing out new permits; waiting senders fail.
    fn close(&self);
}

/// The capacity of a bounded channel: `bound` permits, one per queued or
/// reserved message.
pub(super) struct BoundedSemaphore {
    pub(super) semaphore: ll::Semaphore,
    pub(super) bound: usize,
}

impl BoundedSemaphore {
    pub(super) fn new(bound: usize) -> BoundedSemaphore {
        BoundedSemaphore {
            semaphore: ll::Semaphore::new(bound),
            bound,
        }
    }
}

impl ChanSemaphore for BoundedSemaphore {
    fn is_idle(&self) -> bool {
        self.semaphore.available_permits() == self.bound
    }

    fn add_permits(&self, n: usize) {
        self.semaphore.release(n);
    }

    fn close(&self) {
        self.semaphore.close();
    }
}

/// The capacity of an unbounded channel: nothing to count.
pub(super) struct UnboundedSemaphore;

impl ChanSemaphore for UnboundedSemaphore {
    fn is_idle(&self) -> bool {
        true
    }

    fn add_permits(&self, _n: usize) {}

    fn close(&self) {}
}
