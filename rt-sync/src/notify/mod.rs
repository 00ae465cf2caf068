//! `Notify`: wake one task, the newest task, or every waiting task, with a
//! stored permit when `notify_one` finds nobody waiting.
//!
//! # Protocol
//!
//! The atomic `state` packs two things:
//!
//! * bits 0-1: `EMPTY` (nobody waits, no permit), `WAITING` (the queue is
//!   not empty) or `NOTIFIED` (a permit is stored);
//! * the remaining bits: how many times `notify_waiters` was called.
//!
//! `EMPTY <-> NOTIFIED` may change with a compare-and-swap and no lock.
//! Every transition into or out of `WAITING` happens under the `waiters`
//! lock, together with the queue change that justifies it.
//!
//! A [`Notified`] remembers the `notify_waiters` count at creation, so a
//! `notify_waiters` call made after it was created completes it even if it
//! was never polled. Waiter nodes live inside the `Notified` futures; their
//! waker is only touched under the lock. Their notification is written
//! under the lock too, as the notifier's last touch of a node it has
//! already unlinked (a release store), so a woken waiter reads it (an
//! acquire load) without taking the lock.

mod owned;

pub use owned::OwnedNotified;

use crate::locked::lock;
use pin_project_lite::pin_project;
use rt_core::loom::cell::UnsafeCell;
use rt_core::loom::sync::atomic::{
    AtomicU8, AtomicUsize,
    Ordering::{Acquire, Release, SeqCst},
};
use rt_core::loom::sync::Mutex;
use rt_core::util::linked_list::{self, LinkedList};
use rt_core::util::WakeList;
use std::fmt;
use std::future::Future;
use std::marker::PhantomPinned;
use std::ops::Deref;
use std::pin::Pin;
use std::ptr::NonNull;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

const EMPTY: usize = 0;
const WAITING: usize = 1;
const NOTIFIED: usize = 2;
const STATE_MASK: usize = 0b11;
const CALL_UNIT: usize = 0b100;

fn state_of(word: usize) -> usize {
    word & STATE_MASK
}

fn with_state(word: usize, state: usize) -> usize {
    (word & !STATE_MASK) | state
}

fn calls_of(word: usize) -> usize {
    word >> 2
}

/// Lets one task wake others, without sending data.
///
/// [`notify_one`](Notify::notify_one) wakes the longest-waiting task, or,
/// if none waits, stores a single permit that the next
/// [`notified`](Notify::notified) consumes at once (several calls still
/// store one permit). [`notify_waiters`](Notify::notify_waiters) wakes every
/// task waiting at that moment, and every `Notified` future created before
/// the call, and stores nothing.
///
/// ```
/// use rt_sync::Notify;
/// use std::sync::Arc;
///
/// # rt_sync::__doc::block_on(async {
/// let notify = Arc::new(Notify::new());
/// notify.notify_one(); // stored as a permit
/// notify.notified().await; // consumes it without waiting
/// # });
/// ```
pub struct Notify {
    state: AtomicUsize,
    waiters: Mutex<LinkedList<Waiter>>,
}

/// Which notification reached a waiter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Notification {
    /// From `notify_one`: must be passed on if the waiter is dropped.
    One = 1,
    /// From `notify_last`: likewise, passed on to the newest waiter.
    Last = 2,
    /// From `notify_waiters`.
    All = 3,
}

impl Notification {
    /// The notification stored as `byte` (`0`: none yet).
    fn from_byte(byte: u8) -> Option<Notification> {
        match byte {
            1 => Some(Notification::One),
            2 => Some(Notification::Last),
            3 => Some(Notification::All),
            _ => None,
        }
    }
}

struct Waiter {
    pointers: linked_list::Pointers<Waiter>,
    /// Under the `waiters` lock.
    inner: UnsafeCell<WaiterInner>,
    /// The `Notification` that reached this waiter, as a byte (`0`: none):
    /// stored under the lock once the node is unlinked and its waker
    /// taken, read by its future with or without the lock.
    notification: AtomicU8,
    _pin: PhantomPinned,
}

struct WaiterInner {
    waker: Option<Waker>,
}

impl Waiter {
    fn notification(&self) -> Option<Notification> {
        Notification::from_byte(self.notification.load(Acquire))
    }
}

