//! The hierarchical timing wheel: 6 levels of 64 slots over 1 ms ticks.
//!
//! Level 0 has 1 ms slots and spans 64 ms; each level above has slots as
//! wide as the whole level below, so level 5 has slots of about 12 days and
//! spans about 2 years. An entry goes to the level of the highest bit in
//! which its deadline differs from `elapsed` (the tick the wheel has been
//! processed up to): close deadlines land in fine slots, far ones in coarse
//! slots. When time reaches a coarse slot, its entries cascade down to finer
//! levels until they reach level 0 and expire. Deadlines further away than
//! the top level spans stay in the top level and come round again each
//! rotation until they are in range. Insert and remove are O(1); finding the
//! next expiration is a bit scan per level.
//!
//! Expired entries move to an `expired` list before they are fired, so that
//! the driver can fire them in batches and drop the lock in between; an
//! entry cancelled meanwhile is simply unlinked from that list.
//!
//! The wheel is not thread-safe by itself: each shard keeps one under its
//! lock.

mod level;

use crate::entry::{tick_of_exact, TimerEntry, IN_EXPIRED_LIST};
use level::Level;
use rt_core::util::linked_list::LinkedList;
use std::ptr::NonNull;

/// Number of levels.
pub(crate) const NUM_LEVELS: usize = 6;

/// Ticks spanned by the whole wheel (about 2.2 years of milliseconds).
pub(crate) const MAX_DURATION: u64 = 1 << (6 * NUM_LEVELS);

/// The next slot the wheel has to process, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Expiration {
    pub(crate) level: usize,
    pub(crate) slot: usize,
    pub(crate) deadline: u64,
}

pub(crate) struct Wheel {
    /// The tick up to which the wheel has been processed.
    elapsed: u64,
    levels: Box<[Level; NUM_LEVELS]>,
    /// Entries whose deadline has been reached, waiting to be fired.
    expired: LinkedList<TimerEntry>,
}

/// The level for a deadline `when` seen from `elapsed`: the 6-bit group of
/// the highest bit in which they differ. XOR rather than subtraction, so
/// that the result only changes when `elapsed` crosses the slot boundary
/// where the entry cascades; the low 6 bits are forced on so that deadlines
/// inside the current level-0 span give level 0.
pub(crate) fn level_for(elapsed: u64, when: u64) -> usize {
    let masked = (elapsed ^ when) | 63;
    if masked >= MAX_DURATION {
        // Beyond the wheel's span: park it in the top level.
        return NUM_LEVELS - 1;
    }
    let significant = 63 - masked.leading_zeros() as usize;
    significant / 6
}

impl Wheel {
    /// An empty wheel at tick 0.
    pub(crate) fn new() -> Wheel {
        Wheel {
            elapsed: 0,
            levels: Box::new(std::array::from_fn(Level::new)),
            expired: LinkedList::new(),
        }
    }

    /// The tick up to which the wheel has been processed.
    #[cfg(test)]
    pub(crate) fn elapsed(&self) -> u64 {
        self.elapsed
    }

    /// Links `entry` by its `when`. Returns `Err(())` without linking it
    /// when the deadline is not after `elapsed`: it is due now.
    ///
    /// # Safety
    ///
    /// `entry` is live, pinned, in no list, and stays live until removed
    /// (by `remove`, `poll` or `drain`).
    pub(crate) unsafe fn insert(&mut self, entry: NonNull<TimerEntry>) -> Result<(), ()> {
        // SAFETY: the caller holds the shard lock that guards `when`.
        let when = unsafe { entry.as_ref().when() };
        if when <= self.elapsed {
            return Err(());
        }
        let level = level_for(self.elapsed, when);
        self.levels[level].add(entry, when);
        Ok(())
    }

    /// Unlinks `entry`, from its slot or from the expired list.
    ///
    /// # Safety
    ///
    /// `entry` is live and linked in this wheel.
    pub(crate) unsafe fn remove(&mut self, entry: NonNull<TimerEntry>) {
        // SAFETY: the caller holds the shard lock that guards `when`.
        let when = unsafe { entry.as_ref().when() };
        if when == IN_EXPIRED_LIST {
            // SAFETY: the entry is linked in this wheel, here in `expired`.
            let removed = unsafe { self.expired.remove(entry) };
            debug_assert!(removed.is_some());
        } else {
            let level = level_for(self.elapsed, when);
            // SAFETY: `level_for` gives the level the entry was put in: it
            // only changes when `elapsed` reaches the entry's slot, and then
            // the slot is processed and the entry moved.
            unsafe { self.levels[level].remove(entry, when) };
        }
    }

    /// The next slot to process: "now" if entries already wait in the
    /// expired list, else the earliest occupied slot of the lowest level
    /// that has one (lower levels always expire before higher ones).
    pub(crate) fn next_expiration(&self) -> Option<Expiration> {
        if !self.expired.is_empty() {
            return Some(Expiration {
                level: 0,
                slot: 0,
                deadline: self.elapsed,
            });
        }
        self.levels
            .iter()
            .find_map(|level| level.next_expiration(self.elapsed))
    }

    /// The tick at which the wheel next needs processing.
    pub(crate) fn next_expiration_tick(&self) -> Option<u64> {
        self.next_expiration().map(|e| e.deadline)
    }

