//! `ScheduledIo`: the per-resource state the driver and the resource's
//! operations share.
//!
//! # The readiness word
//!
//! One `AtomicUsize` packs `| shutdown: 1 | tick: 15 | readiness: 16 |`.
//! The driver ORs new readiness in and stamps the word with the tick of the
//! turn that saw the event. An operation that found the resource not ready
//! after all (`WouldBlock`) clears only the bits it observed, and only if the
//! tick is still the one it observed: an event delivered in a later turn
//! moved the tick on, so a stale clear cannot erase it (the lost-wakeup race
//! of edge-triggered polling).
//!
//! # Waiters
//!
//! Waiting happens under the `waiters` mutex: an operation stores its waker
//! (one slot for the reader, one for the writer, an intrusive list for
//! `ready(Interest)` futures) and then re-reads the word while still holding
//! the lock. The driver publishes readiness before it takes the lock. So
//! either the waiter sees the new readiness, or the driver sees the waiter.

use super::ready::{Interest, Ready};
use pin_project_lite::pin_project;
use rt_core::loom::cell::UnsafeCell;
use rt_core::loom::sync::atomic::{AtomicUsize, Ordering};
use rt_core::loom::sync::Mutex;
use rt_core::util::linked_list::{self, LinkedList};
use rt_core::util::WakeList;
use std::future::Future;
use std::marker::PhantomPinned;
use std::pin::Pin;
use std::ptr::NonNull;
use std::task::{Context, Poll, Waker};

const READINESS_MASK: usize = 0xffff;
const TICK_SHIFT: u32 = 16;
/// Ticks wrap at 15 bits: they only need to tell "the same turn" apart from
/// "a later turn" for the short time an operation holds an event.
pub const TICK_MASK: usize = 0x7fff;
const SHUTDOWN: usize = 1 << 31;

/// Which waker slot an operation uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Reads, accepts, receives.
    Read,
    /// Writes, sends, connects.
    Write,
}

impl Direction {
    /// The readiness that ends a wait in this direction.
    fn mask(self) -> Ready {
        const READ: Ready = Ready::from_interest(Interest::READABLE);
        const WRITE: Ready = Ready::from_interest(Interest::WRITABLE);
        match self {
            Direction::Read => READ,
            Direction::Write => WRITE,
        }
    }

    /// The event a wait in this direction ends with, from the packed
    /// readiness `word`; `None` while it must go on waiting.
    #[inline]
    fn snapshot(self, word: usize) -> Option<ReadyEvent> {
        let (tick, ready, is_shutdown) = unpack(word);
        let ready = Ready::from_usize(ready.as_usize() & self.mask().as_usize());
        (!ready.is_empty() || is_shutdown).then_some(ReadyEvent {
            tick,
            ready,
            is_shutdown,
        })
    }
}

/// A snapshot of readiness handed to an operation, to clear later if the
/// operation would block.
#[derive(Clone, Copy, Debug)]
pub struct ReadyEvent {
    /// The tick of the turn that set the readiness.
    pub tick: usize,
    /// The readiness seen (restricted to what the operation asked for).
    pub ready: Ready,
    /// Whether the driver has shut down.
    pub is_shutdown: bool,
}

/// The state a registered resource shares with the driver.
#[derive(Debug)]
pub struct ScheduledIo {
    readiness: AtomicUsize,
    waiters: Mutex<Waiters>,
}

#[derive(Debug, Default)]
struct Waiters {
    list: LinkedList<Waiter>,
    reader: Option<Waker>,
    writer: Option<Waker>,
}

/// A `ready(Interest)` future's node in the waiter list. Its fields are
/// touched only under the `waiters` lock.
#[derive(Debug)]
struct Waiter {
    pointers: linked_list::Pointers<Waiter>,
    waker: Option<Waker>,
    interest: Interest,
    is_ready: bool,
    _pin: PhantomPinned,
}

// SAFETY: a waiter is pinned inside its `Readiness` future, whose drop
// unlinks it under the `waiters` lock.
linked_list::link_by_address!(unsafe Waiter, pointers);

// SAFETY: the raw pointers in the list are only followed under the mutex,
// and the nodes they reach hold only `Send` data (wakers).
unsafe impl Send for Waiters {}

impl Default for ScheduledIo {
    fn default() -> Self {
        ScheduledIo::new()
    }
}

fn pack(tick: usize, ready: Ready, shutdown: bool) -> usize {
    let mut word = ((tick & TICK_MASK) << TICK_SHIFT) | ready.as_usize();
    if shutdown {
        word |= SHUTDOWN;
    }
    word
}

