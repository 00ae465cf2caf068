//! A multi-producer, multi-consumer channel where every receiver sees
//! every value.
//!
//! Values go into a ring of `capacity` slots (rounded up to a power of
//! two). Each value is cloned out to every receiver that was subscribed
//! when it was sent, and dropped once the last of them read it. A receiver
//! that falls more than `capacity` values behind loses the oldest ones and
//! is told how many with [`RecvError::Lagged`](error::RecvError::Lagged).
//!
//! ```
//! use rt_sync::broadcast;
//!
//! # rt_sync::__doc::block_on(async {
//! let (tx, mut a) = broadcast::channel(16);
//! let mut b = tx.subscribe();
//! tx.send(10).unwrap();
//! assert_eq!(a.recv().await, Ok(10));
//! assert_eq!(b.recv().await, Ok(10));
//! # });
//! ```
//!
//! # Protocol
//!
//! The tail (next position, receiver count) is under one lock and each
//! slot under its own; the lock order is always tail, then slot. The closed
//! flag is an atomic, set under the tail lock.
//! A sender writes the slot and advances the tail under the tail lock,
//! then wakes waiting receivers through a [`Notify`].
//!
//! A receiver first looks only at the slot for its position: if the slot
//! holds that position, the value is there and the receiver was counted
//! in the slot's `remaining` when it was sent, so it reads it without the
//! channel-wide tail lock. Receivers on different workers then only meet
//! on the slot they read. Only when the slot does not hold the position
//! (nothing sent there yet, or overwritten) does the receiver read the
//! tail, to tell empty, closed and lagging apart; if the slot was
//! overwritten between the two, it reports the lag. Receivers register
//! with the `Notify` before their final check, so no value is missed.
//!
//! The slots stay mutexes rather than reader-writer locks on purpose:
//! cloning a value from several threads at once would need `T: Sync`,
//! and a receiver is `Send` for any `T: Send`.

pub mod error;
mod receiver;
mod weak;

pub use receiver::Receiver;
pub use weak::WeakSender;

use crate::locked::lock;
use crate::notify::Notify;
use error::SendError;
use rt_core::loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use rt_core::loom::sync::Mutex;
use std::fmt;
use std::pin::pin;
use std::sync::Arc;

/// Creates a broadcast channel buffering `capacity` values (rounded up to
/// a power of two).
///
/// # Panics
///
/// Panics if `capacity` is 0 or larger than `usize::MAX / 2`.
#[track_caller]
pub fn channel<T: Clone>(capacity: usize) -> (Sender<T>, Receiver<T>) {
    let tx = Sender::new(capacity);
    let rx = tx.subscribe();
    (tx, rx)
}

pub(crate) struct Shared<T> {
    slots: Box<[Mutex<Slot<T>>]>,
    mask: usize,
    tail: Mutex<Tail>,
    /// Live [`Sender`]s; once 0 it stays 0 (a [`WeakSender`] only
    /// upgrades from a non-zero count).
    senders: AtomicUsize,
    /// Live [`WeakSender`]s; only counted, they keep nothing else alive.
    weak_senders: AtomicUsize,
    /// Every sender is gone; stored under the tail lock.
    closed: AtomicBool,
    notify_rx: Notify,
    notify_last_rx: Notify,
}

pub(crate) struct Tail {
    /// Position the next value will get.
    pub(crate) pos: u64,
    pub(crate) receivers: usize,
}

pub(crate) struct Slot<T> {
    /// Position of the value in `value` (meaningless while it is `None`).
    pub(crate) pos: u64,
    /// Receivers that still have to read it.
    pub(crate) remaining: usize,
    pub(crate) value: Option<T>,
}

impl<T> Shared<T> {
    pub(crate) fn capacity(&self) -> u64 {
        self.slots.len() as u64
    }

    pub(crate) fn slot(&self, pos: u64) -> &Mutex<Slot<T>> {
        &self.slots[pos as usize & self.mask]
    }

    pub(crate) fn tail(&self) -> &Mutex<Tail> {
        &self.tail
    }

    /// Whether every sender is gone.
    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(SeqCst)
    }

    pub(crate) fn notify_rx(&self) -> &Notify {
        &self.notify_rx
    }

    /// Adds a receiver starting at the current tail.
    pub(crate) fn new_receiver(self: &Arc<Self>) -> Receiver<T> {
        let mut tail = lock(&self.tail);
        tail.receivers += 1;
        let next = tail.pos;
        drop(tail);
        Receiver::new(self.clone(), next)
    }

    /// Called by a receiver that goes away; returns the tail position at
    /// that moment (later values do not count the receiver) and whether it
    /// was the last receiver. The caller gives up its unread values, then
    /// calls [`last_receiver_gone`](Self::last_receiver_gone) if it was
    /// the last, so that a `Sender::closed` woken by it sees an empty
    /// channel.
    pub(crate) fn receiver_left(&self) -> (u64, bool) {
        let mut tail = lock(&self.tail);
        tail.receivers -= 1;
        (tail.pos, tail.receivers == 0)
    }

    /// Wakes the [`Sender::closed`] futures.
    pub(crate) fn last_receiver_gone(&self) {
        self.notify_last_rx.notify_waiters();
    }
}

