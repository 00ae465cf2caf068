//! `RegistrationSet`: the reactor's table of registered resources, which
//! turns the tokens the OS poller hands back into resource states.
//!
//! # Tokens carry a generation
//!
//! A token packs `| generation | slot + 1 |`; the index field is never 0,
//! which is the driver's own waker token. Releasing a slot empties it at
//! once and moves the slot's generation on, so a token handed out before
//! the release no longer matches and its events are dropped before
//! anything is touched. That matters because the OS may keep an entry the
//! reactor released: epoll keys entries on the open file, so when the
//! registered descriptor was closed while a duplicate keeps the file open
//! (or an `AsyncFd`'s value was swapped out), deregistering fails and the
//! entry goes on reporting events under the old token. Releasing a slot
//! therefore never waits for the OS to accept the deregistration.
//!
//! # Lookups take no lock and no reference
//!
//! Allocation, release and shutdown take the set's lock; the driver's
//! lookups do not. The slots never move ([`slots`]), and each holds its
//! state as an atomic pointer. The driver pins the epoch once per turn
//! (`crossbeam_epoch::pin`) and, for each event, loads the slot's state,
//! then the slot's generation, and sets readiness through a plain
//! reference if the generation is the token's. A release empties the slot
//! and retires the state's count with `Guard::defer`: the collector drops
//! it only once every thread pinned at that moment has unpinned, so a turn
//! that loaded the pointer before the release still uses a live state,
//! which it may mark ready, unobserved.
//!
//! The order of the two loads is what keeps a stale token from a newer
//! registration: a release moves the generation on before the slot is
//! filled again, and the fill publishes the new state with `Release`, so a
//! reader that loaded the new state (`Acquire`) reads the new generation
//! and drops the stale event. A reader that loaded the old state reads
//! either generation; both outcomes are a live state or a dropped event.
//!
//! The driver wakes tasks while pinned. Waking runs foreign code, which
//! may drop resources and so release slots: that takes the set's lock,
//! which no pinned reader holds, and pins again, which nests. The pin only
//! delays reclamation. The other way round, nothing pins while holding
//! the lock, because pinning may run retired drops. Those drops free a
//! state's memory and no more in practice: a registration clears its
//! wakers before it releases its slot.
//!
//! # Generation wrap
//!
//! Generations wrap within their bits (32 on 64-bit targets, 12 on
//! narrower ones). A stale token can name a live registration again only
//! if a stale entry stays in the OS poller while its slot is reused a full
//! generation cycle (2^32 registrations of that one slot on 64-bit
//! targets), and even then the event only looks like a spurious readiness
//! to that registration: every operation already tolerates those (it tries,
//! gets `WouldBlock`, clears the readiness and waits again). The lookup
//! always yields the slot's current state or one not yet reclaimed, so no
//! event ever reaches freed memory.

mod slots;

use self::slots::Slots;
use super::handle::shutdown_error;
use super::ready::Ready;
use super::scheduled_io::ScheduledIo;
use crossbeam_epoch::Guard;
use rt_core::loom::sync::atomic::Ordering;
use rt_core::loom::sync::{Mutex, MutexGuard};
use std::io;
use std::sync::Arc;

/// Bits of a token that hold the slot index (plus one).
const INDEX_BITS: u32 = if usize::BITS >= 64 { 32 } else { 20 };
const INDEX_MASK: usize = (1 << INDEX_BITS) - 1;
const GENERATION_MASK: usize = usize::MAX >> INDEX_BITS;

/// The registrations of one reactor, by token.
#[derive(Debug)]
pub struct RegistrationSet {
    slots: Slots,
    synced: Mutex<Synced>,
}

/// What allocation and release change, under the lock.
#[derive(Debug, Default)]
struct Synced {
    is_shutdown: bool,
    /// Slots handed out so far; the others are unused.
    len: usize,
    /// Indices of empty slots, reused last-released first.
    free: Vec<usize>,
}

fn token(index: usize, generation: usize) -> mio::Token {
    mio::Token((generation << INDEX_BITS) | (index + 1))
}

/// The slot index and generation `token` names; `None` for the waker's.
fn split(token: mio::Token) -> Option<(usize, usize)> {
    let field = token.0 & INDEX_MASK;
    let index = field.checked_sub(1)?;
    Some((index, token.0 >> INDEX_BITS))
}

/// Hands `retired` to the epoch collector, which drops it once no thread
/// pinned now is still pinned. Never called under the set's lock.
fn retire<T: Send + 'static>(retired: T) {
    crossbeam_epoch::pin().defer(move || drop(retired));
}

impl Default for RegistrationSet {
    fn default() -> Self {
        RegistrationSet::new()
    }
}

