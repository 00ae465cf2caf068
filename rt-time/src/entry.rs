//! `TimerEntry`: the node a [`Sleep`](crate::Sleep) links into the timer
//! wheel, and the state machine that tells its owner whether it has fired.
//!
//! Ownership rules, which every caller obeys:
//!
//! * The entry lives inside a pinned `Sleep`. Only the `Sleep` (through
//!   `&mut`, so one thread at a time) registers, resets or cancels it, and it
//!   always does so under the lock of the shard it belongs to.
//! * The driver touches an entry only while holding that same shard lock:
//!   it moves it between wheel lists and fires it (sets `FIRED` and takes the
//!   waker out). Wakers are woken after the lock is released, and by then
//!   the driver holds no pointer to the entry, so the `Sleep` may be dropped
//!   at any moment outside the lock.
//! * `pointers`, `when` and `exact` are guarded by the shard lock; `state`
//!   is written only under the lock but read without it by the owner's
//!   `poll`, which pairs it with the [`AtomicWaker`] protocol: register the
//!   waker, then read the state.
//!
//! States: `UNREGISTERED` (created, never inserted, or cancelled),
//! `REGISTERED` (in a wheel slot or the wheel's expired list), `FIRED`
//! (the deadline was reached), `SHUTDOWN` (the driver shut down first).
//! Cancel versus fire cannot interleave: both run under the shard lock, and
//! whichever comes second sees the other's result.
//!
//! Firing ends by adding the `RELEASED` bit to the state, with its last
//! access to the entry (after the waker was taken). An owner that reads the
//! bit knows the driver is done with the entry and it is in no list, so a
//! fired `Sleep` is dropped without taking the shard lock. The bit is not a
//! state of its own: `state()` masks it off.

use rt_core::loom::cell::UnsafeCell;
use rt_core::loom::sync::atomic::{AtomicU8, Ordering};
use rt_core::util::linked_list::{Link, Pointers};
use rt_core::util::AtomicWaker;
use std::marker::PhantomPinned;
use std::ptr::NonNull;
use std::task::Waker;

/// Created, or removed from the wheel without firing.
pub(crate) const UNREGISTERED: u8 = 0;
/// Linked in a wheel slot or in the wheel's expired list.
pub(crate) const REGISTERED: u8 = 1;
/// The deadline was reached and the waker taken.
pub(crate) const FIRED: u8 = 2;
/// The time driver shut down while the entry was registered.
pub(crate) const SHUTDOWN: u8 = 3;

/// Added to `FIRED` or `SHUTDOWN` once the driver no longer touches the
/// entry; see the module rules.
const RELEASED: u8 = 0x80;

/// `when` of an entry that sits in the wheel's expired list.
pub(crate) const IN_EXPIRED_LIST: u64 = u64::MAX;

/// Nanoseconds in one wheel tick (a millisecond).
pub(crate) const NANOS_PER_TICK: u64 = 1_000_000;

/// The tick an exact deadline belongs to: the first tick whose end is at or
/// after it.
pub(crate) fn tick_of_exact(exact: u64) -> u64 {
    exact.div_ceil(NANOS_PER_TICK)
}

/// One timer, embedded in a `Sleep` and linked into a wheel.
pub(crate) struct TimerEntry {
    /// Links in a slot list or the expired list; guarded by the shard lock.
    pointers: Pointers<TimerEntry>,
    /// Deadline tick while in a slot, `IN_EXPIRED_LIST` while in the
    /// expired list; guarded by the shard lock.
    when: UnsafeCell<u64>,
    /// The exact deadline, in nanoseconds since the driver's tick 0;
    /// guarded by the shard lock. Lets the driver fire the entry as soon as
    /// the deadline passes instead of at the end of its millisecond. It
    /// belongs to tick `when` or, when the deadline was moved later while
    /// the entry was linked, to a later tick: the entry then keeps its
    /// place, and the wheel moves it on when that place comes due.
    exact: UnsafeCell<u64>,
    /// One of the state constants above; written under the shard lock.
    state: AtomicU8,
    /// The task to wake when the entry fires.
    waker: AtomicWaker,
    /// Linked nodes are pointed at by their neighbours.
    _pin: PhantomPinned,
}

// SAFETY: `pointers`, `when` and `exact` are only touched under the lock of the
// shard the entry is registered with (see the module rules); `state` and
// `waker` are thread-safe by themselves.
unsafe impl Send for TimerEntry {}
// SAFETY: as for `Send`.
unsafe impl Sync for TimerEntry {}