fn unpack(word: usize) -> (usize, Ready, bool) {
    (
        (word >> TICK_SHIFT) & TICK_MASK,
        Ready::from_usize(word & READINESS_MASK),
        word & SHUTDOWN != 0,
    )
}

impl ScheduledIo {
    /// A fresh resource: not ready, tick 0.
    pub fn new() -> ScheduledIo {
        ScheduledIo {
            readiness: AtomicUsize::new(0),
            waiters: Mutex::new(Waiters::default()),
        }
    }

    /// Driver side: ORs `ready` into the word under `tick`, then wakes the
    /// waiters it satisfies.
    pub fn set_readiness(&self, tick: usize, ready: Ready) {
        self.or_readiness(Some(tick), ready);
    }

    /// Owner side: ORs `ready` into the word, keeping the driver's tick
    /// (so a clear based on the driver's latest event still applies), then
    /// wakes the waiters it satisfies. For readiness known without an event,
    /// such as a fresh socket pair's writability.
    pub fn add_readiness(&self, ready: Ready) {
        self.or_readiness(None, ready);
    }

    /// ORs `ready` into the word under `tick` (or the current tick), then
    /// wakes the waiters it satisfies.
    fn or_readiness(&self, tick: Option<usize>, ready: Ready) {
        let mut current = self.readiness.load(Ordering::Acquire);
        loop {
            let (current_tick, old, shutdown) = unpack(current);
            let next = pack(tick.unwrap_or(current_tick), old | ready, shutdown);
            match self.readiness.compare_exchange(
                current,
                next,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => break,
                Err(actual) => current = actual,
            }
        }
        self.wake(ready);
    }

    /// Marks the resource shut down and wakes everything waiting on it.
    pub fn shutdown(&self) {
        self.readiness.fetch_or(SHUTDOWN, Ordering::AcqRel);
        self.wake(Ready::ALL);
    }

    /// Whether the driver has shut down.
    pub fn is_shutdown(&self) -> bool {
        self.readiness.load(Ordering::Acquire) & SHUTDOWN != 0
    }

    /// Wakes the slot wakers and list waiters that `ready` satisfies.
    fn wake(&self, ready: Ready) {
        let mut waiters = self.waiters.lock().unwrap_or_else(|e| e.into_inner());
        let reader = if ready.intersects(Direction::Read.mask()) {
            waiters.reader.take()
        } else {
            None
        };
        let writer = if ready.intersects(Direction::Write.mask()) {
            waiters.writer.take()
        } else {
            None
        };
        let front = waiters.list.front();
        if front == waiters.list.back() {
            // The common cases: stream sockets wait through their slots
            // only, and a datagram socket or a `ready()` call usually has
            // one task waiting in the list. At most three wakers, woken
            // straight from the stack once the lock is released.
            let listed = front.and_then(|node| {
                // SAFETY: as in the walk below.
                let waiter = unsafe { &mut *node.as_ptr() };
                if !ready.satisfies(waiter.interest) {
                    return None;
                }
                waiter.is_ready = true;
                // SAFETY: `node` is live and linked in this list (it is
                // its only node), and we hold the lock that guards it.
                unsafe { waiters.list.remove(node) };
                waiter.waker.take()
            });
            drop(waiters);
            if let Some(reader) = reader {
                reader.wake();
            }
            if let Some(writer) = writer {
                writer.wake();
            }
            if let Some(listed) = listed {
                listed.wake();
            }
            return;
        }
        let mut batch = WakeList::new();
        batch.extend(reader);
        batch.extend(writer);
        loop {
            // Walk the list by popping every node: satisfied ones leave it,
            // the rest are put back in their order afterwards.
            let mut kept = LinkedList::<Waiter>::new();
            let mut full = false;
            while let Some(node) = waiters.list.pop_front() {
                // SAFETY: the node was linked, so it is live (its future
                // unlinks it before dropping), and we hold the lock that
                // guards linked nodes.
                let waiter = unsafe { &mut *node.as_ptr() };
                if ready.satisfies(waiter.interest) {
                    waiter.is_ready = true;
                    batch.extend(waiter.waker.take());
                    if batch.is_full() {
                        full = true;
                        break;
                    }
                } else {
                    kept.push_back(node);
                }
            }
            while let Some(node) = kept.pop_back() {
                waiters.list.push_front(node);
            }
            if !full {
                break;
            }
            drop(waiters);
            batch.wake_all();
            waiters = self.waiters.lock().unwrap_or_else(|e| e.into_inner());
        }
        drop(waiters);
        batch.wake_all();
    }

