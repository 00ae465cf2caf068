//! The batch semaphore every other primitive of this crate is built on.
//!
//! # Protocol
//!
//! * `permits` holds `available << 2 | WAITING | CLOSED`. Taking permits that
//!   are there is a compare-and-swap on it, with no lock.
//! * `waiters` is a lock around a FIFO queue of [`Waiter`] nodes that live
//!   inside [`Acquire`] futures (an intrusive list, so waiting never
//!   allocates). New waiters go to the back; permits are handed out from the
//!   front.
//! * Invariant: whenever the lock is not held and the queue is not empty,
//!   `available` is zero. Releasing permits happens under the lock and gives
//!   them to queued waiters first (partially, if the head waiter needs more
//!   than there is); only what is left once the queue is empty returns to the
//!   atomic. A waiter about to queue takes, under the lock, everything the
//!   atomic still holds. So a newcomer can never overtake a queued waiter,
//!   which is what makes the semaphore fair.
//! * `WAITING` is set whenever the queue is not empty. A waiter about to
//!   queue sets it in the same compare-and-swap that takes the last free
//!   permits; whoever empties the queue clears it, under the lock. A release
//!   that finds it clear adds its permits to the atomic by compare-and-swap
//!   without taking the lock: nobody is queued, and anyone about to queue
//!   either sees those permits in its own compare-and-swap or has set the
//!   bit first, which makes the release fail its swap and take the lock.
//! * A queued waiter's `remaining` count and waker are only touched under the
//!   lock. A waiter whose `remaining` reached zero has been unlinked by the
//!   releaser and owns its permits.
//! * Cancelling (dropping) a queued [`Acquire`] unlinks the node under the
//!   lock and releases the permits it had been partially given, which may
//!   complete the next waiters.
//! * Wakers are collected under the lock and woken after it is dropped.
//!
//! Releasing, acquiring and closing synchronise with acquire/release
//! orderings, so writes made before releasing a permit are visible to the
//! task that acquires it.

use crate::locked::lock;
use pin_project_lite::pin_project;
use rt_core::loom::cell::UnsafeCell;
use rt_core::loom::sync::atomic::{AtomicUsize, Ordering};
use rt_core::loom::sync::{Mutex, MutexGuard};
use rt_core::task::coop;
use rt_core::util::linked_list::{self, LinkedList};
use rt_core::util::WakeList;
use std::fmt;
use std::future::Future;
use std::marker::PhantomPinned;
use std::pin::Pin;
use std::ptr::NonNull;
use std::task::{ready, Context, Poll, Waker};

/// The most permits a semaphore can hold: three bits are kept free for flags.
pub(crate) const MAX_PERMITS: usize = usize::MAX >> 3;
const CLOSED: usize = 1;
/// Set while waiters are queued (see the protocol above).
const WAITING: usize = 2;
const PERMIT_SHIFT: usize = 2;

/// A counting semaphore with a fair FIFO queue of waiters.
pub(crate) struct Semaphore {
    permits: AtomicUsize,
    waiters: Mutex<Waitlist>,
}

struct Waitlist {
    queue: LinkedList<Waiter>,
    closed: bool,
}

/// The semaphore was closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Closed;

/// Why `try_acquire` failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TryAcquireError {
    Closed,
    NoPermits,
}

/// A node of the wait queue, embedded in an [`Acquire`] future.
struct Waiter {
    /// Permits still to be assigned, and the waker; both under the lock.
    state: UnsafeCell<WaiterState>,
    pointers: linked_list::Pointers<Waiter>,
    _pin: PhantomPinned,
}

struct WaiterState {
    remaining: usize,
    waker: Option<Waker>,
}

pin_project! {
    /// Waits for permits; dropping it before completion gives back whatever it
    /// had been assigned.
    pub(crate) struct Acquire<'a> {
        semaphore: &'a Semaphore,
        #[pin]
        node: Waiter,
        num_permits: usize,
        queued: bool,
    }

    impl PinnedDrop for Acquire<'_> {
        #[inline]
        fn drop(this: Pin<&mut Self>) {
            let this = this.into_ref().get_ref();
            if this.queued {
                this.cancel();
            }
        }
    }
}