impl RegistrationSet {
    /// An empty set.
    pub fn new() -> RegistrationSet {
        RegistrationSet {
            slots: Slots::new(),
            synced: Mutex::new(Synced::default()),
        }
    }

    fn synced(&self) -> MutexGuard<'_, Synced> {
        self.synced.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes a slot for a new resource: its token and its fresh state.
    ///
    /// # Errors
    ///
    /// Once [`shutdown`](Self::shutdown) ran, and when every token is in use.
    pub fn allocate(&self) -> io::Result<(mio::Token, Arc<ScheduledIo>)> {
        let mut synced = self.synced();
        if synced.is_shutdown {
            return Err(shutdown_error());
        }
        let index = match synced.free.pop() {
            Some(index) => index,
            None if synced.len < INDEX_MASK => {
                synced.len += 1;
                synced.len - 1
            }
            None => return Err(io::Error::other("the reactor has no free token left")),
        };
        let slot = self.slots.get_or_grow(index);
        let io = Arc::new(ScheduledIo::new());
        // The generation was moved on by the last release, under this
        // lock; filling the slot publishes it to readers with the state.
        slot.fill(io.clone());
        Ok((token(index, slot.generation.load(Ordering::Relaxed)), io))
    }

    /// Empties `token`'s slot and moves its generation on, so that events
    /// still carrying `token` are dropped. Returns whether the slot held
    /// that registration (it does not after a shutdown).
    pub fn release(&self, token: mio::Token) -> bool {
        let released = {
            let mut synced = self.synced();
            let Some((index, generation)) = split(token) else {
                return false;
            };
            if synced.is_shutdown || index >= synced.len {
                return false;
            }
            let Some(slot) = self.slots.get(index) else {
                return false;
            };
            if slot.generation.load(Ordering::Relaxed) != generation {
                return false;
            }
            let Some(io) = slot.take() else {
                return false;
            };
            slot.generation
                .store((generation + 1) & GENERATION_MASK, Ordering::Release);
            synced.free.push(index);
            io
        };
        // A turn may have loaded the state before the slot was emptied.
        retire(released);
        true
    }

    /// The state `token` names, if its slot holds that registration, for
    /// as long as `guard` keeps the epoch pinned.
    fn get<'a>(&'a self, token: mio::Token, _guard: &'a Guard) -> Option<&'a ScheduledIo> {
        let (index, generation) = split(token)?;
        let slot = self.slots.get(index)?;
        // The state first, then the generation: see "Lookups take no lock
        // and no reference" above.
        let io = slot.load();
        if io.is_null() || slot.generation.load(Ordering::Acquire) != generation {
            return None;
        }
        // SAFETY: `io` was loaded from the slot while `_guard` pins the
        // epoch, and a state taken out of a slot is dropped only through
        // `retire`, after every thread pinned at the time has unpinned;
        // the slot's count keeps it alive until then.
        Some(unsafe { &*io })
    }

    /// Driver side: sets `(token, readiness)` events on the states their
    /// tokens still name, under `tick`, pinning the epoch once for the
    /// whole batch. Stale tokens and the waker's are skipped. Returns how
    /// many events reached a resource.
    pub fn dispatch(
        &self,
        tick: usize,
        events: impl IntoIterator<Item = (mio::Token, Ready)>,
    ) -> usize {
        let guard = crossbeam_epoch::pin();
        let mut dispatched = 0;
        for (token, ready) in events {
            if let Some(io) = self.get(token, &guard) {
                io.set_readiness(tick, ready);
                dispatched += 1;
            }
        }
        dispatched
    }

