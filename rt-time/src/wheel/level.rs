//! One level of the wheel: 64 slot lists and a bitmap of the occupied ones.
//!
//! Level `n` has slots `64^n` ticks wide, so the whole level spans `64^(n+1)`
//! ticks. An entry's slot is the level's 6-bit digit of its deadline tick.

use super::{Expiration, NUM_LEVELS};
use crate::entry::TimerEntry;
use rt_core::util::linked_list::LinkedList;
use std::ptr::NonNull;

/// Slots per level.
pub(crate) const LEVEL_MULT: usize = 64;

pub(crate) struct Level {
    /// Which level this is (0 is the finest).
    level: usize,
    /// Bit `i` is set when `slots[i]` is not empty.
    occupied: u64,
    slots: [LinkedList<TimerEntry>; LEVEL_MULT],
}

/// Width of one slot of `level`, in ticks.
pub(crate) const fn slot_range(level: usize) -> u64 {
    (LEVEL_MULT as u64).pow(level as u32)
}

/// Span of the whole `level`, in ticks.
pub(crate) const fn level_range(level: usize) -> u64 {
    LEVEL_MULT as u64 * slot_range(level)
}

/// The slot of `level` that holds deadline `when`.
fn slot_for(when: u64, level: usize) -> usize {
    ((when >> (level * 6)) % LEVEL_MULT as u64) as usize
}

impl Level {
    pub(crate) fn new(level: usize) -> Level {
        Level {
            level,
            occupied: 0,
            slots: std::array::from_fn(|_| LinkedList::new()),
        }
    }

    /// The earliest slot boundary after `elapsed` at which an occupied slot
    /// of this level must be processed.
    pub(crate) fn next_expiration(&self, elapsed: u64) -> Option<Expiration> {
        if self.occupied == 0 {
            return None;
        }
        // Scan from the slot after the current one. The current slot itself
        // comes last: only the top level can hold entries there, and those
        // are a full rotation away (nearer ones would be on a lower level).
        let first = (slot_for(elapsed, self.level) + 1) % LEVEL_MULT;
        let distance = self.occupied.rotate_right(first as u32).trailing_zeros() as usize;
        let slot = (first + distance) % LEVEL_MULT;
        let level_start = elapsed & !(level_range(self.level) - 1);
        let mut deadline = level_start + slot as u64 * slot_range(self.level);
        if deadline <= elapsed {
            // Only the top level wraps: it holds deadlines beyond its span,
            // which come round again one full rotation later.
            debug_assert_eq!(self.level, NUM_LEVELS - 1, "lower levels never wrap");
            deadline = deadline.saturating_add(level_range(self.level));
        }
        Some(Expiration {
            level: self.level,
            slot,
            deadline,
        })
    }

    /// Links `entry`, whose deadline is `when`, into its slot.
    pub(crate) fn add(&mut self, entry: NonNull<TimerEntry>, when: u64) {
        let slot = slot_for(when, self.level);
        self.slots[slot].push_back(entry);
        self.occupied |= 1 << slot;
    }

    /// Unlinks `entry`, whose deadline is `when`, from its slot.
    ///
    /// # Safety
    ///
    /// `entry` is live and linked in this level's slot for `when`.
    pub(crate) unsafe fn remove(&mut self, entry: NonNull<TimerEntry>, when: u64) {
        let slot = slot_for(when, self.level);
        // SAFETY: forwarded from the caller.
        let removed = unsafe { self.slots[slot].remove(entry) };
        debug_assert!(
            removed.is_some(),
            "entry not in the slot its deadline names"
        );
        if self.slots[slot].is_empty() {
            self.occupied &= !(1 << slot);
        }
    }

    /// Calls `f` on every entry of `slot`, leaving them linked.
    pub(crate) fn for_each_in_slot(&self, slot: usize, f: impl FnMut(NonNull<TimerEntry>)) {
        self.slots[slot].for_each(f);
    }

    /// Empties `slot` and returns its entries.
    pub(crate) fn take_slot(&mut self, slot: usize) -> LinkedList<TimerEntry> {
        self.occupied &= !(1 << slot);
        std::mem::take(&mut self.slots[slot])
    }

    /// Whether no slot holds an entry.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.occupied == 0
    }
}
