//! The time driver's shared half: the sharded wheels, the clock, and the
//! operations a `Sleep` performs on them from any thread.
//!
//! Sharding keeps timers off a global lock: each thread registers its
//! timers in the shard its per-thread index picks, so eight workers
//! creating, resetting and dropping sleeps at once lock eight different
//! mutexes. An entry stays in the shard it was first registered with. The
//! driver visits every shard on its turn.
//!
//! `next_wake` tells a registering thread whether the parked driver must be
//! woken to shorten its sleep. Protocol (see `loom_models`):
//!
//! * before parking, the driver stores `SCANNING`, reads every shard's next
//!   deadline under that shard's lock, then stores the earliest (or
//!   `NO_TIMER`); after parking it stores `RUNNING`;
//! * a registering thread inserts under the shard lock, releases it, then
//!   reads `next_wake`: it unparks the driver on `SCANNING`, or when its
//!   deadline is before the promised one. On `RUNNING` it does nothing,
//!   because the driver will scan again before it next parks.
//!
//! Each shard publishes in an atomic a tick at or before every deadline it
//! holds (`EMPTY` when it has none), written only under its lock: an insert
//! lowers it to its deadline when that is earlier, a cancel leaves it (at
//! worst one early wake-up), and the driver's firing pass sets it to the
//! wheel's exact next expiration. A driver turn reads these without
//! locking: the scan takes their minimum, and `process` locks only the
//! shards whose tick is due, so a turn with no timer due takes no lock.
//!
//! The scan reads each published tick with a read-modify-write that
//! changes nothing, and an insert lowers it with a swap, so the two are
//! ordered: an insert the scan missed wrote after the scan read that shard,
//! hence read-from the scan's RMW and sees the `SCANNING` store (or a later
//! value) when it reads `next_wake`; no wake-up is lost. A plain load in
//! the scan would leave this a store-buffering race. An insert that finds
//! the published tick already at or before its deadline writes nothing: the
//! scan then sees a tick no later than that deadline whichever it reads.
//! `process` needs no such care: a tick it read just before an insert
//! lowered it is seen by the next scan, which comes before the next park.

use crate::clock::Clock;
use crate::entry::{
    tick_of_exact, TimerEntry, FIRED, IN_EXPIRED_LIST, NANOS_PER_TICK, REGISTERED, SHUTDOWN,
    UNREGISTERED,
};
use crate::wheel::Wheel;
use rt_core::loom::counter::Counter;
use rt_core::loom::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use rt_core::loom::sync::{Mutex, MutexGuard};
use rt_core::runtime::Unpark;
use std::cell::Cell;
use std::ptr::NonNull;
use std::sync::Arc;
use std::task::Waker;
use std::time::Duration;

/// `next_wake`: the driver is computing its next deadline.
const SCANNING: u64 = 0;
/// `next_wake`: the driver is parked with no timer to wake it.
const NO_TIMER: u64 = u64::MAX - 1;
/// `next_wake`: the driver is not parked.
const RUNNING: u64 = u64::MAX;

/// The largest deadline tick: about 146 million years of milliseconds, far
/// below the sentinels, so saturating far deadlines never collide with them.
pub(crate) const MAX_TICK: u64 = u64::MAX >> 2;

/// A shard's published tick when its wheel holds no timer.
const EMPTY: u64 = u64::MAX;

/// Wakers collected under a shard lock and woken after releasing it.
const WAKE_BATCH: usize = 32;

pub(crate) const NO_TIME_DRIVER: &str = "An rt runtime was found, but timers are disabled. \
     Call `enable_time` on the runtime builder to enable timers.";

pub(crate) const SHUTTING_DOWN: &str =
    "An rt runtime was found, but it is being shut down: its timers no longer fire.";