impl Semaphore {
    /// A semaphore holding `permits` permits.
    ///
    /// Panics if `permits` exceeds [`MAX_PERMITS`].
    pub(crate) fn new(permits: usize) -> Semaphore {
        assert_permits(permits);
        Semaphore {
            permits: AtomicUsize::new(permits << PERMIT_SHIFT),
            waiters: Mutex::new(Waitlist {
                queue: LinkedList::new(),
                closed: false,
            }),
        }
    }

    /// As [`new`](Self::new), usable in constant contexts.
    #[cfg(not(loom))]
    pub(crate) const fn const_new(permits: usize) -> Semaphore {
        assert!(
            permits <= MAX_PERMITS,
            "a semaphore may not have more than MAX_PERMITS permits"
        );
        Semaphore {
            permits: AtomicUsize::new(permits << PERMIT_SHIFT),
            waiters: Mutex::new(Waitlist {
                queue: LinkedList::new(),
                closed: false,
            }),
        }
    }

    /// A closed semaphore with no permits, usable in constant contexts.
    #[cfg(not(loom))]
    pub(crate) const fn const_new_closed() -> Semaphore {
        Semaphore {
            permits: AtomicUsize::new(CLOSED),
            waiters: Mutex::new(Waitlist {
                queue: LinkedList::new(),
                closed: true,
            }),
        }
    }

    /// Permits available right now.
    #[inline]
    pub(crate) fn available_permits(&self) -> usize {
        self.permits.load(Ordering::Acquire) >> PERMIT_SHIFT
    }

    /// Whether [`close`](Self::close) was called.
    pub(crate) fn is_closed(&self) -> bool {
        self.permits.load(Ordering::Acquire) & CLOSED == CLOSED
    }

    /// Takes `n` permits if they are available right now.
    #[inline]
    pub(crate) fn try_acquire(&self, n: usize) -> Result<(), TryAcquireError> {
        assert_permits(n);
        self.take_exactly(n)
    }

    /// Takes exactly `n` free permits in one atomic step, or nothing: the
    /// lock-free path of both `try_acquire` and a first poll of `acquire`.
    #[inline]
    fn take_exactly(&self, n: usize) -> Result<(), TryAcquireError> {
        let needed = n << PERMIT_SHIFT;
        let mut current = self.permits.load(Ordering::Acquire);
        loop {
            if current & CLOSED == CLOSED {
                return Err(TryAcquireError::Closed);
            }
            if current < needed {
                return Err(TryAcquireError::NoPermits);
            }
            match self.permits.compare_exchange_weak(
                current,
                current - needed,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Ok(()),
                Err(actual) => current = actual,
            }
        }
    }