/// Sends values to every receiver of a broadcast channel.
pub struct Sender<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Sender<T> {
    /// A sender with no receiver yet; [`subscribe`](Self::subscribe) makes
    /// some.
    ///
    /// # Panics
    ///
    /// Panics if `capacity` is 0 or larger than `usize::MAX / 2`.
    #[track_caller]
    pub fn new(capacity: usize) -> Sender<T> {
        assert!(capacity > 0, "broadcast channel capacity cannot be zero");
        assert!(
            capacity <= usize::MAX >> 1,
            "broadcast channel capacity exceeded `usize::MAX / 2`"
        );
        let capacity = capacity.next_power_of_two();
        let slots = (0..capacity)
            .map(|_| {
                Mutex::new(Slot {
                    pos: 0,
                    remaining: 0,
                    value: None,
                })
            })
            .collect();
        Sender {
            shared: Arc::new(Shared {
                slots,
                mask: capacity - 1,
                tail: Mutex::new(Tail {
                    pos: 0,
                    receivers: 0,
                }),
                senders: AtomicUsize::new(1),
                weak_senders: AtomicUsize::new(0),
                closed: AtomicBool::new(false),
                notify_rx: Notify::new(),
                notify_last_rx: Notify::new(),
            }),
        }
    }

    /// Sends `value` to every current receiver and returns how many there
    /// are. Fails, handing the value back, if there is none. Never waits:
    /// a full ring overwrites the oldest value.
    pub fn send(&self, value: T) -> Result<usize, SendError<T>> {
        let mut tail = lock(&self.shared.tail);
        if tail.receivers == 0 {
            return Err(SendError(value));
        }
        let pos = tail.pos;
        let receivers = tail.receivers;
        let old = {
            let mut slot = lock(self.shared.slot(pos));
            slot.pos = pos;
            slot.remaining = receivers;
            slot.value.replace(value)
        };
        tail.pos += 1;
        drop(tail);
        // An overwritten value may run arbitrary code when dropped: never
        // under a lock.
        drop(old);
        self.shared.notify_rx.notify_waiters();
        Ok(receivers)
    }

    /// A new receiver that will see values sent from now on.
    pub fn subscribe(&self) -> Receiver<T> {
        self.shared.new_receiver()
    }

    /// Live receivers.
    pub fn receiver_count(&self) -> usize {
        lock(&self.shared.tail).receivers
    }

    /// Values still waiting to be read by at least one receiver that was
    /// subscribed when they were sent.
    pub fn len(&self) -> usize {
        let tail = lock(&self.shared.tail);
        let start = tail.pos.saturating_sub(self.shared.capacity());
        (start..tail.pos)
            .filter(|&pos| {
                let slot = lock(self.shared.slot(pos));
                slot.pos == pos && slot.remaining > 0 && slot.value.is_some()
            })
            .count()
    }

    /// Whether no value is waiting; see [`len`](Self::len).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether both senders belong to the same channel.
    pub fn same_channel(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }

    /// Waits until there is no receiver.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe.
    pub async fn closed(&self) {
        loop {
            let mut notified = pin!(self.shared.notify_last_rx.notified());
            notified.as_mut().enable();
            if self.receiver_count() == 0 {
                return;
            }
            notified.await;
        }
    }

    /// A [`WeakSender`] for this channel: it does not keep the channel
    /// open, and [`upgrade`](WeakSender::upgrade)s back to a `Sender` while
    /// some `Sender` is alive.
    #[must_use = "downgrade makes a WeakSender and leaves this Sender as it is"]
    pub fn downgrade(&self) -> WeakSender<T> {
        WeakSender::new(self.shared.clone())
    }

    /// Live senders.
    pub fn strong_count(&self) -> usize {
        self.shared.senders.load(SeqCst)
    }

    /// Live [`WeakSender`]s.
    pub fn weak_count(&self) -> usize {
        self.shared.weak_senders.load(SeqCst)
    }
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        self.shared.senders.fetch_add(1, SeqCst);
        Sender {
            shared: self.shared.clone(),
        }
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        if self.shared.senders.fetch_sub(1, SeqCst) == 1 {
            let tail = lock(&self.shared.tail);
            self.shared.closed.store(true, SeqCst);
            drop(tail);
            self.shared.notify_rx.notify_waiters();
        }
    }
}

impl<T> fmt::Debug for Sender<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sender")
            .field("receivers", &self.receiver_count())
            .finish()
    }
}