/// The handle the time layer publishes in the runtime's driver handles.
pub(crate) struct Handle {
    /// Tick 0: the instant the driver was created.
    start: std::time::Instant,
    clock: Clock,
    shards: Box<[Shard]>,
    /// See the module documentation.
    next_wake: AtomicU64,
    /// The latest tick the driver processed up to; a registration moves a
    /// skipped shard's wheel up to it (see `Wheel::advance_idle`).
    processed: AtomicU64,
    is_shutdown: AtomicBool,
    /// Set by every unpark; auto-advance checks it (see `TimeDriver`).
    pub(crate) did_wake: Arc<AtomicBool>,
    /// Set when a registration woke the parked driver because its deadline
    /// came before the one promised: only then can a shard be due that the
    /// park's scan did not see. Other unparks (a task woken from another
    /// thread, I/O) leave it, so the turn after them skips the shards.
    pub(crate) earlier_timer: AtomicBool,
    /// Unparks the layer below the time driver.
    unpark: Arc<dyn Unpark>,
}

/// One wheel and its lock, padded so that neighbouring shards do not share
/// a cache line.
#[repr(align(128))]
struct Shard {
    wheel: Mutex<Wheel>,
    /// The wheel's next expiration tick, or `EMPTY`; written only under
    /// `wheel`'s lock, read lock-free by the driver's turn.
    next_tick: AtomicU64,
}

impl Handle {
    pub(crate) fn new(
        unpark: Arc<dyn Unpark>,
        start: std::time::Instant,
        start_paused: bool,
        num_shards: usize,
    ) -> Handle {
        Handle {
            start,
            clock: Clock::new(start, start_paused),
            shards: (0..num_shards.max(1))
                .map(|_| Shard {
                    wheel: Mutex::new(Wheel::new()),
                    next_tick: AtomicU64::new(EMPTY),
                })
                .collect(),
            next_wake: AtomicU64::new(RUNNING),
            processed: AtomicU64::new(0),
            is_shutdown: AtomicBool::new(false),
            did_wake: Arc::new(AtomicBool::new(false)),
            earlier_timer: AtomicBool::new(false),
            unpark,
        }
    }

    /// Makes [`pause`](crate::pause) refuse to pause this clock (a
    /// multi-thread runtime's).
    pub(crate) fn forbid_pause(&mut self) {
        self.clock.forbid_pause();
    }

    /// The time handle of the runtime this thread is in, if it has one.
    pub(crate) fn try_current() -> Option<Arc<Handle>> {
        rt_core::runtime::try_current_driver_handle::<Handle>()
            .ok()
            .flatten()
    }

    /// The time handle of the current runtime.
    ///
    /// # Panics
    ///
    /// Outside a runtime, or in one built without timers.
    #[track_caller]
    pub(crate) fn current() -> Arc<Handle> {
        match rt_core::runtime::try_current_driver_handle::<Handle>() {
            Ok(Some(handle)) => handle,
            Ok(None) => panic!("{NO_TIME_DRIVER}"),
            Err(e) => panic!("{e}"),
        }
    }

    /// Panics where [`current`](Self::current) would, without taking a
    /// reference to the handle: for futures that look it up later.
    #[track_caller]
    pub(crate) fn assert_current() {
        match rt_core::runtime::with_current_driver_handle::<Handle, _>(|h| h.is_some()) {
            Ok(true) => {}
            Ok(false) => panic!("{NO_TIME_DRIVER}"),
            Err(e) => panic!("{e}"),
        }
    }

    pub(crate) fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The shard this thread registers its timers in.
    pub(crate) fn shard_for_this_thread(&self) -> usize {
        thread_index() % self.shards.len()
    }

    fn lock(&self, shard: usize) -> MutexGuard<'_, Wheel> {
        self.shards[shard]
            .wheel
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Publishes `wheel`'s exact next expiration tick for `shard`. Called
    /// with the shard's lock held (`wheel` is its guard).
    fn publish(&self, shard: usize, wheel: &Wheel) {
        let tick = wheel.next_expiration_tick().unwrap_or(EMPTY);
        self.shards[shard].next_tick.swap(tick, SeqCst);
    }

    /// Lowers `shard`'s published tick to `tick` if that is earlier. Called
    /// with the shard's lock held, after linking an entry at `tick`.
    fn publish_insert(&self, shard: usize, tick: u64) {
        let published = &self.shards[shard].next_tick;
        if tick < published.load(SeqCst) {
            // A swap, not a store: see the module documentation.
            published.swap(tick, SeqCst);
        }
    }

    /// The deadline tick for `deadline`, rounded up so that a timer never
    /// fires early, and capped at `MAX_TICK`.
    #[cfg(all(test, not(loom)))]
    pub(crate) fn deadline_to_tick(&self, deadline: std::time::Instant) -> u64 {
        self.deadline_to_tick_and_exact(deadline).0
    }

