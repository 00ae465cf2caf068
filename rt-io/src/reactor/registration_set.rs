//! `RegistrationSet`: the reactor's table of registered resources, which
//! turns the tokens the OS poller hands back into resource states.
//!
//! # Tokens carry a generation
//!
//! A token packs `| generation | slot + 1 |`; the index field is never 0,
//! which is the driver's own waker token. Releasing a slot drops its state
//! at once and moves the slot's generation on, so a token handed out
//! before the release no longer matches and its events are dropped before
//! anything is touched. That matters because the OS may keep an entry the
//! reactor released: epoll keys entries on the open file, so when the
//! registered descriptor was closed while a duplicate keeps the file open
//! (or an `AsyncFd`'s value was swapped out), deregistering fails and the
//! entry goes on reporting events under the old token. Freeing a state
//! therefore never waits for the OS to accept the deregistration.
//!
//! The driver resolves the tokens of a turn under the lock, taking a
//! reference to each state, and sets readiness after unlocking (waking
//! runs foreign code, which may drop resources). A slot released and
//! reused meanwhile hands its new state to nobody in this turn: the driver
//! holds the old one, which it may still mark ready, unobserved.
//!
//! # The driver's memo
//!
//! Taking the lock, checking the generation and cloning the state's `Arc`
//! for every event costs about as much as setting the readiness itself. So
//! the driver keeps the states it resolved in a small table of its own
//! ([`Resolved`]), by exact token: an event whose token is there is
//! dispatched without the lock. The memo can only name the state its
//! token named when it was resolved, so a stale token still never reaches
//! a newer registration of the slot (that one has another token). What the
//! memo could do is keep a released state alive, and mark it ready,
//! unobserved, as a turn that resolved it just before the release would.
//! To bound that, every release (and the shutdown) bumps an epoch, and a
//! turn that finds the epoch moved empties the memo before its first
//! lookup: a released state is held at most until the next turn begins.
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
//! always yields the slot's current state, so no event ever reaches freed
//! memory.

use super::handle::shutdown_error;
use super::ready::Ready;
use super::scheduled_io::ScheduledIo;
use rt_core::loom::sync::atomic::{AtomicUsize, Ordering};
use rt_core::loom::sync::{Mutex, MutexGuard};
use std::io;
use std::sync::Arc;

/// Bits of a token that hold the slot index (plus one).
const INDEX_BITS: u32 = if usize::BITS >= 64 { 32 } else { 20 };
const INDEX_MASK: usize = (1 << INDEX_BITS) - 1;
const GENERATION_MASK: usize = usize::MAX >> INDEX_BITS;
/// A token no registration carries: its index part is 0, like the waker's
/// token, with generation 1. The io_uring driver's completion eventfd is
/// registered under it.
#[cfg_attr(not(all(target_os = "linux", feature = "uring")), allow(dead_code))]
pub(super) const RING_TOKEN: mio::Token = mio::Token(1 << INDEX_BITS);

/// Entries of the driver's memo; a power of two, indexed by slot, so that
/// up to this many registrations never evict each other (16 KiB per
/// driver, allocated at its first event).
const MEMO_SLOTS: usize = 1024;

/// The registrations of one reactor, by token.
#[derive(Debug, Default)]
pub struct RegistrationSet {
    synced: Mutex<Synced>,
    /// Moves on after every release and at shutdown: the driver's memo is
    /// emptied when it finds it moved.
    epoch: AtomicUsize,
}

/// The driver's scratch space, kept between turns: the states it resolved
/// lately, by token (see "The driver's memo" above), and the vectors a
/// turn's other events pass through.
#[derive(Debug, Default)]
pub struct Resolved {
    epoch: usize,
    memo: Vec<Option<(mio::Token, Arc<ScheduledIo>)>>,
    /// Indices of the memo's filled entries, so that forgetting costs what
    /// was memoised, not the table's size.
    filled: Vec<usize>,
    missed: Vec<(mio::Token, Ready)>,
    found: Vec<(mio::Token, Arc<ScheduledIo>, Ready)>,
}

impl Resolved {
    /// An empty memo.
    pub fn new() -> Resolved {
        Resolved::default()
    }

    fn index(token: mio::Token) -> usize {
        token.0 & (MEMO_SLOTS - 1)
    }

    /// The state memoised for exactly `token`.
    fn get(&self, token: mio::Token) -> Option<&Arc<ScheduledIo>> {
        match self.memo.get(Resolved::index(token)) {
            Some(Some((memo, io))) if *memo == token => Some(io),
            _ => None,
        }
    }