    /// The current readiness restricted to `interest`, with its tick.
    pub fn ready_event(&self, interest: Interest) -> ReadyEvent {
        let (tick, ready, is_shutdown) = unpack(self.readiness.load(Ordering::Acquire));
        ReadyEvent {
            tick,
            ready: ready.intersection(interest),
            is_shutdown,
        }
    }

    /// Polls one direction's readiness, leaving `cx`'s waker in that
    /// direction's slot when not ready. The last waker registered wins.
    #[inline]
    pub fn poll_readiness(&self, cx: &mut Context<'_>, direction: Direction) -> Poll<ReadyEvent> {
        // Ready already: one load, small enough to inline into each
        // operation's loop; registering the waker stays out of line.
        match direction.snapshot(self.readiness.load(Ordering::Acquire)) {
            Some(event) => Poll::Ready(event),
            None => self.register_waker(cx, direction),
        }
    }

    /// `poll_readiness` when not ready: stores the waker, then looks again.
    #[inline(never)]
    fn register_waker(&self, cx: &mut Context<'_>, direction: Direction) -> Poll<ReadyEvent> {
        let mut waiters = self.waiters.lock().unwrap_or_else(|e| e.into_inner());
        let slot = match direction {
            Direction::Read => &mut waiters.reader,
            Direction::Write => &mut waiters.writer,
        };
        match slot {
            Some(w) if w.will_wake(cx.waker()) => {}
            _ => *slot = Some(cx.waker().clone()),
        }
        // Re-read under the lock: the driver publishes before locking.
        match direction.snapshot(self.readiness.load(Ordering::Acquire)) {
            Some(event) => Poll::Ready(event),
            None => Poll::Pending,
        }
    }

    /// Clears the readiness in `event` unless a later turn has set new
    /// readiness since. Closed bits are final and never cleared; error bits
    /// are cleared like the others, but only those `event` holds: a read or
    /// write wait holds the error bit of reads and writes, never the
    /// `ERROR` that waits for `Interest::ERROR` are owed.
    pub fn clear_readiness(&self, event: ReadyEvent) {
        let clear = event.ready - Ready::READ_CLOSED - Ready::WRITE_CLOSED;
        let mut current = self.readiness.load(Ordering::Acquire);
        loop {
            let (tick, ready, shutdown) = unpack(current);
            if tick != event.tick {
                return;
            }
            let next = pack(tick, ready - clear, shutdown);
            match self.readiness.compare_exchange(
                current,
                next,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return,
                Err(actual) => current = actual,
            }
        }
    }

    /// Drops the slot wakers: a dropped resource must not keep its task's
    /// waker (and through it, possibly itself) alive.
    pub fn clear_wakers(&self) {
        let mut waiters = self.waiters.lock().unwrap_or_else(|e| e.into_inner());
        waiters.reader = None;
        waiters.writer = None;
    }

    /// Waits until the resource is ready for `interest` (or shut down).
    pub fn readiness(&self, interest: Interest) -> Readiness<'_> {
        Readiness {
            scheduled_io: self,
            state: State::Init,
            waiter: UnsafeCell::new(Waiter {
                pointers: linked_list::Pointers::new(),
                waker: None,
                interest,
                is_ready: false,
                _pin: PhantomPinned,
            }),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Init,
    Waiting,
    Done,
}

pin_project! {
    /// The future returned by [`ScheduledIo::readiness`].
    #[derive(Debug)]
    pub struct Readiness<'a> {
        scheduled_io: &'a ScheduledIo,
        state: State,
        // Linked into the resource's waiter list by address while
        // `Waiting`, and unlinked by the pinned drop.
        #[pin]
        waiter: UnsafeCell<Waiter>,
    }

    impl PinnedDrop for Readiness<'_> {
        fn drop(this: Pin<&mut Self>) {
            this.into_ref().get_ref().leave_list();
        }
    }
}

// SAFETY: the waiter is only touched under the resource's lock (or by the
// future's owner before it is linked / after it is unlinked); it holds
// `Send` data only.
unsafe impl Send for Readiness<'_> {}
// SAFETY: `&Readiness` exposes nothing.
unsafe impl Sync for Readiness<'_> {}

