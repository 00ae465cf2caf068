//! The state shared by both ends of an mpsc channel, bounded or not.
//!
//! # Protocol
//!
//! * The message queue, the receiver's waker and the two "closed" flags sit
//!   under one short lock. Senders push and take the receiver's waker under
//!   it, then wake after releasing it; the receiver pops, or checks the
//!   flags and stores its waker, under it. So a message or a close can never
//!   slip between the receiver's check and its registration.
//! * Capacity is the channel's `ChanSemaphore`, a type parameter: for a
//!   bounded channel a batch semaphore with `bound` permits, for an
//!   unbounded one nothing. A sender takes a permit before pushing; the
//!   permit travels with the message and the receiver returns it after
//!   popping.
//! * Closing the receiver side closes the semaphore (no new permits) but
//!   every message already pushed, and every permit already granted, is
//!   still delivered: `recv` returns `None` only once the queue is empty and
//!   no permit is outstanding ("idle"). Whoever makes the channel idle after
//!   the close (a dropped permit, a cancelled reservation) wakes the
//!   receiver so it can see the end.
//! * The number of live senders is an atomic; the last one to go sets
//!   `tx_closed` under the lock and wakes the receiver.
//! * When its own queue (`Rx::taken`) is empty, the receiver swaps it with
//!   the shared one under the lock, taking every queued message in one
//!   short lock section, and then hands them out without the lock. With a
//!   backlog it so takes the lock once per backlog rather than once per
//!   message, and the lock's cache line moves between the sending and the
//!   receiving threads far less often. A taken message still holds its
//!   permit, which the receiver returns only when it hands the message out,
//!   so capacity, `len` and closing behave as if it were still queued.

use super::block::BlockQueue;
use super::error::TryRecvError;
use super::semaphore::{BoundedSemaphore, ChanSemaphore, UnboundedSemaphore};
use crate::batch_semaphore as ll;
use crate::locked::lock;
use crate::notify::Notify;
use pin_project_lite::pin_project;
use rt_core::loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use rt_core::loom::sync::{Mutex, MutexGuard};
use rt_core::task::coop;
use std::future::Future;
use std::pin::{pin, Pin};
use std::sync::Arc;
use std::task::{ready, Context, Poll, Waker};

pub(super) struct Chan<T, S: ChanSemaphore> {
    shared: Mutex<Shared<T>>,
    semaphore: S,
    tx_count: AtomicUsize,
    tx_weak_count: AtomicUsize,
    /// Mirrors `Shared::rx_closed` for lock-free `is_closed` checks.
    rx_closed: AtomicBool,
    notify_rx_closed: Notify,
}

struct Shared<T> {
    queue: BlockQueue<T>,
    rx_waker: Option<Waker>,
    /// Every sender is gone.
    tx_closed: bool,
    /// The receiver closed the channel or was dropped.
    rx_closed: bool,
}

/// A strong sender's share of the channel: keeps it open.
pub(super) struct Tx<T, S: ChanSemaphore> {
    chan: Arc<Chan<T, S>>,
}

/// A weak sender's share: does not keep the channel open.
pub(super) struct WeakTx<T, S: ChanSemaphore> {
    chan: Arc<Chan<T, S>>,
}

/// The receiver's share.
pub(super) struct Rx<T, S: ChanSemaphore> {
    chan: Arc<Chan<T, S>>,
    /// Messages taken from the shared queue but not yet handed out, oldest
    /// first; each still holds its permit.
    taken: TakenQueue<T>,
}

/// The receiver's own queue of messages taken from the shared one.
struct TakenQueue<T>(BlockQueue<T>);

// SAFETY: through a shared reference the queue only exposes its length,
// never a `T`, so sharing it between threads needs no more of `T` than
// moving it does (the same bound the shared queue under its lock has).
unsafe impl<T: Send> Sync for TakenQueue<T> {}