impl TimerEntry {
    /// An unregistered entry.
    pub(crate) fn new() -> TimerEntry {
        TimerEntry {
            pointers: Pointers::new(),
            when: UnsafeCell::new(0),
            exact: UnsafeCell::new(u64::MAX),
            state: AtomicU8::new(UNREGISTERED),
            waker: AtomicWaker::new(),
            _pin: PhantomPinned,
        }
    }

    /// The current state. Lock-free; see the module rules.
    pub(crate) fn state(&self) -> u8 {
        self.state.load(Ordering::Acquire) & !RELEASED
    }

    /// Whether the entry may be linked in a wheel or still touched by a
    /// firing driver, so that dropping it needs the shard lock. Lock-free:
    /// a `false` from a fired entry is read (Acquire) from the `RELEASED`
    /// store that ends `fire`, which comes after the driver's last access.
    pub(crate) fn needs_deregister(&self) -> bool {
        let state = self.state.load(Ordering::Acquire);
        state != UNREGISTERED && state & RELEASED == 0
    }

    /// Moves to `state`.
    ///
    /// # Safety
    ///
    /// The caller holds the lock of the entry's shard.
    pub(crate) unsafe fn set_state(&self, state: u8) {
        self.state.store(state, Ordering::Release);
    }

    /// The deadline tick, or `IN_EXPIRED_LIST`.
    ///
    /// # Safety
    ///
    /// The caller holds the lock of the entry's shard.
    pub(crate) unsafe fn when(&self) -> u64 {
        // SAFETY: the shard lock serialises every access to `when`.
        self.when.with(|p| unsafe { *p })
    }

    /// Sets the deadline tick (or `IN_EXPIRED_LIST`).
    ///
    /// # Safety
    ///
    /// The caller holds the lock of the entry's shard.
    pub(crate) unsafe fn set_when(&self, when: u64) {
        // SAFETY: the shard lock serialises every access to `when`.
        self.when.with_mut(|p| unsafe { *p = when });
    }

    /// The exact deadline in nanoseconds since tick 0.
    ///
    /// # Safety
    ///
    /// The caller holds the lock of the entry's shard.
    pub(crate) unsafe fn exact(&self) -> u64 {
        // SAFETY: the shard lock serialises every access to `exact`.
        self.exact.with(|p| unsafe { *p })
    }

    /// Sets the exact deadline in nanoseconds since tick 0.
    ///
    /// # Safety
    ///
    /// The caller holds the lock of the entry's shard.
    pub(crate) unsafe fn set_exact(&self, exact: u64) {
        // SAFETY: the shard lock serialises every access to `exact`.
        self.exact.with_mut(|p| unsafe { *p = exact });
    }

    /// Fires the entry: marks it `state` (`FIRED` or `SHUTDOWN`) and hands
    /// back the waker for the caller to wake once the lock is released.
    ///
    /// # Safety
    ///
    /// The caller holds the lock of the entry's shard, the entry is in no
    /// list, and the caller does not touch it after this returns.
    pub(crate) unsafe fn fire(&self, state: u8) -> Option<Waker> {
        // SAFETY: forwarded from the caller.
        unsafe { self.set_state(state) };
        // The state before the waker: a poll registers its waker before it
        // reads the state, so it either sees the state or its waker is taken.
        let waker = self.waker.take_waker();
        // The last access: from here on the owner may drop the entry without
        // the lock (the caller unlinked it before firing).
        self.state.store(state | RELEASED, Ordering::Release);
        waker
    }

    /// Stores the waker to be woken when the entry fires.
    pub(crate) fn register_waker(&self, waker: &Waker) {
        self.waker.register_by_ref(waker);
    }

    /// Forgets the stored waker, so that a fire wakes nobody until the
    /// owner polls (and registers a waker) again. A fire racing with this
    /// either takes the waker first (one wake-up the owner does not need)
    /// or finds none; the state it sets is read by the next poll.
    pub(crate) fn forget_waker(&self) {
        drop(self.waker.take_waker());
    }
}

// SAFETY: entries are linked by raw pointer; a linked entry is pinned inside
// its `Sleep`, which unlinks it (under the shard lock) before it is dropped.
unsafe impl Link for TimerEntry {
    type Handle = NonNull<TimerEntry>;
    type Target = TimerEntry;

    fn as_raw(handle: &NonNull<TimerEntry>) -> NonNull<TimerEntry> {
        *handle
    }

    unsafe fn from_raw(ptr: NonNull<TimerEntry>) -> NonNull<TimerEntry> {
        ptr
    }

    unsafe fn pointers(target: NonNull<TimerEntry>) -> NonNull<Pointers<TimerEntry>> {
        // SAFETY: `target` is live by the trait's contract; taking the
        // field's address reads nothing.
        unsafe { NonNull::new_unchecked(std::ptr::addr_of_mut!((*target.as_ptr()).pointers)) }
    }
}