impl Future for Readiness<'_> {
    type Output = ReadyEvent;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ReadyEvent> {
        std::task::ready!(rt_core::task::trace::trace_leaf());
        let me = self.project();
        let io = *me.scheduled_io;
        loop {
            match *me.state {
                State::Init => {
                    let interest = me.waiter.with(|w| {
                        // SAFETY: not linked yet, so only we see it.
                        unsafe { (*w).interest }
                    });
                    let event = io.ready_event(interest);
                    if !event.ready.is_empty() || event.is_shutdown {
                        *me.state = State::Done;
                        return Poll::Ready(event);
                    }
                    let mut waiters = io.waiters.lock().unwrap_or_else(|e| e.into_inner());
                    let event = io.ready_event(interest);
                    if !event.ready.is_empty() || event.is_shutdown {
                        *me.state = State::Done;
                        return Poll::Ready(event);
                    }
                    let node = me.waiter.with_mut(|w| {
                        // SAFETY: not linked yet; after linking, the lock
                        // we hold guards it.
                        unsafe {
                            (*w).waker = Some(cx.waker().clone());
                            NonNull::new_unchecked(w)
                        }
                    });
                    waiters.list.push_front(node);
                    *me.state = State::Waiting;
                    return Poll::Pending;
                }
                State::Waiting => {
                    let _waiters = io.waiters.lock().unwrap_or_else(|e| e.into_inner());
                    let ready = me.waiter.with_mut(|w| {
                        // SAFETY: we hold the lock that guards linked nodes.
                        unsafe {
                            let w = &mut *w;
                            if !w.is_ready {
                                match &w.waker {
                                    Some(old) if old.will_wake(cx.waker()) => {}
                                    _ => w.waker = Some(cx.waker().clone()),
                                }
                            }
                            w.is_ready
                        }
                    });
                    if !ready {
                        return Poll::Pending;
                    }
                    *me.state = State::Done;
                }
                State::Done => {
                    let interest = me.waiter.with(|w| {
                        // SAFETY: unlinked (the driver removed it), so only
                        // we see it.
                        unsafe { (*w).interest }
                    });
                    return Poll::Ready(io.ready_event(interest));
                }
            }
        }
    }
}