pub(super) fn channel<T, S: ChanSemaphore>(semaphore: S) -> (Tx<T, S>, Rx<T, S>) {
    let chan = Arc::new(Chan {
        shared: Mutex::new(Shared {
            queue: BlockQueue::new(),
            rx_waker: None,
            tx_closed: false,
            rx_closed: false,
        }),
        semaphore,
        tx_count: AtomicUsize::new(1),
        tx_weak_count: AtomicUsize::new(0),
        rx_closed: AtomicBool::new(false),
        notify_rx_closed: Notify::new(),
    });
    (
        Tx { chan: chan.clone() },
        Rx {
            chan,
            taken: TakenQueue(BlockQueue::new()),
        },
    )
}

impl<T, S: ChanSemaphore> Chan<T, S> {
    fn is_finished(&self, shared: &Shared<T>) -> bool {
        shared.queue.is_empty()
            && (shared.tx_closed || (shared.rx_closed && self.semaphore.is_idle()))
    }

    /// Wakes the receiver once a closed channel has no permit left out,
    /// so that it can see the end.
    #[inline]
    fn wake_rx_if_closed_and_idle(&self) {
        if self.rx_closed.load(Ordering::Acquire) && self.semaphore.is_idle() {
            self.wake_rx_now();
        }
    }

    #[inline(never)]
    fn wake_rx_now(&self) {
        wake(lock(&self.shared));
    }
}

/// Takes the receiver's waker under the lock and wakes it after releasing
/// the lock.
fn wake<T>(mut shared: MutexGuard<'_, Shared<T>>) {
    let waker = shared.rx_waker.take();
    drop(shared);
    if let Some(waker) = waker {
        waker.wake();
    }
}

impl<T, S: ChanSemaphore> Tx<T, S> {
    /// Pushes a message whose capacity is already accounted for (a used
    /// permit, or an unbounded channel found open).
    fn push(&self, value: T, mut shared: MutexGuard<'_, Shared<T>>) {
        shared.queue.push(value);
        wake(shared);
    }

    pub(super) fn is_closed(&self) -> bool {
        self.chan.rx_closed.load(Ordering::Acquire)
    }

    pub(super) async fn closed(&self) {
        loop {
            let mut notified = pin!(self.chan.notify_rx_closed.notified());
            notified.as_mut().enable();
            if self.is_closed() {
                return;
            }
            notified.await;
        }
    }

    pub(super) fn same_channel(&self, other: &Tx<T, S>) -> bool {
        Arc::ptr_eq(&self.chan, &other.chan)
    }

    pub(super) fn downgrade(&self) -> WeakTx<T, S> {
        self.chan.tx_weak_count.fetch_add(1, Ordering::Relaxed);
        WeakTx {
            chan: self.chan.clone(),
        }
    }

    pub(super) fn strong_count(&self) -> usize {
        self.chan.tx_count.load(Ordering::Acquire)
    }

    pub(super) fn weak_count(&self) -> usize {
        self.chan.tx_weak_count.load(Ordering::Acquire)
    }
}

impl<T> Tx<T, BoundedSemaphore> {
    /// Pushes a message for which a permit was consumed.
    pub(super) fn push_permitted(&self, value: T) {
        self.push(value, lock(&self.chan.shared));
    }

    pub(super) fn semaphore(&self) -> &ll::Semaphore {
        &self.chan.semaphore.semaphore
    }

    pub(super) fn max_capacity(&self) -> usize {
        self.chan.semaphore.bound
    }

    /// The first step of a send: one free permit taken in a single atomic
    /// step, charged to the task's budget as a granted [`reserve`] is.
    /// `Ready(None)` when none is free: the caller queues with `reserve`
    /// (the budget unit is given back, `reserve` charges its own).
    ///
    /// [`reserve`]: Self::reserve
    #[inline]
    pub(super) fn poll_take_free_slot(&self, cx: &mut Context<'_>) -> Poll<Option<Result<(), ()>>> {
        let progress = ready!(coop::poll_proceed(cx));
        let granted = match self.semaphore().try_acquire(1) {
            Ok(()) => Ok(()),
            Err(ll::TryAcquireError::Closed) => Err(()),
            Err(ll::TryAcquireError::NoPermits) => return Poll::Ready(None),
        };
        progress.made_progress();
        Poll::Ready(Some(granted))
    }