    /// The deadline tick for `deadline` (rounded up so that a timer never
    /// fires early, capped at `MAX_TICK`) and its exact deadline in
    /// nanoseconds since tick 0 (saturating), never after the end of that
    /// tick. One subtraction of `Instant`s serves both: it is the costly
    /// part of registering a timer.
    ///
    /// The arithmetic stays in `u64` (a reset timeout does this on every
    /// reset): the tick is derived from the nanoseconds, which saturate
    /// `u64::MAX` nanoseconds (584 years) after tick 0.
    #[inline]
    pub(crate) fn deadline_to_tick_and_exact(&self, deadline: std::time::Instant) -> (u64, u64) {
        let since = deadline.saturating_duration_since(self.start);
        let exact = since
            .as_secs()
            .checked_mul(1_000_000_000)
            .and_then(|nanos| nanos.checked_add(u64::from(since.subsec_nanos())))
            .unwrap_or(u64::MAX);
        // At most `u64::MAX / NANOS_PER_TICK + 1`, far below `MAX_TICK`.
        (tick_of_exact(exact), exact)
    }

    /// The current tick by the clock (rounded down).
    pub(crate) fn now_tick(&self) -> u64 {
        self.tick_at(self.clock.now())
    }

    /// The tick that `instant` falls in (rounded down).
    pub(crate) fn tick_at(&self, instant: std::time::Instant) -> u64 {
        let since = instant.saturating_duration_since(self.start);
        since.as_millis().min(MAX_TICK as u128) as u64
    }

    /// The instant at which `tick` starts, if it is representable.
    pub(crate) fn tick_to_instant(&self, tick: u64) -> Option<std::time::Instant> {
        self.start.checked_add(Duration::from_millis(tick))
    }

    /// (Re)registers `entry` in `shard` with deadline `tick`: unlinks it if
    /// linked, then links it again, or fires it at once when `tick` is
    /// already processed (or marks it shut down).
    ///
    /// # Safety
    ///
    /// `entry` is pinned and stays live until `deregister` runs for it; it
    /// is only ever registered with `shard`; the caller has exclusive
    /// ownership of the entry's `Sleep`.
    #[cfg(test)]
    pub(crate) unsafe fn reregister(&self, shard: usize, entry: NonNull<TimerEntry>, tick: u64) {
        // The end of the tick: such an entry fires only when its tick does.
        let exact = tick.saturating_mul(NANOS_PER_TICK);
        // SAFETY: forwarded from the caller.
        unsafe { self.reregister_exact(shard, entry, tick, exact) }
    }

    /// [`reregister`](Self::reregister) with the exact deadline `exact`
    /// (from `deadline_to_tick_and_exact`) next to its tick, so that the driver may
    /// fire the entry as soon as the clock passes it. `tick` is the tick of
    /// `exact` (`tick_of_exact`), as `deadline_to_tick_and_exact` returns
    /// them: the wheel finds a moved entry's new tick from `exact` alone.
    ///
    /// # Safety
    ///
    /// As for `reregister`.
    #[inline]
    pub(crate) unsafe fn reregister_exact(
        &self,
        shard: usize,
        entry: NonNull<TimerEntry>,
        tick: u64,
        exact: u64,
    ) {
        debug_assert_eq!(tick_of_exact(exact), tick, "a tick apart from its deadline");
        let wheel = self.lock(shard);
        // SAFETY: the entry is live (caller) and we hold its shard lock.
        let e = unsafe { entry.as_ref() };
        if e.state() == REGISTERED {
            // SAFETY: we hold the shard lock.
            let when = unsafe { e.when() };
            // A deadline moved later (a reset timeout, the common case) only
            // needs its new exact value: the entry keeps its place, and when
            // that place comes due the wheel moves it on to the tick of the
            // new deadline (see `Wheel::poll`), which it can tell from the
            // exact deadline alone. No unlink, no insert, and no unpark: the
            // driver already wakes no later than the old place. This path is
            // inlined into the caller; the rest is a call away.
            if when != IN_EXPIRED_LIST && tick >= when && !self.is_shutdown.load(SeqCst) {
                // SAFETY: we hold the shard lock.
                unsafe { e.set_exact(exact) };
                return;
            }
        }
        // SAFETY: forwarded from the caller; `wheel` is the shard's lock.
        unsafe { self.relink(wheel, shard, entry, tick, exact) }
    }

