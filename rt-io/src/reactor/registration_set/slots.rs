//! `Slots`: the registration set's storage, slots that never move, each
//! holding one registration's state or nothing, readable without a lock.
//!
//! Slots live in segments: segment `k` holds `FIRST_SEGMENT << k` slots,
//! so slot `i` sits in the segment that `i + FIRST_SEGMENT`'s highest bit
//! picks, and the table grows by allocating the next segment, never by
//! moving the slots it has. A reader therefore finds a slot by two loads
//! (the segment's pointer, then the slot) and may keep a reference to it
//! for as long as it holds the table.
//!
//! A slot owns one strong count of its state's `Arc`, kept as the raw
//! pointer `Arc::into_raw` gave, so that a reader can use the state
//! through a plain reference. Taking the state out of a slot hands that
//! count back to the caller, who must not drop it while a reader that
//! loaded the pointer may still use it: the registration set retires it
//! through the epoch collector.

use super::super::scheduled_io::ScheduledIo;
use rt_core::loom::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::ptr;
use std::sync::Arc;

/// Slots in the first segment (a power of two).
const FIRST_SEGMENT_BITS: u32 = 6;
const FIRST_SEGMENT: usize = 1 << FIRST_SEGMENT_BITS;

/// Segments enough for every index below `2^index_bits`.
const fn segments_for(index_bits: u32) -> usize {
    (index_bits - FIRST_SEGMENT_BITS + 1) as usize
}

const SEGMENTS: usize = segments_for(super::INDEX_BITS);

/// One registration's place in the table.
#[derive(Debug)]
pub(super) struct Slot {
    /// The generation of the registration the slot holds, or of the next
    /// one it will hold. Written only under the set's lock.
    pub(super) generation: AtomicUsize,
    /// The state, from `Arc::into_raw`, or null when the slot is empty.
    io: AtomicPtr<ScheduledIo>,
}

impl Slot {
    fn new() -> Slot {
        Slot {
            generation: AtomicUsize::new(0),
            io: AtomicPtr::new(ptr::null_mut()),
        }
    }

    /// Puts `io` in the empty slot; readers that load it afterwards see
    /// everything written before (the generation included).
    pub(super) fn fill(&self, io: Arc<ScheduledIo>) {
        let old = self.io.swap(Arc::into_raw(io).cast_mut(), Ordering::AcqRel);
        debug_assert!(old.is_null(), "filled a slot that was not empty");
    }

    /// Empties the slot, handing its count of the state to the caller.
    pub(super) fn take(&self) -> Option<Arc<ScheduledIo>> {
        let io = self.io.swap(ptr::null_mut(), Ordering::AcqRel);
        if io.is_null() {
            return None;
        }
        // SAFETY: a non-null pointer in a slot came from `Arc::into_raw` in
        // `fill` and carries the slot's strong count; the swap took it out,
        // so this is the only place that turns it back into an `Arc`.
        Some(unsafe { Arc::from_raw(io) })
    }

    /// The state in the slot, if any. The caller keeps it alive while it
    /// uses the reference: the set pins the epoch for as long as the
    /// reference lives (see `RegistrationSet::get`).
    pub(super) fn load(&self) -> *const ScheduledIo {
        self.io.load(Ordering::Acquire)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        drop(self.take());
    }
}

/// The table of slots.
#[derive(Debug)]
pub(super) struct Slots {
    /// Each segment's first slot, null until the segment is allocated.
    segments: [AtomicPtr<Slot>; SEGMENTS],
}

/// The segment that holds slot `index` and the slot's offset in it.
fn locate(index: usize) -> (usize, usize) {
    let shifted = index + FIRST_SEGMENT;
    let top = usize::BITS - 1 - shifted.leading_zeros();
    ((top - FIRST_SEGMENT_BITS) as usize, shifted - (1 << top))
}

fn segment_len(segment: usize) -> usize {
    FIRST_SEGMENT << segment
}

impl Slots {
    /// A table with no segment allocated.
    pub(super) fn new() -> Slots {
        Slots {
            segments: std::array::from_fn(|_| AtomicPtr::new(ptr::null_mut())),
        }
    }

    /// Slot `index`, if its segment exists. Lock-free.
    pub(super) fn get(&self, index: usize) -> Option<&Slot> {
        let (segment, offset) = locate(index);
        let first = self.segments.get(segment)?.load(Ordering::Acquire);
        if first.is_null() {
            return None;
        }
        // SAFETY: a non-null segment pointer is the start of a boxed slice
        // of `segment_len(segment)` slots, published with `Release` after
        // the slots were written and freed only when the table drops
        // (which needs `&mut self`); `offset` is below that length.
        Some(unsafe { &*first.add(offset) })
    }

    /// Slot `index`, allocating its segment if need be. Only one thread at
    /// a time may call this (the set calls it under its lock).
    pub(super) fn get_or_grow(&self, index: usize) -> &Slot {
        if let Some(slot) = self.get(index) {
            return slot;
        }
        let (segment, _) = locate(index);
        let slots: Box<[Slot]> = (0..segment_len(segment)).map(|_| Slot::new()).collect();
        let first = Box::into_raw(slots).cast::<Slot>();
        self.segments[segment].store(first, Ordering::Release);
        self.get(index).expect("the segment was just published")
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        for (segment, first) in self.segments.iter().enumerate() {
            let first = first.load(Ordering::Relaxed);
            if first.is_null() {
                continue;
            }
            let slots = ptr::slice_from_raw_parts_mut(first, segment_len(segment));
            // SAFETY: `first` came from `Box::into_raw` of a boxed slice of
            // exactly this length in `get_or_grow`, and `&mut self` means
            // no reader holds a slot any more.
            drop(unsafe { Box::from_raw(slots) });
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn segments_tile_the_indices_without_gaps() {
        let mut expected = (0, 0);
        for index in 0..(FIRST_SEGMENT << 4) {
            assert_eq!(locate(index), expected, "index {index}");
            expected.1 += 1;
            if expected.1 == segment_len(expected.0) {
                expected = (expected.0 + 1, 0);
            }
        }
        let last = (1usize << super::super::INDEX_BITS) - 2;
        assert!(locate(last).0 < SEGMENTS);
        assert!(locate(last).1 < segment_len(locate(last).0));
    }

    #[test]
    fn slots_keep_their_place_as_the_table_grows() {
        let slots = Slots::new();
        assert!(slots.get(0).is_none());
        let first: *const Slot = slots.get_or_grow(0);
        slots.get_or_grow(FIRST_SEGMENT * 3);
        assert!(ptr::eq(first, slots.get(0).unwrap()));
        assert!(slots.get(FIRST_SEGMENT * 7).is_none());
        let io = Arc::new(ScheduledIo::new());
        slots.get(1).unwrap().fill(io.clone());
        assert_eq!(Arc::strong_count(&io), 2);
        drop(slots);
        assert_eq!(
            Arc::strong_count(&io),
            1,
            "dropping the table drops its counts"
        );
    }
}