    /// Takes `n` permits, failing if the channel is or becomes closed.
    pub(super) fn reserve(&self, n: usize) -> Reserve<'_, T> {
        Reserve {
            acquire: self.semaphore().acquire(n),
            permits: n,
            wake: WakeRxUnlessGranted {
                chan: &self.chan,
                granted: false,
            },
        }
    }

    /// Returns `n` permits that were not used for messages.
    pub(super) fn release_permits(&self, n: usize) {
        self.chan.semaphore.add_permits(n);
        self.chan.wake_rx_if_closed_and_idle();
    }
}

impl<T> Tx<T, UnboundedSemaphore> {
    /// Pushes onto an unbounded channel unless the receiver closed it.
    pub(super) fn push_unbounded(&self, value: T) -> Result<(), T> {
        let shared = lock(&self.chan.shared);
        if shared.rx_closed {
            return Err(value);
        }
        self.push(value, shared);
        Ok(())
    }
}

impl<T, S: ChanSemaphore> Clone for Tx<T, S> {
    fn clone(&self) -> Self {
        self.chan.tx_count.fetch_add(1, Ordering::Relaxed);
        Tx {
            chan: self.chan.clone(),
        }
    }
}

impl<T, S: ChanSemaphore> Drop for Tx<T, S> {
    fn drop(&mut self) {
        if self.chan.tx_count.fetch_sub(1, Ordering::AcqRel) != 1 {
            return;
        }
        let mut shared = lock(&self.chan.shared);
        shared.tx_closed = true;
        wake(shared);
    }
}

impl<T, S: ChanSemaphore> WeakTx<T, S> {
    pub(super) fn upgrade(&self) -> Option<Tx<T, S>> {
        let mut count = self.chan.tx_count.load(Ordering::Relaxed);
        loop {
            if count == 0 {
                return None;
            }
            match self.chan.tx_count.compare_exchange_weak(
                count,
                count + 1,
                Ordering::AcqRel,
                Ordering::Relaxed,
            ) {
                Ok(_) => {
                    return Some(Tx {
                        chan: self.chan.clone(),
                    })
                }
                Err(actual) => count = actual,
            }
        }
    }

    pub(super) fn strong_count(&self) -> usize {
        self.chan.tx_count.load(Ordering::Acquire)
    }

    pub(super) fn weak_count(&self) -> usize {
        self.chan.tx_weak_count.load(Ordering::Acquire)
    }
}

impl<T, S: ChanSemaphore> Clone for WeakTx<T, S> {
    fn clone(&self) -> Self {
        self.chan.tx_weak_count.fetch_add(1, Ordering::Relaxed);
        WeakTx {
            chan: self.chan.clone(),
        }
    }
}

impl<T, S: ChanSemaphore> Drop for WeakTx<T, S> {
    fn drop(&mut self) {
        self.chan.tx_weak_count.fetch_sub(1, Ordering::AcqRel);
    }
}

impl<T, S: ChanSemaphore> Rx<T, S> {
    pub(super) fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Option<T>> {
        let mut received = None;
        ready!(self.poll_take(cx, 1, |value| received = Some(value)));
        Poll::Ready(received)
    }

    pub(super) fn poll_recv_many(
        &mut self,
        cx: &mut Context<'_>,
        buffer: &mut Vec<T>,
        limit: usize,
    ) -> Poll<usize> {
        if limit == 0 {
            return Poll::Ready(0);
        }
        self.poll_take(cx, limit, |value| buffer.push(value))
    }