    /// A future that resolves once `n` permits were taken, or fails when the
    /// semaphore is closed.
    #[inline]
    pub(crate) fn acquire(&self, n: usize) -> Acquire<'_> {
        assert_permits(n);
        Acquire {
            semaphore: self,
            node: Waiter {
                state: UnsafeCell::new(WaiterState {
                    remaining: n,
                    waker: None,
                }),
                pointers: linked_list::Pointers::new(),
                _pin: PhantomPinned,
            },
            num_permits: n,
            queued: false,
        }
    }

    /// Removes up to `n` available permits without waiting; returns how many
    /// were removed.
    pub(crate) fn forget_permits(&self, n: usize) -> usize {
        // Forgetting works on a closed semaphore too.
        self.take_up_to(n, false).unwrap_or(0)
    }

    /// Takes up to `n` free permits in one atomic step and says how many (0
    /// when none are free). With `fail_if_closed`, a closed semaphore gives
    /// `Err(Closed)` and nothing is taken.
    fn take_up_to(&self, n: usize, fail_if_closed: bool) -> Result<usize, Closed> {
        let mut current = self.permits.load(Ordering::Acquire);
        loop {
            if fail_if_closed && current & CLOSED == CLOSED {
                return Err(Closed);
            }
            let taken = n.min(current >> PERMIT_SHIFT);
            if taken == 0 {
                return Ok(0);
            }
            match self.permits.compare_exchange_weak(
                current,
                current - (taken << PERMIT_SHIFT),
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Ok(taken),
                Err(actual) => current = actual,
            }
        }
    }

    /// Under the lock, for a waiter about to queue: takes up to `n` free
    /// permits and, if that is not all of `n`, sets `WAITING` in the same
    /// step, so no lock-free release can slip permits past the queue.
    fn take_all_or_flag_waiting(&self, n: usize) -> Result<usize, Closed> {
        let mut current = self.permits.load(Ordering::Acquire);
        loop {
            if current & CLOSED == CLOSED {
                return Err(Closed);
            }
            let taken = n.min(current >> PERMIT_SHIFT);
            let mut next = current - (taken << PERMIT_SHIFT);
            if taken < n {
                next |= WAITING;
            }
            match self.permits.compare_exchange_weak(
                current,
                next,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Ok(taken),
                Err(actual) => current = actual,
            }
        }
    }

    /// Gives `n` permits to the queued waiters, oldest first, and keeps what
    /// is left.
    ///
    /// Panics if the total would exceed [`MAX_PERMITS`].
    ///
    /// Inlined into callers in other crates (the channel code is generic and
    /// compiled there): the lock-free path is a few instructions, and the
    /// queued path is a separate call.
    #[inline]
    pub(crate) fn release(&self, n: usize) {
        if n == 0 {
            return;
        }
        assert!(
            n <= MAX_PERMITS,
            "number of added permits ({n}) would overflow MAX_PERMITS ({MAX_PERMITS})"
        );
        // Fast path: nobody queued, so the permits go straight back.
        let added = n << PERMIT_SHIFT;
        let mut current = self.permits.load(Ordering::Acquire);
        while current & WAITING == 0 && (current >> PERMIT_SHIFT) <= MAX_PERMITS - n {
            match self.permits.compare_exchange_weak(
                current,
                current + added,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return,
                Err(actual) => current = actual,
            }
        }
        // Waiters are queued (or the total would overflow, which the slow
        // path reports).
        self.release_queued(n);
    }

    /// The locked part of [`release`](Self::release): waiters are queued,
    /// so the permits go to them first.
    #[inline(never)]
    fn release_queued(&self, n: usize) {
        self.release_locked(n, lock(&self.waiters));
    }

    /// Clears `WAITING` once the queue is empty; called under the lock by
    /// whoever changed the queue.
    fn clear_waiting_if_idle(&self, waitlist: &Waitlist) {
        if waitlist.queue.is_empty() && self.permits.load(Ordering::Acquire) & WAITING != 0 {
            self.permits.fetch_and(!WAITING, Ordering::AcqRel);
        }
    }

    fn release_locked(&self, mut n: usize, guard: MutexGuard<'_, Waitlist>) {
        let mut wakers = WakeList::new();
        let mut guard = Some(guard);
        loop {
            let mut waitlist = guard.take().unwrap_or_else(|| lock(&self.waiters));
            while n > 0 && wakers.can_push() {
                let Some(head) = waitlist.queue.front() else {
                    break;
                };
                // SAFETY: `head` is linked, so its `Acquire` future is alive
                // (it unlinks itself under this lock before it goes away), and
                // the lock we hold gives us its state.
                let completed = unsafe {
                    head.as_ref().state.with_mut(|state| {
                        let state = &mut *state;
                        let given = state.remaining.min(n);
                        state.remaining -= given;
                        n -= given;
                        if state.remaining == 0 {
                            Some(state.waker.take())
                        } else {
                            None
                        }
                    })
                };
                match completed {
                    Some(waker) => {
                        waitlist.queue.pop_front();
                        if let Some(waker) = waker {
                            wakers.push(waker);
                        }
                    }
                    None => break,
                }
            }
            // Permits go back to the atomic only once nobody waits for them.
            self.clear_waiting_if_idle(&waitlist);
            if n > 0 && waitlist.queue.is_empty() {
                let previous = self.permits.fetch_add(n << PERMIT_SHIFT, Ordering::Release);
                let total = (previous >> PERMIT_SHIFT).saturating_add(n);
                if total > MAX_PERMITS {
                    self.permits.fetch_sub(n << PERMIT_SHIFT, Ordering::Release);
                    drop(waitlist);
                    wakers.wake_all();
                    panic!(
                        "number of added permits ({n}) would overflow MAX_PERMITS ({MAX_PERMITS})"
                    );
                }
                n = 0;
            }
            drop(waitlist);
            wakers.wake_all();
            if n == 0 {
                return;
            }
        }
    }

    /// Closes the semaphore: every queued waiter fails, and so does every
    /// later acquisition. Permits already held stay valid.
    pub(crate) fn close(&self) {
        let mut wakers = WakeList::new();
        let mut waitlist = lock(&self.waiters);
        self.permits.fetch_or(CLOSED, Ordering::Release);
        waitlist.closed = true;
        loop {
            while wakers.can_push() {
                let Some(node) = waitlist.queue.pop_front() else {
                    break;
                };
                // SAFETY: `node` was linked until now, so its future is alive
                // and waiting on this lock to unlink it; we hold the lock.
                let waker = unsafe { node.as_ref().state.with_mut(|s| (*s).waker.take()) };
                if let Some(waker) = waker {
                    wakers.push(waker);
                }
            }
            self.clear_waiting_if_idle(&waitlist);
            let done = waitlist.queue.is_empty();
            drop(waitlist);
            wakers.wake_all();
            if done {
                return;
            }
            waitlist = lock(&self.waiters);
        }
    }

    /// The first poll takes free permits lock-free and is inlined into the
    /// caller; queueing and re-polls of a queued waiter are separate calls.
    #[inline]
    fn poll_acquire(
        &self,
        cx: &mut Context<'_>,
        num_permits: usize,
        node: Pin<&mut Waiter>,
        queued: &mut bool,
    ) -> Poll<Result<(), Closed>> {
        if *queued {
            return self.poll_queued(cx, node, queued);
        }
        // Fast path: enough permits and, by the invariant, nobody queued.
        match self.take_exactly(num_permits) {
            Ok(()) => Poll::Ready(Ok(())),
            Err(TryAcquireError::Closed) => Poll::Ready(Err(Closed)),
            Err(TryAcquireError::NoPermits) => self.poll_enqueue(cx, num_permits, node, queued),
        }
    }

    /// Slow path of a first poll: under the lock, take what is there and
    /// queue for the rest. Releases cannot run meanwhile, so none can be
    /// missed.
    #[inline(never)]
    fn poll_enqueue(
        &self,
        cx: &mut Context<'_>,
        num_permits: usize,
        node: Pin<&mut Waiter>,
        queued: &mut bool,
    ) -> Poll<Result<(), Closed>> {
        let mut waitlist = lock(&self.waiters);
        let taken = match self.take_all_or_flag_waiting(num_permits) {
            Ok(taken) => taken,
            Err(Closed) => return Poll::Ready(Err(Closed)),
        };
        if taken == num_permits {
            return Poll::Ready(Ok(()));
        }
        // SAFETY: the node is not linked yet, so nobody else reads its state.
        unsafe {
            node.state.with_mut(|state| {
                (*state).remaining = num_permits - taken;
                (*state).waker = Some(cx.waker().clone());
            });
        }
        // SAFETY: the node is pinned inside the `Acquire` future, whose drop
        // unlinks it under this lock before the memory goes away.
        let handle = unsafe { NonNull::from(Pin::into_inner_unchecked(node)) };
        waitlist.queue.push_back(handle);
        *queued = true;
        Poll::Pending
    }

    /// A re-poll of a waiter that is (or was) queued: done once the
    /// releasers assigned all its permits.
    #[inline(never)]
    fn poll_queued(
        &self,
        cx: &mut Context<'_>,
        node: Pin<&mut Waiter>,
        queued: &mut bool,
    ) -> Poll<Result<(), Closed>> {
        let waitlist = lock(&self.waiters);
        // SAFETY: we hold the lock, which owns the state of a queued node;
        // a node that left the queue is touched by nobody else.
        let (satisfied, replaced) = unsafe {
            node.state.with_mut(|state| {
                let state = &mut *state;
                if state.remaining == 0 {
                    return (true, None);
                }
                match &state.waker {
                    Some(w) if w.will_wake(cx.waker()) => (false, None),
                    _ => (false, state.waker.replace(cx.waker().clone())),
                }
            })
        };
        let closed = waitlist.closed;
        drop(waitlist);
        // The old waker's drop may run arbitrary code (even use this
        // semaphore): never under the lock.
        drop(replaced);
        if satisfied {
            *queued = false;
            return Poll::Ready(Ok(()));
        }
        if closed {
            // `close` unlinked us; partial permits are handed back on drop.
            return Poll::Ready(Err(Closed));
        }
        Poll::Pending
    }
}

