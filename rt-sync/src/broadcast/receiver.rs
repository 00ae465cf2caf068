//! The receiving end of a broadcast channel.

use super::error::{RecvError, TryRecvError};
use super::Shared;
use crate::locked::lock;
use rt_core::task::coop;
use std::fmt;
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;

/// Receives every value sent on a broadcast channel after it subscribed.
pub struct Receiver<T> {
    shared: Arc<Shared<T>>,
    /// Position of the next value to read.
    next: u64,
}

/// What reading one position found.
enum Read<T> {
    Value(T),
    Empty,
    Closed,
    Lagged(u64),
}

/// What the slot for one position holds, as seen by its receiver.
enum SlotRead<T> {
    /// The value (`None` when the caller asked for no clone).
    Value(Option<T>),
    /// Nothing sent at that position yet.
    NotSent,
    /// A newer value replaced it.
    Overwritten,
}

impl<T> Receiver<T> {
    pub(super) fn new(shared: Arc<Shared<T>>, next: u64) -> Receiver<T> {
        Receiver { shared, next }
    }

    /// Reads position `self.next`: takes the value if this receiver is the
    /// last one to need it, and otherwise yields what `clone` makes of it
    /// (`None` from a receiver that only gives up its claim).
    ///
    /// Generic over `clone`, rather than taking a function pointer, so the
    /// clone of a small value is inlined into the read.
    #[inline]
    fn read<C: Fn(&T) -> Option<T>>(&mut self, clone: &C) -> Read<Option<T>> {
        // Fast path: the slot alone tells, no channel-wide lock needed.
        // It is kept apart from the rest so that it stays small enough to
        // inline into `recv`.
        match self.read_slot(clone) {
            SlotRead::Value(value) => Read::Value(value),
            // Nothing sent at our position when we looked, and not closed
            // at a later moment, so not closed then either.
            SlotRead::NotSent if !self.shared.is_closed() => Read::Empty,
            SlotRead::NotSent | SlotRead::Overwritten => self.read_with_tail(clone),
        }
    }

    /// The rest of [`read`](Self::read), for a slot that did not hold our
    /// position: the tail tells empty, closed and lagging apart.
    #[inline(never)]
    fn read_with_tail<C: Fn(&T) -> Option<T>>(&mut self, clone: &C) -> Read<Option<T>> {
        let (tail_pos, closed) = {
            let tail = lock(self.shared.tail());
            (tail.pos, self.shared.is_closed())
        };
        if self.next >= tail_pos {
            return if closed { Read::Closed } else { Read::Empty };
        }
        let capacity = self.shared.capacity();
        let oldest = tail_pos.saturating_sub(capacity);
        if self.next < oldest {
            let missed = oldest - self.next;
            self.next = oldest;
            return Read::Lagged(missed);
        }
        // The value at `self.next` was sent before we read the tail; the
        // slot holds it or, if overwritten meanwhile, a newer one.
        if let SlotRead::Value(value) = self.read_slot(clone) {
            return Read::Value(value);
        }
        // Overwritten since we read the tail: we lag behind a newer one.
        let tail_pos = lock(self.shared.tail()).pos;
        let oldest = tail_pos.saturating_sub(capacity);
        let missed = oldest.saturating_sub(self.next).max(1);
        self.next += missed;
        Read::Lagged(missed)
    }

    /// Reads position `self.next` from its slot alone.
    #[inline]
    fn read_slot<C: Fn(&T) -> Option<T>>(&mut self, clone: &C) -> SlotRead<T> {
        let mut slot = lock(self.shared.slot(self.next));
        if slot.pos > self.next {
            return SlotRead::Overwritten;
        }
        // An older position, or ours before the first send ever reached
        // this slot (a receiver counted for a position always reads it
        // before its value is dropped).
        if slot.pos < self.next || slot.value.is_none() {
            return SlotRead::NotSent;
        }
        // The slot holds our position, so this receiver was subscribed
        // when it was sent and is counted in `remaining`.
        // Claim the position before cloning: a clone that panics then
        // costs this receiver that one value, and the next read moves on.
        slot.remaining -= 1;
        self.next += 1;
        let value = if slot.remaining == 0 {
            slot.value.take()
        } else {
            slot.value.as_ref().and_then(clone)
        };
        drop(slot);
        SlotRead::Value(value)
    }