    /// Marks the set shut down and wakes every registered resource with
    /// the shutdown; later allocations and releases fail and dispatches
    /// find nothing.
    pub fn shutdown(&self) {
        let resources: Vec<Arc<ScheduledIo>> = {
            let mut synced = self.synced();
            if synced.is_shutdown {
                return;
            }
            synced.is_shutdown = true;
            synced.free.clear();
            (0..synced.len)
                .filter_map(|index| self.slots.get(index)?.take())
                .collect()
        };
        for io in &resources {
            io.shutdown();
        }
        retire(resources);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::Interest;

    #[test]
    fn a_reused_slot_gets_a_new_token() {
        let set = RegistrationSet::new();
        let (old, _) = set.allocate().unwrap();
        assert!(set.release(old));
        let (new, io) = set.allocate().unwrap();
        assert_eq!(split(new).unwrap().0, split(old).unwrap().0);
        assert_ne!(new, old);
        assert_eq!(set.dispatch(1, [(old, Ready::READABLE)]), 0);
        assert!(io.ready_event(Interest::READABLE).ready.is_empty());
        assert_eq!(set.dispatch(2, [(new, Ready::READABLE)]), 1);
        assert!(io.ready_event(Interest::READABLE).ready.is_readable());
    }

    #[test]
    fn a_turn_reaches_every_live_token_once_and_skips_stale_ones() {
        let set = RegistrationSet::new();
        let (stale, _) = set.allocate().unwrap();
        assert!(set.release(stale));
        let (a, io_a) = set.allocate().unwrap();
        let (b, io_b) = set.allocate().unwrap();
        let turn = [
            (mio::Token(0), Ready::READABLE),
            (stale, Ready::READABLE),
            (a, Ready::READABLE),
            (stale, Ready::WRITABLE),
            (b, Ready::WRITABLE),
        ];
        assert_eq!(set.dispatch(1, turn), 2);
        assert!(io_a.ready_event(Interest::READABLE).ready.is_readable());
        assert!(io_b.ready_event(Interest::WRITABLE).ready.is_writable());
        assert!(io_a.ready_event(Interest::WRITABLE).ready.is_empty());
        assert_eq!(set.dispatch(2, [(stale, Ready::READABLE)]), 0);
        assert_eq!(set.dispatch(3, []), 0);
    }

    #[test]
    fn a_released_state_is_freed_once_no_turn_can_reach_it() {
        let set = RegistrationSet::new();
        let (token, io) = set.allocate().unwrap();
        assert_eq!(Arc::strong_count(&io), 2, "the slot holds a count");
        let weak = Arc::downgrade(&io);
        drop(io);
        assert!(set.release(token));
        // Retired, not dropped: a turn pinned before the release may hold
        // it. Repinning lets the collector reach it.
        for _ in 0..1024 {
            if weak.strong_count() == 0 {
                break;
            }
            crossbeam_epoch::pin().flush();
        }
        assert_eq!(weak.strong_count(), 0);
        assert_eq!(set.dispatch(1, [(token, Ready::READABLE)]), 0);
    }

    #[test]
    fn turns_racing_releases_and_reuse_reach_only_live_registrations() {
        // Under Miri this checks that a turn never touches a freed state.
        const ROUNDS: usize = if cfg!(miri) { 20 } else { 2000 };
        let set = Arc::new(RegistrationSet::new());
        let (first, io) = set.allocate().unwrap();
        let current = Arc::new(std::sync::atomic::AtomicUsize::new(first.0));
        let driver = {
            let (set, current) = (set.clone(), current.clone());
            std::thread::spawn(move || {
                let mut tick = 0;
                let mut old = first;
                while current.load(std::sync::atomic::Ordering::Acquire) != 0 {
                    tick += 1;
                    let now = mio::Token(current.load(std::sync::atomic::Ordering::Acquire));
                    set.dispatch(
                        tick & 0xff,
                        [(old, Ready::READABLE), (now, Ready::WRITABLE)],
                    );
                    old = now;
                }
            })
        };
        let (mut token, mut io) = (first, io);
        for _ in 0..ROUNDS {
            drop(io);
            assert!(set.release(token));
            (token, io) = set.allocate().unwrap();
            // A stale token's event may never make the new state readable.
            assert!(io.ready_event(Interest::READABLE).ready.is_empty());
            assert!(io.ready_event(Interest::WRITABLE).ready.is_empty());
            current.store(token.0, std::sync::atomic::Ordering::Release);
        }
        current.store(0, std::sync::atomic::Ordering::Release);
        driver.join().unwrap();
    }

    #[test]
    fn a_token_is_released_once_and_never_the_waker() {
        let set = RegistrationSet::new();
        let (token, _) = set.allocate().unwrap();
        assert_ne!(token, mio::Token(0));
        assert!(!set.release(mio::Token(0)));
        assert!(set.release(token));
        assert!(!set.release(token));
    }

    #[test]
    fn generations_wrap_within_their_bits() {
        let set = RegistrationSet::new();
        let (first, _) = set.allocate().unwrap();
        assert!(set.release(first));
        set.slots
            .get(0)
            .unwrap()
            .generation
            .store(GENERATION_MASK, Ordering::Relaxed);
        let (last, _) = set.allocate().unwrap();
        assert_eq!(last, token(0, GENERATION_MASK));
        assert!(set.release(last));
        let (wrapped, _) = set.allocate().unwrap();
        assert_eq!(wrapped, first);
    }

    #[test]
    fn shutdown_fails_allocations_and_reaches_every_resource() {
        let set = RegistrationSet::new();
        let (token, io) = set.allocate().unwrap();
        set.shutdown();
        assert!(io.is_shutdown());
        assert!(set.allocate().is_err());
        assert!(!set.release(token));
        assert_eq!(set.dispatch(1, [(token, Ready::READABLE)]), 0);
    }
}