fn assert_permits(n: usize) {
    assert!(
        n <= MAX_PERMITS,
        "a semaphore may not have more than MAX_PERMITS permits ({MAX_PERMITS})"
    );
}

impl fmt::Debug for Semaphore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Semaphore")
            .field("permits", &self.available_permits())
            .field("closed", &self.is_closed())
            .finish()
    }
}

impl Future for Acquire<'_> {
    type Output = Result<(), Closed>;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // The budget is checked only once acquired, not before: a task out
        // of budget still takes its place in the queue (or its permits),
        // so running out of budget never lets a later waiter overtake it,
        // and a waiter that stays queued is not rescheduled by the budget.
        std::task::ready!(rt_core::task::trace::trace_leaf());
        let mut this = self.project();
        let result = ready!(this.semaphore.poll_acquire(
            cx,
            *this.num_permits,
            this.node.as_mut(),
            this.queued
        ));
        if result.is_err() {
            return Poll::Ready(result);
        }
        match coop::poll_proceed(cx) {
            Poll::Ready(progress) => {
                progress.made_progress();
                Poll::Ready(result)
            }
            Poll::Pending => {
                Semaphore::hold_acquired(this.node, this.queued);
                Poll::Pending
            }
        }
    }
}

impl Semaphore {
    /// Keeps the permits an `Acquire` just got while it yields for lack of
    /// budget: its node records them as fully assigned (as a releaser
    /// would) and it counts as queued, so the next poll completes at once
    /// and a drop in between gives them back.
    #[inline(never)]
    fn hold_acquired(node: Pin<&mut Waiter>, queued: &mut bool) {
        // SAFETY: the acquisition just completed, so the node is in no
        // queue (never linked, or unlinked by the releaser that satisfied
        // it) and nobody else touches its state.
        unsafe { node.state.with_mut(|state| (*state).remaining = 0) };
        *queued = true;
    }
}

