//! One signal number's broadcast point: the delivery counter that the
//! process-wide handler bumps, the "pending" flag that tells the dispatcher
//! there is news, and the waker of every listener.
//!
//! Listeners never count deliveries; each remembers the counter value it last
//! reported and reports again as soon as the counter differs. Any number of
//! deliveries between two `recv` calls therefore count once, and a `recv`
//! future dropped before completion loses nothing, since the counter it did
//! not consume is still there for the next call.
//!
//! A delivery that arrives while the signal has no listener at all (the
//! handler stays installed once the first listener made it) is kept for
//! the next listener, which reports it at once: a program that drops its
//! last `Signal` and makes a new one does not lose what came in between.

use rt_core::loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use rt_core::loom::sync::{Arc, Mutex};
use rt_core::util::AtomicWaker;
use std::fmt;
use std::task::{Context, Poll};

/// The shared state of one signal number.
pub struct SignalEvent {
    /// How many times the handler ran (wrapping); only equality matters.
    deliveries: AtomicUsize,
    /// Set by the handler, cleared by the dispatcher before it wakes.
    pending: AtomicBool,
    /// One waker slot per live listener, and where the unheard deliveries
    /// start.
    listeners: Mutex<Listeners>,
}

/// The listener side of a [`SignalEvent`], under its lock.
struct Listeners {
    wakers: Vec<Arc<AtomicWaker>>,
    /// The delivery count when the last listener went away: deliveries
    /// after it are reported to the next listener.
    unheard_from: usize,
}

impl SignalEvent {
    /// A signal that has not been delivered yet and has no listener.
    pub fn new() -> SignalEvent {
        SignalEvent {
            deliveries: AtomicUsize::new(0),
            pending: AtomicBool::new(false),
            listeners: Mutex::new(Listeners {
                wakers: Vec::new(),
                unheard_from: 0,
            }),
        }
    }

    /// Counts one delivery and marks the event pending.
    ///
    /// Async-signal-safe: two atomic operations, no lock, no allocation. The
    /// caller then tells the dispatcher (a byte on the wake pipe).
    pub fn record(&self) {
        self.deliveries.fetch_add(1, Ordering::SeqCst);
        // A read-modify-write rather than a store, so that the flag's
        // writes form one chain with the dispatcher's `swap`.
        self.pending.swap(true, Ordering::SeqCst);
    }

    /// If a delivery was recorded since the last call, wakes every listener.
    ///
    /// Runs on the dispatcher, never inside a signal handler: it takes a lock.
    pub fn dispatch(&self) {
        if !self.pending.swap(false, Ordering::SeqCst) {
            return;
        }
        // Take the wakers out under the lock and wake them after it, so a
        // waker that runs foreign code cannot re-enter this lock.
        let wakers: Vec<_> = {
            let listeners = self.listeners.lock().unwrap();
            listeners
                .wakers
                .iter()
                .filter_map(|slot| slot.take_waker())
                .collect()
        };
        for waker in wakers {
            waker.wake();
        }
    }

    /// Adds a listener of `event` that reports deliveries made from now on
    /// or, if `event` has no other listener, deliveries made since the last
    /// one went away.
    ///
    /// (An associated function because loom's `Arc` cannot be a receiver.)
    pub fn listen(event: &Arc<SignalEvent>) -> EventListener {
        let waker = Arc::new(AtomicWaker::new());
        let mut listeners = event.listeners.lock().unwrap();
        let seen = if listeners.wakers.is_empty() {
            listeners.unheard_from
        } else {
            event.deliveries.load(Ordering::SeqCst)
        };
        listeners.wakers.push(waker.clone());
        drop(listeners);
        EventListener {
            seen,
            event: event.clone(),
            waker,
        }
    }

    /// How many listeners are registered (for tests).
    pub fn listener_count(&self) -> usize {
        self.listeners.lock().unwrap().wakers.len()
    }
}

impl Default for SignalEvent {
    fn default() -> SignalEvent {
        SignalEvent::new()
    }
}

impl fmt::Debug for SignalEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SignalEvent")
            .field("deliveries", &self.deliveries.load(Ordering::Relaxed))
            .field("pending", &self.pending.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

/// One listener of a [`SignalEvent`]; removes itself from the event on drop.
pub struct EventListener {
    event: Arc<SignalEvent>,
    waker: Arc<AtomicWaker>,
    /// The delivery count this listener has already reported.
    seen: usize,
}

impl EventListener {
    /// `Ready` once the event was delivered since the last `Ready`;
    /// otherwise registers `cx`'s waker and returns `Pending`.
    pub fn poll_delivery(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        std::task::ready!(rt_core::task::trace::trace_leaf());
        if self.take_news() {
            return Poll::Ready(());
        }
        self.waker.register_by_ref(cx.waker());
        // A delivery that came between the first look and the registration
        // may already have been dispatched to the old (empty) slot.
        if self.take_news() {
            return Poll::Ready(());
        }
        Poll::Pending
    }

    fn take_news(&mut self) -> bool {
        let now = self.event.deliveries.load(Ordering::SeqCst);
        if now == self.seen {
            return false;
        }
        self.seen = now;
        true
    }
}

impl Drop for EventListener {
    fn drop(&mut self) {
        let mut listeners = self.event.listeners.lock().unwrap();
        let wakers = &mut listeners.wakers;
        if let Some(at) = wakers.iter().position(|w| Arc::ptr_eq(w, &self.waker)) {
            wakers.swap_remove(at);
        }
        if wakers.is_empty() {
            // What this listener did not report is dropped with it; what
            // comes from now on waits for the next listener.
            listeners.unheard_from = self.event.deliveries.load(Ordering::SeqCst);
        }
    }
}

impl fmt::Debug for EventListener {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventListener")
            .field("seen", &self.seen)
            .finish_non_exhaustive()
    }
}