    /// Memoises `io` for `token`, returning the state it evicts (to be
    /// dropped by the caller, outside any lock).
    fn insert(&mut self, token: mio::Token, io: Arc<ScheduledIo>) -> Option<Arc<ScheduledIo>> {
        if self.memo.is_empty() {
            self.memo.resize_with(MEMO_SLOTS, || None);
        }
        let index = Resolved::index(token);
        let entry = &mut self.memo[index];
        if entry.is_none() {
            self.filled.push(index);
        }
        entry.replace((token, io)).map(|(_, evicted)| evicted)
    }

    /// Forgets every memoised state.
    fn forget(&mut self) {
        for index in self.filled.drain(..) {
            self.memo[index] = None;
        }
    }
}

#[derive(Debug, Default)]
struct Synced {
    is_shutdown: bool,
    slots: Vec<Slot>,
    /// Indices of empty slots, reused last-released first.
    free: Vec<usize>,
}

#[derive(Debug, Default)]
struct Slot {
    generation: usize,
    io: Option<Arc<ScheduledIo>>,
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

impl Synced {
    /// The state `token` names, if its slot still holds that registration.
    fn get(&self, token: mio::Token) -> Option<&Arc<ScheduledIo>> {
        let (index, generation) = split(token)?;
        let slot = self.slots.get(index)?;
        if slot.generation != generation {
            return None;
        }
        slot.io.as_ref()
    }
}

impl RegistrationSet {
    /// An empty set.
    pub fn new() -> RegistrationSet {
        RegistrationSet::default()
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
            None if synced.slots.len() < INDEX_MASK => {
                synced.slots.push(Slot::default());
                synced.slots.len() - 1
            }
            None => return Err(io::Error::other("the reactor has no free token left")),
        };
        let io = Arc::new(ScheduledIo::new());
        let slot = &mut synced.slots[index];
        slot.io = Some(io.clone());
        Ok((token(index, slot.generation), io))
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
            let Some(slot) = synced.slots.get_mut(index) else {
                return false;
            };
            if slot.generation != generation {
                return false;
            }
            let Some(io) = slot.io.take() else {
                return false;
            };
            slot.generation = (generation + 1) & GENERATION_MASK;
            synced.free.push(index);
            io
        };
        self.epoch.fetch_add(1, Ordering::Release);
        // Dropped outside the lock: a state may be the last owner of
        // wakers left behind by a waiter.
        drop(released);
        true
    }

    /// Driver side: sets `(token, readiness)` events on the states their
    /// tokens still name, under `tick`. Stale tokens and the waker's are
    /// skipped. Tokens in the driver's memo are dispatched without the
    /// lock; the others are resolved under it, all at once, and memoised.
    /// Returns how many events reached a resource.
    pub fn dispatch(
        &self,
        tick: usize,
        events: impl IntoIterator<Item = (mio::Token, Ready)>,
        resolved: &mut Resolved,
    ) -> usize {
        let epoch = self.epoch.load(Ordering::Acquire);
        if resolved.epoch != epoch {
            // A release (or the shutdown) happened since the memo was
            // filled: forget it all rather than hold a released state.
            resolved.forget();
            resolved.epoch = epoch;
        }
        let mut dispatched = 0;
        for (token, ready) in events {
            match resolved.get(token) {
                Some(io) => {
                    io.set_readiness(tick, ready);
                    dispatched += 1;
                }
                None => resolved.missed.push((token, ready)),
            }
        }
        if resolved.missed.is_empty() {
            return dispatched;
        }
        {
            let synced = self.synced();
            if synced.is_shutdown {
                resolved.missed.clear();
                return dispatched;
            }
            for (token, ready) in resolved.missed.drain(..) {
                if let Some(io) = synced.get(token) {
                    resolved.found.push((token, io.clone(), ready));
                }
            }
        }
        let mut found = std::mem::take(&mut resolved.found);
        for (token, io, ready) in found.drain(..) {
            io.set_readiness(tick, ready);
            dispatched += 1;
            // The evicted state, if any, is dropped here, outside the lock.
            drop(resolved.insert(token, io));
        }
        resolved.found = found;
        dispatched
    }

    /// Marks the set shut down and wakes every registered resource with
    /// the shutdown; later allocations fail and dispatches do nothing.
    pub fn shutdown(&self) {
        let resources: Vec<Arc<ScheduledIo>> = {
            let mut synced = self.synced();
            if synced.is_shutdown {
                return;
            }
            synced.is_shutdown = true;
            self.epoch.fetch_add(1, Ordering::Release);
            synced.free.clear();
            std::mem::take(&mut synced.slots)
                .into_iter()
                .filter_map(|slot| slot.io)
                .collect()
        };
        for io in resources {
            io.shutdown();
        }
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
        assert_eq!(
            set.dispatch(1, [(old, Ready::READABLE)], &mut Resolved::new()),
            0
        );
        assert!(io.ready_event(Interest::READABLE).ready.is_empty());
        assert_eq!(
            set.dispatch(2, [(new, Ready::READABLE)], &mut Resolved::new()),
            1
        );
        assert!(io.ready_event(Interest::READABLE).ready.is_readable());
    }

    #[test]
    fn a_turn_reaches_every_live_token_once_and_skips_stale_ones() {
        let set = RegistrationSet::new();
        let (stale, _) = set.allocate().unwrap();
        assert!(set.release(stale));
        let (a, io_a) = set.allocate().unwrap();
        let (b, io_b) = set.allocate().unwrap();
        let mut scratch = Resolved::new();
        let turn = [
            (mio::Token(0), Ready::READABLE),
            (stale, Ready::READABLE),
            (a, Ready::READABLE),
            (stale, Ready::WRITABLE),
            (b, Ready::WRITABLE),
        ];
        assert_eq!(set.dispatch(1, turn, &mut scratch), 2);
        assert!(scratch.missed.is_empty() && scratch.found.is_empty());
        assert!(io_a.ready_event(Interest::READABLE).ready.is_readable());
        assert!(io_b.ready_event(Interest::WRITABLE).ready.is_writable());
        assert!(io_a.ready_event(Interest::WRITABLE).ready.is_empty());
        assert_eq!(set.dispatch(2, [(stale, Ready::READABLE)], &mut scratch), 0);
        assert_eq!(set.dispatch(3, [], &mut scratch), 0);
    }

    #[test]
    fn the_memo_serves_live_tokens_and_forgets_after_a_release() {
        let set = RegistrationSet::new();
        let (a, io_a) = set.allocate().unwrap();
        let (b, _io_b) = set.allocate().unwrap();
        let mut memo = Resolved::new();
        assert_eq!(set.dispatch(1, [(a, Ready::READABLE)], &mut memo), 1);
        assert!(memo.get(a).is_some(), "resolved once, memoised");
        // A hit goes to the very state the token was resolved to.
        io_a.clear_readiness(io_a.ready_event(Interest::READABLE));
        assert_eq!(set.dispatch(2, [(a, Ready::READABLE)], &mut memo), 1);
        assert!(io_a.ready_event(Interest::READABLE).ready.is_readable());
        // Releasing any token empties the memo at the next turn, so the
        // released state is not held and its token resolves as stale.
        assert!(set.release(a));
        assert_eq!(set.dispatch(3, [(b, Ready::READABLE)], &mut memo), 1);
        assert!(memo.get(a).is_none());
        assert_eq!(std::sync::Arc::strong_count(&io_a), 1);
        let (reused, io_new) = set.allocate().unwrap();
        assert_eq!(reused.0 & INDEX_MASK, a.0 & INDEX_MASK);
        assert_eq!(set.dispatch(4, [(a, Ready::READABLE)], &mut memo), 0);
        assert!(io_new.ready_event(Interest::READABLE).ready.is_empty());
    }

    #[test]
    fn turns_racing_releases_and_reuse_reach_only_live_registrations() {
        use std::sync::atomic::AtomicUsize;
        const ROUNDS: usize = if cfg!(miri) { 20 } else { 2000 };
        let set = Arc::new(RegistrationSet::new());
        let (first, io) = set.allocate().unwrap();
        // The newest token, for the driver; 0 once the releases are done.
        let newest = Arc::new(AtomicUsize::new(first.0));
        let driver = {
            let (set, newest) = (set.clone(), newest.clone());
            std::thread::spawn(move || {
                let mut memo = Resolved::new();
                let (mut tick, mut old) = (0, first);
                loop {
                    let now = newest.load(Ordering::Acquire);
                    if now == 0 {
                        break;
                    }
                    tick += 1;
                    let now = mio::Token(now);
                    let turn = [(old, Ready::READABLE), (now, Ready::WRITABLE)];
                    set.dispatch(tick & 0xff, turn, &mut memo);
                    old = now;
                }
            })
        };
        let (mut token, mut io) = (first, io);
        for _ in 0..ROUNDS {
            drop(io);
            assert!(set.release(token));
            (token, io) = set.allocate().unwrap();
            // The driver knows only released tokens so far: none of their
            // events may reach the new registration.
            assert!(io.ready_event(Interest::READABLE).ready.is_empty());
            assert!(io.ready_event(Interest::WRITABLE).ready.is_empty());
            newest.store(token.0, Ordering::Release);
        }
        newest.store(0, Ordering::Release);
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
        set.synced().slots[0].generation = GENERATION_MASK;
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
        assert_eq!(
            set.dispatch(1, [(token, Ready::READABLE)], &mut Resolved::new()),
            0
        );
    }
}