    /// Links an entry that is in no list (`UNREGISTERED`, or fired and so
    /// unlinked) at `tick`: `reregister_exact` without its check for a
    /// deadline moved later, which such an entry cannot take.
    ///
    /// # Safety
    ///
    /// As for `reregister`, and the entry is in no list.
    #[inline]
    pub(crate) unsafe fn register_exact(
        &self,
        shard: usize,
        entry: NonNull<TimerEntry>,
        tick: u64,
        exact: u64,
    ) {
        let wheel = self.lock(shard);
        // SAFETY: forwarded from the caller; `wheel` is the shard's lock.
        unsafe { self.relink(wheel, shard, entry, tick, exact) }
    }

    /// The rest of `reregister_exact`: unlinks the entry if it is linked
    /// and links it at `tick` (or fires it). Called with `shard` locked
    /// (`wheel` is the guard).
    ///
    /// # Safety
    ///
    /// As for `reregister`.
    #[inline(never)]
    unsafe fn relink(
        &self,
        mut wheel: MutexGuard<'_, Wheel>,
        shard: usize,
        entry: NonNull<TimerEntry>,
        tick: u64,
        exact: u64,
    ) {
        // SAFETY: the entry is live (caller) and we hold its shard lock.
        let e = unsafe { entry.as_ref() };
        if e.state() == REGISTERED {
            // SAFETY: REGISTERED entries are linked in their shard.
            unsafe { wheel.remove(entry) };
        }
        // A skipped shard has not seen the driver's last turn: catch it up,
        // so that a deadline that turn reached fires now, as it would have.
        wheel.advance_idle(self.processed.load(SeqCst));
        let mut linked = false;
        let waker = if self.is_shutdown.load(SeqCst) {
            // SAFETY: we hold the shard lock.
            unsafe { e.fire(SHUTDOWN) }
        } else {
            // SAFETY: we hold the shard lock.
            unsafe {
                e.set_when(tick);
                e.set_exact(exact);
                e.set_state(REGISTERED);
            }
            // SAFETY: the entry is live, pinned and now in no list.
            match unsafe { wheel.insert(entry) } {
                Ok(()) => {
                    self.publish_insert(shard, tick);
                    linked = true;
                    None
                }
                // SAFETY: we hold the shard lock.
                Err(()) => unsafe { e.fire(FIRED) },
            }
        };
        drop(wheel);
        if linked {
            self.unpark_if_earlier(tick);
        }
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// Unlinks `entry` if it is linked; after this the driver holds no
    /// pointer to it and it may be dropped.
    ///
    /// # Safety
    ///
    /// As for `reregister`.
    pub(crate) unsafe fn deregister(&self, shard: usize, entry: NonNull<TimerEntry>) {
        let mut wheel = self.lock(shard);
        // SAFETY: the entry is live (caller) and we hold its shard lock.
        let e = unsafe { entry.as_ref() };
        if e.state() == REGISTERED {
            // SAFETY: REGISTERED entries are linked in their shard, and we
            // hold its lock.
            unsafe {
                wheel.remove(entry);
                e.set_state(UNREGISTERED);
            }
        }
    }

    /// Wakes the parked driver if `tick` is before the deadline it sleeps
    /// towards (see the module documentation).
    fn unpark_if_earlier(&self, tick: u64) {
        let promised = self.next_wake.load(SeqCst);
        if promised == SCANNING || (promised != RUNNING && tick < promised) {
            self.earlier_timer.store(true, SeqCst);
            self.unpark();
        }
    }

    /// Wakes the parked driver.
    pub(crate) fn unpark(&self) {
        self.did_wake.store(true, SeqCst);
        self.unpark.unpark();
    }

    /// Starts a park: reads every shard's published tick (without locking)
    /// and publishes the earliest, which it returns.
    pub(crate) fn begin_park(&self) -> Option<u64> {
        self.next_wake.store(SCANNING, SeqCst);
        let next = self
            .shards
            .iter()
            // An RMW, not a load: see the module documentation.
            .map(|shard| shard.next_tick.fetch_add(0, SeqCst))
            .min()
            .filter(|&tick| tick != EMPTY);
        // Tick 0 would read as SCANNING: promise tick 1 instead, which costs
        // at most one early wake-up.
        let promised = next.map_or(NO_TIMER, |t| t.clamp(1, MAX_TICK));
        self.next_wake.store(promised, SeqCst);
        next
    }

    /// Ends a park: registrations no longer need to unpark.
    pub(crate) fn end_park(&self) {
        self.next_wake.store(RUNNING, SeqCst);
    }

    /// Fires every timer due by the clock.
    pub(crate) fn process(&self) {
        self.process_at(self.now_tick());
    }

    /// After a park: fires every timer due by the clock and, with `early`,
    /// those of the next tick whose exact deadline has passed (as
    /// [`process_early`](Self::process_early)), reading the clock once
    /// for both.
    ///
    /// `next` is what [`begin_park`](Self::begin_park) found; unless a
    /// timer was `registered` since, no shard publishes an earlier tick, so
    /// when `next` is neither due nor the next tick the shards are not
    /// scanned at all (a park woken by I/O with no timer near).
    pub(crate) fn process_after_park(&self, early: bool, next: Option<u64>, registered: bool) {
        let now_exact = self.exact_now();
        let now = (now_exact / NANOS_PER_TICK).min(MAX_TICK);
        let near = |tick: u64| tick <= now.saturating_add(1);
        if !registered && !next.is_some_and(near) {
            self.note_processed(now);
            return;
        }
        self.process_at(now);
        if early {
            self.process_early_at(now_exact);
        }
    }

    /// Records that the driver's turns reached `now`: a registration for
    /// a tick at or before it fires at once.
    fn note_processed(&self, now: u64) {
        // `advance` processes too, from any thread; the load first keeps
        // the RMW to once per tick.
        if now > self.processed.load(SeqCst) {
            self.processed.fetch_max(now, SeqCst);
        }
    }

    /// Nanoseconds from the driver's start to now, saturating.
    fn exact_now(&self) -> u64 {
        let since = self.clock.now().saturating_duration_since(self.start);
        since.as_nanos().min(u64::MAX as u128) as u64
    }

    /// Fires every timer with a deadline at or before `now`, waking their
    /// tasks in batches outside the shard locks: a woken task may run on
    /// another thread at once and reset its sleep, which takes the lock.
    /// Shards whose published tick is after `now` are skipped unlocked.
    pub(crate) fn process_at(&self, now: u64) {
        self.note_processed(now);
        // Made only once a shard is due: most parks find none, and the
        // batch's slots cost more to set up and drop than the scan.
        let mut batch = None;
        for shard in 0..self.shards.len() {
            if self.shards[shard].next_tick.load(SeqCst) > now {
                continue;
            }
            let wheel = self.lock(shard);
            let batch = batch.get_or_insert_with(WakeBatch::new);
            self.fire_locked(shard, wheel, now, batch);
        }
    }

    /// Fires, ahead of their tick, the timers of the next tick whose exact
    /// deadline the clock has already passed: a timer then fires when its
    /// deadline passes rather than at the end of its millisecond. Only
    /// shards that publish exactly the next tick are locked.
    #[cfg(test)]
    pub(crate) fn process_early(&self) {
        self.process_early_at(self.exact_now());
    }

    /// [`process_early`](Self::process_early) with the clock read as
    /// `now_exact` nanoseconds from the start.
    fn process_early_at(&self, now_exact: u64) {
        let now = now_exact / NANOS_PER_TICK;
        let tick = now + 1;
        let mut batch = None;
        for shard in 0..self.shards.len() {
            if self.shards[shard].next_tick.load(SeqCst) != tick {
                continue;
            }
            let mut wheel = self.lock(shard);
            wheel.expire_early(tick, now_exact);
            let batch = batch.get_or_insert_with(WakeBatch::new);
            self.fire_locked(shard, wheel, now, batch);
        }
    }

    /// When the driver should wake for the timers of `tick`, the earliest
    /// tick any shard publishes: the earliest exact deadline among them
    /// when every shard publishing `tick` has that tick as its next level-0
    /// slot, and otherwise the start of `tick`. Locks those shards; for a
    /// park that may block.
    pub(crate) fn wake_instant(&self, tick: u64) -> Option<std::time::Instant> {
        let tick_start = self.tick_to_instant(tick)?;
        let mut earliest = u64::MAX;
        for shard in 0..self.shards.len() {
            if self.shards[shard].next_tick.load(SeqCst) != tick {
                continue;
            }
            match self.lock(shard).next_exact(tick) {
                Some(exact) => earliest = earliest.min(exact),
                None => return Some(tick_start),
            }
        }
        let exact = self.start.checked_add(Duration::from_nanos(earliest));
        Some(exact.map_or(tick_start, |at| at.min(tick_start)))
    }

    /// Fires every entry of the locked `shard` due at or before `now` (and
    /// any already in its expired list), waking in batches with the lock
    /// released, then publishes the shard's next tick.
    fn fire_locked<'a>(
        &'a self,
        shard: usize,
        mut wheel: MutexGuard<'a, Wheel>,
        now: u64,
        batch: &mut WakeBatch,
    ) {
        while let Some(entry) = wheel.poll(now) {
            // SAFETY: entries returned by `poll` were linked, so their
            // `Sleep` has not deregistered them and they are live; we hold
            // the shard lock.
            if let Some(waker) = unsafe { entry.as_ref().fire(FIRED) } {
                batch.push(waker);
            }
            if batch.is_full() {
                self.publish(shard, &wheel);
                drop(wheel);
                batch.wake_all();
                wheel = self.lock(shard);
            }
        }
        self.publish(shard, &wheel);
        drop(wheel);
        batch.wake_all();
    }