// SAFETY: a waiter's waker and links are only touched under the notify's
// lock, or by its owning future once it is unlinked; its notification is
// an atomic.
unsafe impl Send for Waiter {}
// SAFETY: as above.
unsafe impl Sync for Waiter {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Init,
    Waiting,
    Done,
}

pin_project! {
    /// One wait on a `Notify` reached through `N` (a reference for
    /// [`Notified`], an `Arc` for [`OwnedNotified`]): the queue node and
    /// the stage the wait is in.
    struct Wait<N>
    where
        N: Deref<Target = Notify>,
    {
        notify: N,
        stage: Stage,
        calls_at_creation: usize,
        #[pin]
        waiter: Waiter,
    }

    impl<N> PinnedDrop for Wait<N>
    where
        N: Deref<Target = Notify>,
    {
        fn drop(this: Pin<&mut Self>) {
            this.into_ref().get_ref().leave_queue();
        }
    }
}

pin_project! {
    /// The future returned by [`Notify::notified`].
    ///
    /// # Cancel safety
    ///
    /// Dropping a `Notified` that received a `notify_one`/`notify_last` but was
    /// not polled to completion passes that notification on to the next waiter
    /// (or stores it as the permit), so it is not lost.
    #[must_use = "futures do nothing unless polled"]
    pub struct Notified<'a> {
        #[pin]
        wait: Wait<&'a Notify>,
    }
}

impl Notify {
    /// A `Notify` with no permit and no waiters.
    pub fn new() -> Notify {
        Notify {
            state: AtomicUsize::new(EMPTY),
            waiters: Mutex::new(LinkedList::new()),
        }
    }

    /// As [`new`](Self::new), usable in a `static`.
    #[cfg(not(loom))]
    pub const fn const_new() -> Notify {
        Notify {
            state: AtomicUsize::new(EMPTY),
            waiters: Mutex::new(LinkedList::new()),
        }
    }

    /// A future that completes when this `Notify` is notified.
    ///
    /// It takes part in `notify_waiters` from the moment it is created; it
    /// joins the queue for `notify_one`/`notify_last` when first polled or
    /// [`enable`](Notified::enable)d.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe: a `notify_one`/`notify_last` delivered to a future that
    /// is then dropped is passed on to the next waiter (or stored), and a
    /// dropped future leaves the queue. Waiters are woken in FIFO order, so
    /// re-creating the future moves the task to the back.
    pub fn notified(&self) -> Notified<'_> {
        Notified {
            wait: Wait::new(self),
        }
    }

    /// As [`notified`](Self::notified), but the future owns a reference
    /// count of the `Notify`, so it can outlive the borrow (to be stored or
    /// moved into a spawned task).
    ///
    /// ```
    /// use rt_sync::Notify;
    /// use std::sync::Arc;
    ///
    /// # rt_sync::__doc::block_on(async {
    /// let notify = Arc::new(Notify::new());
    /// let notified = notify.clone().notified_owned();
    /// notify.notify_waiters();
    /// notified.await;
    /// # });
    /// ```
    pub fn notified_owned(self: Arc<Self>) -> OwnedNotified {
        OwnedNotified::new(self)
    }

    /// Wakes the task that has waited longest, or stores a permit if none
    /// waits.
    pub fn notify_one(&self) {
        self.notify(Notification::One);
    }

    /// Wakes the task that started waiting most recently, or stores a
    /// permit if none waits.
    pub fn notify_last(&self) {
        self.notify(Notification::Last);
    }

    fn notify(&self, kind: Notification) {
        let mut word = self.state.load(SeqCst);
        while state_of(word) != WAITING {
            match self
                .state
                .compare_exchange(word, with_state(word, NOTIFIED), SeqCst, SeqCst)
            {
                Ok(_) => return,
                Err(actual) => word = actual,
            }
        }
        let mut waiters = lock(&self.waiters);
        let waker = self.notify_locked(&mut waiters, kind);
        drop(waiters);
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// Hands `kind` to one queued waiter, or stores the permit.
    fn notify_locked(&self, waiters: &mut LinkedList<Waiter>, kind: Notification) -> Option<Waker> {
        let mut word = self.state.load(SeqCst);
        loop {
            if state_of(word) != WAITING {
                match self
                    .state
                    .compare_exchange(word, with_state(word, NOTIFIED), SeqCst, SeqCst)
                {
                    Ok(_) => return None,
                    Err(actual) => {
                        word = actual;
                        continue;
                    }
                }
            }
            // New waiters are pushed at the front: the back is the oldest.
            let node = match kind {
                Notification::Last => waiters.pop_front(),
                _ => waiters.pop_back(),
            }
            .expect("WAITING with an empty queue");
            // SAFETY: the node was linked, so its future is alive, and we
            // hold the lock that owns its fields.
            let waker = unsafe {
                let waiter = node.as_ref();
                let waker = waiter.inner.with_mut(|inner| (*inner).waker.take());
                // The last touch of the node: its future may complete and
                // free it as soon as it sees this.
                waiter.notification.store(kind as u8, Release);
                waker
            };
            if waiters.is_empty() {
                // Only lock holders leave WAITING, so a store is enough.
                self.state.store(with_state(word, EMPTY), SeqCst);
            }
            return waker;
        }
    }

    /// Wakes every task waiting now, and completes every `Notified` created
    /// before this call. Stores no permit.
    pub fn notify_waiters(&self) {
        let mut waiters = lock(&self.waiters);
        let word = self.state.fetch_add(CALL_UNIT, SeqCst) + CALL_UNIT;
        if state_of(word) != WAITING {
            return;
        }
        let mut batch = WakeList::new();
        let mut overflow = Vec::new();
        while let Some(node) = waiters.pop_back() {
            // SAFETY: as in `notify_locked`.
            let waker = unsafe {
                let waiter = node.as_ref();
                let waker = waiter.inner.with_mut(|inner| (*inner).waker.take());
                // The last touch of the node, as in `notify_locked`.
                waiter.notification.store(Notification::All as u8, Release);
                waker
            };
            if let Some(waker) = waker {
                if batch.can_push() {
                    batch.push(waker);
                } else {
                    overflow.push(waker);
                }
            }
        }
        self.state.store(with_state(word, EMPTY), SeqCst);
        drop(waiters);
        batch.wake_all();
        overflow.into_iter().for_each(Waker::wake);
    }
}

