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
use rt_core::loom::sync::{Mutex, MutexGuard};
use std::io;
use std::sync::Arc;

/// Bits of a token that hold the slot index (plus one).
const INDEX_BITS: u32 = if usize::BITS >= 64 { 32 } else { 20 };
const INDEX_MASK: usize = (1 << INDEX_BITS) - 1;
const GENERATION_MASK: usize = usize::MAX >> INDEX_BITS;

/// The registrations of one reactor, by token.
#[derive(Debug, Default)]
pub struct RegistrationSet {
    synced: Mutex<Synced>,
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
        // Dropped outside the lock: a state may be the last owner of
        // wakers left behind by a waiter.
        drop(released);
        true
    }

    /// Driver side: sets `(token, readiness)` events on the states their
    /// tokens still name, under `tick`. Stale tokens and the waker's are
    /// skipped. `resolved` is scratch space the caller keeps between
    /// turns. Returns how many events reached a resource.
    ///
    /// Most turns carry one event (a round trip wakes one socket), so the
    /// first resolved state stays on the stack and only the rest go through
    /// `resolved`: a lone event costs one lookup, one reference count
    /// increment and decrement, and no vector traffic.
    pub fn dispatch(
        &self,
        tick: usize,
        events: impl IntoIterator<Item = (mio::Token, Ready)>,
        resolved: &mut Vec<(Arc<ScheduledIo>, Ready)>,
    ) -> usize {
        let first = {
            let synced = self.synced();
            if synced.is_shutdown {
                return 0;
            }
            let mut events = events.into_iter();
            let first = events
                .by_ref()
                .find_map(|(token, ready)| Some((synced.get(token)?.clone(), ready)));
            if first.is_some() {
                for (token, ready) in events {
                    if let Some(io) = synced.get(token) {
                        resolved.push((io.clone(), ready));
                    }
                }
            }
            first
        };
        let Some((io, ready)) = first else {
            return 0;
        };
        io.set_readiness(tick, ready);
        drop(io);
        let dispatched = 1 + resolved.len();
        for (io, ready) in resolved.drain(..) {
            io.set_readiness(tick, ready);
        }
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
            set.dispatch(1, [(old, Ready::READABLE)], &mut Vec::new()),
            0
        );
        assert!(io.ready_event(Interest::READABLE).ready.is_empty());
        assert_eq!(
            set.dispatch(2, [(new, Ready::READABLE)], &mut Vec::new()),
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
        let mut scratch = Vec::new();
        let turn = [
            (mio::Token(0), Ready::READABLE),
            (stale, Ready::READABLE),
            (a, Ready::READABLE),
            (stale, Ready::WRITABLE),
            (b, Ready::WRITABLE),
        ];
        assert_eq!(set.dispatch(1, turn, &mut scratch), 2);
        assert!(scratch.is_empty(), "the scratch space is drained");
        assert!(io_a.ready_event(Interest::READABLE).ready.is_readable());
        assert!(io_b.ready_event(Interest::WRITABLE).ready.is_writable());
        assert!(io_a.ready_event(Interest::WRITABLE).ready.is_empty());
        assert_eq!(set.dispatch(2, [(stale, Ready::READABLE)], &mut scratch), 0);
        assert_eq!(set.dispatch(3, [], &mut scratch), 0);
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
            set.dispatch(1, [(token, Ready::READABLE)], &mut Vec::new()),
            0
        );
    }
}