    /// Hands up to `limit` (at least 1) queued messages to `take` and says
    /// how many; 0 means the channel is finished. With nothing queued and
    /// the channel still open, registers `cx`'s waker.
    fn poll_take(
        &mut self,
        cx: &mut Context<'_>,
        limit: usize,
        mut take: impl FnMut(T),
    ) -> Poll<usize> {
        std::task::ready!(rt_core::task::trace::trace_leaf());
        let progress = ready!(coop::poll_proceed(cx));
        if self.taken.0.is_empty() {
            let mut shared = lock(&self.chan.shared);
            if shared.queue.is_empty() {
                if self.chan.is_finished(&shared) {
                    progress.made_progress();
                    return Poll::Ready(0);
                }
                match &shared.rx_waker {
                    Some(w) if w.will_wake(cx.waker()) => {}
                    _ => shared.rx_waker = Some(cx.waker().clone()),
                }
                return Poll::Pending;
            }
            if let Some(value) = take_one_or_swap(&mut self.taken, &mut shared) {
                drop(shared);
                take(value);
                self.chan.semaphore.add_permits(1);
                progress.made_progress();
                return Poll::Ready(1);
            }
        }
        let mut handed = self.hand_out(limit, &mut take);
        // Only `recv_many` can want more than it was handed, and then its
        // own queue is empty and may be swapped again.
        if handed < limit && self.take_queued() {
            handed += self.hand_out(limit - handed, &mut take);
        }
        progress.made_progress();
        Poll::Ready(handed)
    }

    /// With the receiver's own queue empty: swaps the shared queue in if it
    /// holds messages, and says whether it did.
    fn take_queued(&mut self) -> bool {
        debug_assert!(self.taken.0.is_empty());
        let mut shared = lock(&self.chan.shared);
        if shared.queue.is_empty() {
            return false;
        }
        std::mem::swap(&mut shared.queue, &mut self.taken.0);
        true
    }

    /// Hands up to `limit` taken messages to `take`, returning their
    /// permits, and says how many.
    #[inline]
    fn hand_out(&mut self, limit: usize, take: &mut impl FnMut(T)) -> usize {
        let mut handed = 0;
        while handed < limit {
            match self.taken.0.pop() {
                Some(value) => {
                    take(value);
                    handed += 1;
                }
                None => break,
            }
        }
        self.chan.semaphore.add_permits(handed);
        handed
    }

    pub(super) fn try_recv(&mut self) -> Result<T, TryRecvError> {
        if self.taken.0.is_empty() {
            let mut shared = lock(&self.chan.shared);
            if shared.queue.is_empty() {
                return if self.chan.is_finished(&shared) {
                    Err(TryRecvError::Disconnected)
                } else {
                    Err(TryRecvError::Empty)
                };
            }
            if let Some(value) = take_one_or_swap(&mut self.taken, &mut shared) {
                drop(shared);
                self.chan.semaphore.add_permits(1);
                return Ok(value);
            }
        }
        let mut received = None;
        self.hand_out(1, &mut |value| received = Some(value));
        Ok(received.expect("a swapped-in queue is not empty"))
    }

    pub(super) fn close(&mut self) {
        let mut shared = lock(&self.chan.shared);
        if shared.rx_closed {
            return;
        }
        shared.rx_closed = true;
        self.chan.rx_closed.store(true, Ordering::Release);
        drop(shared);
        self.chan.semaphore.close();
        self.chan.notify_rx_closed.notify_waiters();
    }

    pub(super) fn is_closed(&self) -> bool {
        let shared = lock(&self.chan.shared);
        shared.rx_closed || shared.tx_closed
    }

    pub(super) fn len(&self) -> usize {
        self.taken.0.len() + lock(&self.chan.shared).queue.len()
    }

    pub(super) fn sender_strong_count(&self) -> usize {
        self.chan.tx_count.load(Ordering::Acquire)
    }

    pub(super) fn sender_weak_count(&self) -> usize {
        self.chan.tx_weak_count.load(Ordering::Acquire)
    }
}