impl Default for Notify {
    fn default() -> Self {
        Notify::new()
    }
}

impl fmt::Debug for Notify {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = self.state.load(SeqCst);
        f.debug_struct("Notify")
            .field("state", &state_of(word))
            .field("notify_waiters_calls", &calls_of(word))
            .finish()
    }
}

impl Notified<'_> {
    /// Joins the queue without a waker, so that a later `notify_one` is
    /// delivered to this future even before it is polled. Returns `true` if
    /// it is already notified.
    ///
    /// ```
    /// use rt_sync::Notify;
    /// use std::pin::pin;
    ///
    /// let notify = Notify::new();
    /// let mut notified = pin!(notify.notified());
    /// assert!(!notified.as_mut().enable());
    /// notify.notify_one();
    /// assert!(notified.as_mut().enable());
    /// ```
    pub fn enable(self: Pin<&mut Self>) -> bool {
        self.project().wait.poll_notified(None).is_ready()
    }
}

impl<N: Deref<Target = Notify>> Wait<N> {
    fn new(notify: N) -> Self {
        let calls_at_creation = calls_of(notify.state.load(SeqCst));
        Wait {
            notify,
            stage: Stage::Init,
            calls_at_creation,
            waiter: Waiter {
                pointers: linked_list::Pointers::new(),
                inner: UnsafeCell::new(WaiterInner { waker: None }),
                notification: AtomicU8::new(0),
                _pin: PhantomPinned,
            },
        }
    }