impl Readiness<'_> {
    /// Unlinks the waiter if it is still in the resource's list.
    fn leave_list(&self) {
        if self.state != State::Waiting {
            return;
        }
        let mut waiters = self
            .scheduled_io
            .waiters
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let node = self.waiter.with_mut(|w| {
            // SAFETY: `w` comes from a live cell.
            unsafe { NonNull::new_unchecked(w) }
        });
        // SAFETY: the node is live (we are dropping it now, after this) and
        // either in this resource's list or in none.
        unsafe {
            waiters.list.remove(node);
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::ready::ERROR_EVENT;
    use super::*;
    use std::sync::atomic::AtomicUsize as StdAtomicUsize;
    use std::sync::Arc;
    use std::task::Wake;

    /// A waker that counts its wakes.
    struct Count(StdAtomicUsize);

    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn counting_waker() -> (Arc<Count>, Waker) {
        let count = Arc::new(Count(StdAtomicUsize::new(0)));
        (count.clone(), Waker::from(count))
    }

    fn woken(count: &Count) -> bool {
        count.0.load(Ordering::SeqCst) > 0
    }

    #[test]
    fn an_error_event_wakes_readers_and_writers_of_both_kinds() {
        let io = ScheduledIo::new();
        let (reader, reader_waker) = counting_waker();
        let (writer, writer_waker) = counting_waker();
        let read_cx = &mut Context::from_waker(&reader_waker);
        let write_cx = &mut Context::from_waker(&writer_waker);
        assert!(io.poll_readiness(read_cx, Direction::Read).is_pending());
        assert!(io.poll_readiness(write_cx, Direction::Write).is_pending());

        let mut listed = Vec::new();
        for interest in [Interest::READABLE, Interest::WRITABLE, Interest::ERROR] {
            let (count, waker) = counting_waker();
            let mut fut = Box::pin(io.readiness(interest));
            assert!(fut
                .as_mut()
                .poll(&mut Context::from_waker(&waker))
                .is_pending());
            listed.push((interest, count, fut));
        }
        let (priority, priority_waker) = counting_waker();
        let mut priority_fut = Box::pin(io.readiness(Interest::PRIORITY));
        let priority_cx = &mut Context::from_waker(&priority_waker);
        assert!(priority_fut.as_mut().poll(priority_cx).is_pending());

        io.set_readiness(1, ERROR_EVENT);

        assert!(woken(&reader) && woken(&writer));
        let Poll::Ready(event) = io.poll_readiness(read_cx, Direction::Read) else {
            panic!("a read wait is not ended by an error");
        };
        assert!(event.ready.is_error() && event.ready.is_readable());
        let Poll::Ready(event) = io.poll_readiness(write_cx, Direction::Write) else {
            panic!("a write wait is not ended by an error");
        };
        assert!(event.ready.is_error() && event.ready.is_writable());
        for (interest, count, mut fut) in listed {
            assert!(woken(&count), "{interest:?}");
            let waker = Waker::from(count);
            let Poll::Ready(event) = fut.as_mut().poll(&mut Context::from_waker(&waker)) else {
                panic!("a wait for {interest:?} is not ended by an error");
            };
            assert!(event.ready.is_error(), "{interest:?}");
        }
        // Out-of-band reads need not report the error: priority waits are
        // left to the priority and closed bits.
        assert!(!woken(&priority));
        assert!(priority_fut.as_mut().poll(priority_cx).is_pending());
    }

    /// A lone list waiter is decided without the batch: an event it does
    /// not wait for leaves it listed, one it waits for wakes it together
    /// with the slot's waker.
    #[test]
    fn a_lone_list_waiter_stays_until_its_event_and_wakes_with_the_slot() {
        let io = ScheduledIo::new();
        let (count, waker) = counting_waker();
        let cx = &mut Context::from_waker(&waker);
        let mut fut = Box::pin(io.readiness(Interest::WRITABLE));
        assert!(fut.as_mut().poll(cx).is_pending());

        io.set_readiness(1, Ready::READABLE);
        assert!(!woken(&count), "woken by an event it does not wait for");
        assert!(fut.as_mut().poll(cx).is_pending());

        let (reader, reader_waker) = counting_waker();
        let read_cx = &mut Context::from_waker(&reader_waker);
        io.clear_readiness(io.ready_event(Interest::READABLE));
        assert!(io.poll_readiness(read_cx, Direction::Read).is_pending());
        io.set_readiness(2, Ready::READABLE | Ready::WRITABLE);
        assert!(woken(&count) && woken(&reader));
        let Poll::Ready(event) = fut.as_mut().poll(cx) else {
            panic!("a woken waiter is not ready");
        };
        assert!(event.ready.is_writable());
    }

    #[test]
    fn a_read_that_would_block_keeps_error_for_error_waits() {
        let io = ScheduledIo::new();
        io.set_readiness(1, ERROR_EVENT | Ready::WRITABLE);
        let read = io.ready_event(Interest::READABLE);
        assert!(read.ready.is_error());
        io.clear_readiness(read);
        // The read wait consumed its error: reads wait again.
        assert!(io.ready_event(Interest::READABLE).ready.is_empty());
        let (_, waker) = counting_waker();
        let cx = &mut Context::from_waker(&waker);
        assert!(io.poll_readiness(cx, Direction::Read).is_pending());
        // Writes still have their own readiness, but no error any more.
        let write = io.ready_event(Interest::WRITABLE);
        assert_eq!(write.ready, Ready::WRITABLE);
        // An error wait is still owed the event until it clears it.
        let error = io.ready_event(Interest::ERROR);
        assert_eq!(error.ready, Ready::ERROR);
        io.clear_readiness(error);
        assert!(io.ready_event(Interest::ERROR).ready.is_empty());
        assert_eq!(io.ready_event(Interest::WRITABLE).ready, Ready::WRITABLE);
    }

    #[test]
    fn a_stale_clear_keeps_a_newer_error() {
        let io = ScheduledIo::new();
        io.set_readiness(1, ERROR_EVENT);
        let old = io.ready_event(Interest::READABLE);
        io.set_readiness(2, ERROR_EVENT);
        io.clear_readiness(old);
        assert!(io.ready_event(Interest::READABLE).ready.is_error());
    }

    #[test]
    fn ticks_wrap_within_their_field() {
        let io = ScheduledIo::new();
        io.set_readiness(TICK_MASK + 3, Ready::READABLE);
        let event = io.ready_event(Interest::READABLE);
        assert_eq!(event.tick, 2);
        assert!(!event.is_shutdown);
        io.clear_readiness(event);
        assert!(io.ready_event(Interest::READABLE).ready.is_empty());
    }

    #[test]
    fn clear_with_an_old_tick_keeps_the_new_readiness() {
        let io = ScheduledIo::new();
        io.set_readiness(1, Ready::READABLE);
        let old = io.ready_event(Interest::READABLE);
        io.set_readiness(2, Ready::WRITABLE);
        io.clear_readiness(old);
        let now = io.ready_event(Interest::READABLE | Interest::WRITABLE);
        assert_eq!(now.ready, Ready::READABLE | Ready::WRITABLE);
    }

    #[test]
    fn shutdown_is_sticky_and_reported() {
        let io = ScheduledIo::new();
        io.shutdown();
        io.set_readiness(5, Ready::READABLE);
        assert!(io.is_shutdown());
        assert!(io.ready_event(Interest::WRITABLE).is_shutdown);
    }
}
