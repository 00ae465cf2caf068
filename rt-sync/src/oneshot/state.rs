//! The oneshot channel's state word and its transitions.
//!
//! Four bits, each with an owner rule:
//!
//! * `VALUE_SENT`: set once by the sender (with or without a value). Before
//!   it is set only the sender touches the value cell; after, only the
//!   receiver. It is never set once `CLOSED` is, so a sender that finds the
//!   channel closed still owns its value and can hand it back.
//! * `CLOSED`: set once by the receiver (close or drop).
//! * `RX_TASK_SET` / `TX_TASK_SET`: while set, the receiver's (sender's)
//!   waker slot is initialised and the other side may read it to wake it;
//!   while clear, only its owner touches the slot.

use rt_core::loom::sync::atomic::{AtomicUsize, Ordering};

const RX_TASK_SET: usize = 0b0001;
const VALUE_SENT: usize = 0b0010;
const CLOSED: usize = 0b0100;
const TX_TASK_SET: usize = 0b1000;

/// A snapshot of the state word.
#[derive(Clone, Copy, Debug)]
pub(super) struct Snapshot(usize);

impl Snapshot {
    #[inline]
    pub(super) fn is_complete(self) -> bool {
        self.0 & VALUE_SENT != 0
    }
    #[inline]
    pub(super) fn is_closed(self) -> bool {
        self.0 & CLOSED != 0
    }
    #[inline]
    pub(super) fn is_rx_task_set(self) -> bool {
        self.0 & RX_TASK_SET != 0
    }
    #[inline]
    pub(super) fn is_tx_task_set(self) -> bool {
        self.0 & TX_TASK_SET != 0
    }
}

/// The atomic state word.
///
/// Every method is `#[inline]`: the channel's code is generic, so it is
/// compiled in the crate that uses the channel, and without the attribute
/// each of these few-instruction transitions would be a call into this
/// crate.
pub(super) struct State(AtomicUsize);

impl State {
    #[inline]
    pub(super) fn new() -> State {
        State(AtomicUsize::new(0))
    }

    #[inline]
    pub(super) fn load(&self) -> Snapshot {
        Snapshot(self.0.load(Ordering::Acquire))
    }

    /// Sets `VALUE_SENT` unless the channel is closed; returns the state
    /// before. A compare-and-swap rather than `fetch_or`: the bit must
    /// never appear after `CLOSED` (see the module docs).
    #[inline]
    pub(super) fn set_complete(&self) -> Snapshot {
        let mut current = self.0.load(Ordering::Relaxed);
        loop {
            if current & CLOSED != 0 {
                return Snapshot(current);
            }
            match self.0.compare_exchange_weak(
                current,
                current | VALUE_SENT,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Snapshot(current),
                Err(actual) => current = actual,
            }
        }
    }

    /// Sets `CLOSED`; returns the state before.
    #[inline]
    pub(super) fn set_closed(&self) -> Snapshot {
        Snapshot(self.0.fetch_or(CLOSED, Ordering::AcqRel))
    }

    #[inline]
    pub(super) fn set_rx_task(&self) -> Snapshot {
        Snapshot(self.0.fetch_or(RX_TASK_SET, Ordering::AcqRel) | RX_TASK_SET)
    }

    #[inline]
    pub(super) fn unset_rx_task(&self) -> Snapshot {
        Snapshot(self.0.fetch_and(!RX_TASK_SET, Ordering::AcqRel))
    }

    #[inline]
    pub(super) fn set_tx_task(&self) -> Snapshot {
        Snapshot(self.0.fetch_or(TX_TASK_SET, Ordering::AcqRel) | TX_TASK_SET)
    }

    #[inline]
    pub(super) fn unset_tx_task(&self) -> Snapshot {
        Snapshot(self.0.fetch_and(!TX_TASK_SET, Ordering::AcqRel))
    }
}