/// With the receiver's own queue empty and the shared one not: pops the
/// message if it is the only one (cheaper than swapping whole queues for
/// it), and otherwise swaps the shared queue in and returns `None`.
#[inline]
fn take_one_or_swap<T>(taken: &mut TakenQueue<T>, shared: &mut Shared<T>) -> Option<T> {
    debug_assert!(taken.0.is_empty() && !shared.queue.is_empty());
    if shared.queue.len() == 1 {
        return shared.queue.pop();
    }
    std::mem::swap(&mut shared.queue, &mut taken.0);
    None
}

impl<T> Rx<T, BoundedSemaphore> {
    pub(super) fn capacity(&self) -> usize {
        self.chan.semaphore.semaphore.available_permits()
    }

    pub(super) fn max_capacity(&self) -> usize {
        self.chan.semaphore.bound
    }
}

impl<T, S: ChanSemaphore> Drop for Rx<T, S> {
    fn drop(&mut self) {
        self.close();
        // Nothing will wake this receiver again; its waker may keep a whole
        // task alive, so release it now (outside the lock).
        let waker = lock(&self.chan.shared).rx_waker.take();
        drop(waker);
        // Drop taken and queued messages now, one at a time and outside
        // the lock: a message's destructor may itself touch this channel.
        // If one panics, the guard drops the rest while unwinding.
        let rest = DropRestOnUnwind(self);
        rest.0.drop_messages();
        std::mem::forget(rest);
    }
}

/// Drops the receiver's remaining messages if a message's destructor
/// panics part-way through [`Rx::drop_messages`].
struct DropRestOnUnwind<'a, T, S: ChanSemaphore>(&'a mut Rx<T, S>);

impl<T, S: ChanSemaphore> Drop for DropRestOnUnwind<'_, T, S> {
    fn drop(&mut self) {
        self.0.drop_messages();
    }
}

impl<T, S: ChanSemaphore> Rx<T, S> {
    /// Drops every taken and queued message, giving each one's permit back.
    fn drop_messages(&mut self) {
        while let Some(value) = self.taken.0.pop() {
            self.chan.semaphore.add_permits(1);
            drop(value);
        }
        loop {
            let value = lock(&self.chan.shared).queue.pop();
            match value {
                Some(value) => {
                    self.chan.semaphore.add_permits(1);
                    drop(value);
                }
                None => break,
            }
        }
    }
}

pin_project! {
    /// Waits for permits on a bounded channel. If it is dropped without being
    /// granted them (cancelled, or failed because the channel closed), the
    /// permits it held are returned first and then the receiver is woken when
    /// that leaves a closed channel idle, so the receiver can see the end.
    pub(super) struct Reserve<'a, T> {
        // Fields drop in declaration order: `acquire` gives its permits back
        // before `wake` looks at the channel.
        #[pin]
        acquire: ll::Acquire<'a>,
        permits: usize,
        wake: WakeRxUnlessGranted<'a, T>,
    }
}

/// The last step of dropping a [`Reserve`]: unless the permits were
/// granted, wakes the receiver if the ones given back left a closed channel
/// idle.
struct WakeRxUnlessGranted<'a, T> {
    chan: &'a Arc<Chan<T, BoundedSemaphore>>,
    granted: bool,
}

impl<T> Future for Reserve<'_, T> {
    type Output = Result<(), ()>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let result = ready!(this.acquire.poll(cx));
        if result.is_ok() && this.wake.chan.rx_closed.load(Ordering::Acquire) {
            // The slots were assigned before the receiver closed the
            // channel: nothing can be sent with them, so they go back at
            // once, and a receiver waiting for the channel to drain learns
            // that it has (as `release_permits` does).
            this.wake.chan.semaphore.add_permits(*this.permits);
            this.wake.chan.wake_rx_if_closed_and_idle();
            this.wake.granted = true;
            return Poll::Ready(Err(()));
        }
        this.wake.granted = result.is_ok();
        Poll::Ready(result.map_err(|_| ()))
    }
}

impl<T> Drop for WakeRxUnlessGranted<'_, T> {
    #[inline]
    fn drop(&mut self) {
        if !self.granted {
            self.chan.wake_rx_if_closed_and_idle();
        }
    }
}