    /// Values sent since this receiver last read (may exceed the capacity
    /// if it lags).
    pub fn len(&self) -> usize {
        let tail_pos = lock(self.shared.tail()).pos;
        (tail_pos - self.next.min(tail_pos)) as usize
    }

    /// Whether there is nothing new to read.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether every sender is gone (buffered values may remain).
    pub fn is_closed(&self) -> bool {
        self.shared.is_closed()
    }

    /// Whether both receivers belong to the same channel.
    pub fn same_channel(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }

    /// A new receiver that starts at the current tail, whatever this one
    /// has not read yet.
    pub fn resubscribe(&self) -> Self {
        self.shared.new_receiver()
    }

    /// Live senders.
    pub fn sender_strong_count(&self) -> usize {
        self.shared
            .senders
            .load(rt_core::loom::sync::atomic::Ordering::SeqCst)
    }

    /// Live [`WeakSender`](super::WeakSender)s.
    pub fn sender_weak_count(&self) -> usize {
        self.shared
            .weak_senders
            .load(rt_core::loom::sync::atomic::Ordering::SeqCst)
    }
}

/// What a receiver that wants the value makes of a slot it shares.
fn clone_value<T: Clone>(value: &T) -> Option<T> {
    Some(value.clone())
}

impl<T: Clone> Receiver<T> {
    /// Takes the next value if there is one right now.
    pub fn try_recv(&mut self) -> Result<T, TryRecvError> {
        match self.read(&clone_value) {
            Read::Value(value) => Ok(value.expect("cloned or taken")),
            Read::Empty => Err(TryRecvError::Empty),
            Read::Closed => Err(TryRecvError::Closed),
            Read::Lagged(n) => Err(TryRecvError::Lagged(n)),
        }
    }

    /// Waits for the next value.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe: the position only advances when a value (or a lag) is
    /// returned.
    pub async fn recv(&mut self) -> Result<T, RecvError> {
        std::future::poll_fn(|cx| match coop::poll_proceed(cx) {
            Poll::Ready(progress) => {
                progress.made_progress();
                Poll::Ready(())
            }
            Poll::Pending => Poll::Pending,
        })
        .await;
        loop {
            match self.read(&clone_value) {
                Read::Value(value) => return Ok(value.expect("cloned or taken")),
                Read::Closed => return Err(RecvError::Closed),
                Read::Lagged(n) => return Err(RecvError::Lagged(n)),
                Read::Empty => {}
            }
            // Slow path: register interest, then look once more.
            let shared = Arc::clone(&self.shared);
            let mut notified = pin!(shared.notify_rx().notified());
            notified.as_mut().enable();
            match self.read(&clone_value) {
                Read::Value(value) => return Ok(value.expect("cloned or taken")),
                Read::Closed => return Err(RecvError::Closed),
                Read::Lagged(n) => return Err(RecvError::Lagged(n)),
                Read::Empty => {}
            }
            // Awaited after the read is gone, so that the future holds no
            // `T` across the wait: it is `Sync` whenever `T` is `Send`.
            notified.await;
        }
    }

    /// Receives from synchronous code, parking the thread while empty.
    ///
    /// Must not be called from inside an asynchronous task.
    #[track_caller]
    pub fn blocking_recv(&mut self) -> Result<T, RecvError> {
        rt_core::util::block_on(self.recv())
    }
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        // Values sent from now on do not count this receiver; give up the
        // claim on those sent before that it never read, so they are freed
        // (or handed without a clone to their last reader).
        let (stop, last) = self.shared.receiver_left();
        while self.next < stop {
            match self.read(&|_: &T| None) {
                Read::Value(value) => drop(value),
                Read::Lagged(_) => {}
                Read::Empty | Read::Closed => break,
            }
        }
        if last {
            self.shared.last_receiver_gone();
        }
    }
}

impl<T> fmt::Debug for Receiver<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Receiver")
            .field("next", &self.next)
            .finish()
    }
}