    /// Marks the driver shut down and wakes every registered timer, whose
    /// `Sleep` then reports the shutdown.
    pub(crate) fn shutdown(&self) {
        self.is_shutdown.store(true, SeqCst);
        let mut batch = WakeBatch::new();
        for shard in 0..self.shards.len() {
            let mut wheel = self.lock(shard);
            let mut wakers = Vec::new();
            wheel.drain(|entry| {
                // SAFETY: drained entries were linked, hence live; we hold
                // the shard lock.
                if let Some(waker) = unsafe { entry.as_ref().fire(SHUTDOWN) } {
                    wakers.push(waker);
                }
            });
            self.publish(shard, &wheel);
            drop(wheel);
            for waker in wakers {
                batch.push(waker);
                if batch.is_full() {
                    batch.wake_all();
                }
            }
            batch.wake_all();
        }
    }

    /// Whether every shard is empty (tests).
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        (0..self.shards.len()).all(|shard| self.lock(shard).is_empty())
    }
}

/// A fixed-capacity batch of wakers, so that firing never allocates.
struct WakeBatch {
    wakers: [Option<Waker>; WAKE_BATCH],
    len: usize,
}

impl WakeBatch {
    fn new() -> WakeBatch {
        WakeBatch {
            wakers: std::array::from_fn(|_| None),
            len: 0,
        }
    }

    fn push(&mut self, waker: Waker) {
        debug_assert!(!self.is_full());
        self.wakers[self.len] = Some(waker);
        self.len += 1;
    }

    fn is_full(&self) -> bool {
        self.len == WAKE_BATCH
    }

    fn wake_all(&mut self) {
        for slot in &mut self.wakers[..self.len] {
            if let Some(waker) = slot.take() {
                waker.wake();
            }
        }
        self.len = 0;
    }
}

/// A small per-thread index, handed out in the order threads first ask
/// for one, that spreads threads over the shards.
///
/// Both the counter and the thread-local are the shim's: under loom each
/// modelled thread gets its own index, and the numbers restart in each
/// execution, so a replay picks the same shards.
fn thread_index() -> usize {
    static NEXT: Counter = Counter::new(0);
    rt_core::loom::thread_local! {
        static INDEX: Cell<Option<usize>> = const { Cell::new(None) };
    }
    INDEX.with(|index| match index.get() {
        Some(i) => i,
        None => {
            // Only its remainder by the shard count is used, so a
            // truncation on 32-bit targets changes nothing.
            let i = NEXT.next() as usize;
            index.set(Some(i));
            i
        }
    })
}

#[cfg(all(test, not(loom)))]
mod tests;