impl Acquire<'_> {
    /// Leaves the queue and gives back whatever had been assigned.
    #[inline(never)]
    fn cancel(&self) {
        let mut waitlist = lock(&self.semaphore.waiters);
        let node = NonNull::from(&self.node);
        // SAFETY: the node is either linked in this semaphore's queue or was
        // unlinked by a releaser or `close`; it is in no other list.
        unsafe { waitlist.queue.remove(node) };
        // SAFETY: the node is unlinked and we hold the lock.
        let remaining = unsafe { self.node.state.with(|s| (*s).remaining) };
        let assigned = self.num_permits - remaining;
        if assigned > 0 {
            self.semaphore.release_locked(assigned, waitlist);
        } else {
            self.semaphore.clear_waiting_if_idle(&waitlist);
        }
    }
}

impl fmt::Debug for Acquire<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Acquire")
            .field("num_permits", &self.num_permits)
            .field("queued", &self.queued)
            .finish()
    }
}

// SAFETY: a waiter's state and pointers are only touched under the
// semaphore's lock (or by the future that owns the unlinked node), and a
// `Waker` is `Send + Sync`.
unsafe impl Send for Waiter {}
// SAFETY: as above; shared access to a node only ever happens under the lock.
unsafe impl Sync for Waiter {}

// SAFETY: a waiter is pinned inside its `Acquire` future, whose drop
// unlinks it under the semaphore's lock.
linked_list::link_by_address!(unsafe Waiter, pointers);