    /// The earliest exact deadline (see `TimerEntry::exact`) of the
    /// entries due at `tick`, when `tick` is the wheel's next expiration and
    /// a level-0 slot (whose entries all share that tick); `None` otherwise.
    pub(crate) fn next_exact(&self, tick: u64) -> Option<u64> {
        let exp = self.next_level0_expiration(tick)?;
        let mut earliest = u64::MAX;
        self.levels[0].for_each_in_slot(exp.slot, |entry| {
            // SAFETY: the entry is linked in this wheel, so it is live, and
            // the caller holds the shard lock that guards `exact`.
            earliest = earliest.min(unsafe { entry.as_ref().exact() });
        });
        Some(earliest)
    }

    /// Moves the entries due at `tick` whose exact deadline is at or before
    /// `now_exact` to the expired list, ahead of their tick, so that the
    /// next `poll` returns them. Does nothing unless `tick` is the wheel's
    /// next expiration and a level-0 slot; the rest of the slot stays put.
    pub(crate) fn expire_early(&mut self, tick: u64, now_exact: u64) {
        let Some(exp) = self.next_level0_expiration(tick) else {
            return;
        };
        let mut entries = self.levels[0].take_slot(exp.slot);
        while let Some(entry) = entries.pop_back() {
            // SAFETY: the entry was linked in this wheel, so it is live, and
            // the caller holds the shard lock that guards `when`/`exact`.
            unsafe {
                if entry.as_ref().exact() <= now_exact {
                    entry.as_ref().set_when(IN_EXPIRED_LIST);
                    self.expired.push_front(entry);
                } else {
                    self.levels[0].add(entry, tick);
                }
            }
        }
    }

    /// The next expiration when it is the level-0 slot of `tick`, with
    /// nothing already waiting in the expired list.
    fn next_level0_expiration(&self, tick: u64) -> Option<Expiration> {
        if !self.expired.is_empty() {
            return None;
        }
        // Level 0 expires before every higher level, so its next slot, when
        // it has one, is the wheel's next expiration.
        self.levels[0]
            .next_expiration(self.elapsed)
            .filter(|exp| exp.deadline == tick)
    }

    /// Returns one entry whose deadline is at or before `now`, unlinked
    /// from the wheel, or `None` once there is none; advances `elapsed` to
    /// `now` on the way. A `now` before `elapsed` (a clock that went
    /// backwards) is treated as `elapsed`.
    pub(crate) fn poll(&mut self, now: u64) -> Option<NonNull<TimerEntry>> {
        let now = now.max(self.elapsed);
        loop {
            if let Some(entry) = self.expired.pop_back() {
                return Some(entry);
            }
            match self.next_expiration() {
                Some(exp) if exp.deadline <= now => {
                    self.process_expiration(exp);
                    self.elapsed = exp.deadline;
                }
                _ => {
                    self.elapsed = now;
                    return None;
                }
            }
        }
    }

    /// Takes the whole slot first, then sorts each entry: expired ones go to
    /// the expired list, the rest cascade to a finer level relative to the
    /// slot's deadline. Taking first matters for the top level, where a far
    /// deadline goes back into the very slot being processed.
    fn process_expiration(&mut self, exp: Expiration) {
        let mut entries = self.levels[exp.level].take_slot(exp.slot);
        while let Some(entry) = entries.pop_back() {
            // SAFETY: the entry was linked in this wheel, so it is live, and
            // the caller holds the shard lock that guards `when`.
            let when = unsafe { entry.as_ref().when() };
            if when <= exp.deadline {
                // A deadline moved later while the entry was linked left it
                // here: link it again at the tick of its exact deadline.
                // SAFETY: as above.
                let target = tick_of_exact(unsafe { entry.as_ref().exact() });
                if target > exp.deadline {
                    // SAFETY: as above.
                    unsafe { entry.as_ref().set_when(target) };
                    let level = level_for(exp.deadline, target);
                    self.levels[level].add(entry, target);
                    continue;
                }
                // SAFETY: as above.
                unsafe { entry.as_ref().set_when(IN_EXPIRED_LIST) };
                self.expired.push_front(entry);
            } else {
                let level = level_for(exp.deadline, when);
                self.levels[level].add(entry, when);
            }
        }
    }

    /// Moves `elapsed` up to `now` when nothing is due by then: what `poll`
    /// does when it finds nothing to fire. The driver skips shards with
    /// nothing due without locking them, so their `elapsed` lags until the
    /// next registration catches it up with this.
    pub(crate) fn advance_idle(&mut self, now: u64) {
        if now <= self.elapsed {
            return;
        }
        let nothing_due = match self.next_expiration_tick() {
            Some(tick) => tick > now,
            None => true,
        };
        if nothing_due {
            self.elapsed = now;
        }
    }

    /// Unlinks every entry, handing each to `f` (runtime shutdown).
    pub(crate) fn drain(&mut self, mut f: impl FnMut(NonNull<TimerEntry>)) {
        while let Some(entry) = self.expired.pop_back() {
            f(entry);
        }
        for level in self.levels.iter_mut() {
            for slot in 0..level::LEVEL_MULT {
                let mut entries = level.take_slot(slot);
                while let Some(entry) = entries.pop_back() {
                    f(entry);
                }
            }
        }
    }

    /// Whether no entry is linked.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.expired.is_empty() && self.levels.iter().all(Level::is_empty)
    }
}

#[cfg(all(test, not(loom)))]
mod tests;