    fn poll_notified(self: Pin<&mut Self>, waker: Option<&Waker>) -> Poll<()> {
        let this = self.project();
        let notify: &Notify = this.notify;
        let calls_at_creation = *this.calls_at_creation;
        let stage = this.stage;
        let waiter = this.waiter.into_ref().get_ref();
        match *stage {
            Stage::Done => Poll::Ready(()),
            Stage::Init => {
                let word = notify.state.load(SeqCst);
                if Self::take_permit_or_broadcast(notify, calls_at_creation, word) {
                    *stage = Stage::Done;
                    return Poll::Ready(());
                }
                let mut waiters = lock(&notify.waiters);
                let mut word = notify.state.load(SeqCst);
                loop {
                    if Self::take_permit_or_broadcast(notify, calls_at_creation, word) {
                        *stage = Stage::Done;
                        return Poll::Ready(());
                    }
                    if state_of(word) == WAITING {
                        break;
                    }
                    // EMPTY: announce a waiter. May race with a lock-free
                    // EMPTY -> NOTIFIED, hence the loop.
                    match notify.state.compare_exchange(
                        word,
                        with_state(word, WAITING),
                        SeqCst,
                        SeqCst,
                    ) {
                        Ok(_) => break,
                        Err(actual) => word = actual,
                    }
                }
                // SAFETY: the node is not linked yet; it is ours alone.
                unsafe {
                    waiter
                        .inner
                        .with_mut(|inner| (*inner).waker = waker.cloned());
                }
                waiters.push_front(NonNull::from(waiter));
                *stage = Stage::Waiting;
                Poll::Pending
            }
            Stage::Waiting => {
                // Notified already: the notifier unlinked the node and took
                // its waker before this store, so there is nothing to lock.
                if waiter.notification().is_some() {
                    *stage = Stage::Done;
                    return Poll::Ready(());
                }
                let waiters = lock(&notify.waiters);
                // SAFETY: we hold the lock that owns the node's fields.
                let (notified, replaced) = unsafe {
                    waiter.inner.with_mut(|inner| {
                        let inner = &mut *inner;
                        if waiter.notification().is_some() {
                            return (true, None);
                        }
                        match (waker, &inner.waker) {
                            (Some(new), Some(old)) if old.will_wake(new) => (false, None),
                            (Some(new), _) => (false, inner.waker.replace(new.clone())),
                            (None, _) => (false, None),
                        }
                    })
                };
                drop(waiters);
                // The old waker's drop may run arbitrary code (even use this
                // `Notify`): never under the lock.
                drop(replaced);
                if notified {
                    *stage = Stage::Done;
                    Poll::Ready(())
                } else {
                    Poll::Pending
                }
            }
        }
    }

    /// Completes a `Notified` of `notify` made when the broadcast count was
    /// `calls_at_creation` from `word` alone: if a `notify_waiters` happened
    /// since, or if a permit is stored and this call took it.
    fn take_permit_or_broadcast(
        notify: &Notify,
        calls_at_creation: usize,
        mut word: usize,
    ) -> bool {
        loop {
            if calls_of(word) != calls_at_creation {
                return true;
            }
            if state_of(word) != NOTIFIED {
                return false;
            }
            match notify
                .state
                .compare_exchange(word, with_state(word, EMPTY), SeqCst, SeqCst)
            {
                Ok(_) => return true,
                Err(actual) => word = actual,
            }
        }
    }
}

impl Future for Notified<'_> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        std::task::ready!(rt_core::task::trace::trace_leaf());
        self.project().wait.poll_notified(Some(cx.waker()))
    }
}

impl<N: Deref<Target = Notify>> Wait<N> {
    /// Leaves the queue when dropped while waiting, passing on a
    /// `notify_one`/`notify_last` it received but did not consume.
    fn leave_queue(&self) {
        if self.stage != Stage::Waiting {
            return;
        }
        let notify: &Notify = &self.notify;
        let mut waiters = lock(&notify.waiters);
        let node = NonNull::from(&self.waiter);
        // SAFETY: the node is in this notify's queue or in none.
        unsafe { waiters.remove(node) };
        if waiters.is_empty() {
            let word = notify.state.load(SeqCst);
            if state_of(word) == WAITING {
                notify.state.store(with_state(word, EMPTY), SeqCst);
            }
        }
        let forwarded = match self.waiter.notification() {
            Some(kind @ (Notification::One | Notification::Last)) => {
                notify.notify_locked(&mut waiters, kind)
            }
            _ => None,
        };
        drop(waiters);
        if let Some(waker) = forwarded {
            waker.wake();
        }
    }
}

impl fmt::Debug for Notified<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Notified")
            .field("stage", &self.wait.stage)
            .finish()
    }
}

// SAFETY: a waiter is pinned inside its `Notified` future, whose drop
// unlinks it under the waiter list's lock.
linked_list::link_by_address!(unsafe Waiter, pointers);
