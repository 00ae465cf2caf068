//! Wheel tests: level selection at the boundaries, catching up an idle
//! wheel, and a property test that runs random insert / cancel / reset /
//! move-later / advance sequences against a sorted model and requires the
//! same firings at the same times.

use super::*;
use crate::entry::{TimerEntry, NANOS_PER_TICK};
use rt_core::util::rng::FastRand;
use std::collections::BTreeSet;
use std::pin::Pin;

#[test]
fn level_for_boundaries() {
    assert_eq!(level_for(0, 1), 0);
    assert_eq!(level_for(0, 63), 0);
    assert_eq!(level_for(0, 64), 1);
    assert_eq!(level_for(0, 100), 1);
    assert_eq!(level_for(0, 4095), 1);
    assert_eq!(level_for(0, 4096), 2);
    assert_eq!(
        level_for(60, 70),
        1,
        "crossing a level-0 span needs level 1"
    );
    assert_eq!(level_for(64, 127), 0);
    assert_eq!(level_for(0, MAX_DURATION - 1), NUM_LEVELS - 1);
    assert_eq!(level_for(0, MAX_DURATION), NUM_LEVELS - 1);
    assert_eq!(level_for(0, u64::MAX >> 2), NUM_LEVELS - 1);
}

/// Entries boxed and pinned for the whole test; the wheel links them.
struct Entries {
    entries: Vec<Pin<Box<TimerEntry>>>,
    linked: Vec<bool>,
}

impl Entries {
    fn new(n: usize) -> Entries {
        Entries {
            entries: (0..n).map(|_| Box::pin(TimerEntry::new())).collect(),
            linked: vec![false; n],
        }
    }

    fn ptr(&self, id: usize) -> NonNull<TimerEntry> {
        NonNull::from(&*self.entries[id])
    }

    fn id_of(&self, ptr: NonNull<TimerEntry>) -> usize {
        self.entries
            .iter()
            .position(|e| NonNull::from(&**e) == ptr)
            .expect("unknown entry")
    }

    /// Inserts `id` at `when`, with an exact deadline at that tick's end;
    /// `false` when it was due at once.
    fn insert(&mut self, wheel: &mut Wheel, id: usize, when: u64) -> bool {
        assert!(!self.linked[id]);
        // SAFETY: single-threaded test: no lock needed; the entry is pinned
        // in its box and in no list.
        let linked = unsafe {
            self.entries[id].set_when(when);
            self.entries[id].set_exact(when.saturating_mul(NANOS_PER_TICK));
            wheel.insert(self.ptr(id)).is_ok()
        };
        self.linked[id] = linked;
        linked
    }

    fn remove(&mut self, wheel: &mut Wheel, id: usize) {
        assert!(self.linked[id]);
        // SAFETY: the entry is linked in `wheel`.
        unsafe { wheel.remove(self.ptr(id)) };
        self.linked[id] = false;
    }

    /// Polls the wheel at `now`; the ids that expired, in order.
    fn poll(&mut self, wheel: &mut Wheel, now: u64) -> Vec<usize> {
        let mut fired = Vec::new();
        while let Some(ptr) = wheel.poll(now) {
            let id = self.id_of(ptr);
            self.linked[id] = false;
            fired.push(id);
        }
        fired
    }
}

#[test]
fn cascades_from_level_one_to_expiry() {
    let mut wheel = Wheel::new();
    let mut entries = Entries::new(1);
    assert!(entries.insert(&mut wheel, 0, 100));
    assert_eq!(wheel.next_expiration_tick(), Some(64), "level-1 slot start");
    assert!(entries.poll(&mut wheel, 99).is_empty());
    assert_eq!(wheel.next_expiration_tick(), Some(100));
    assert_eq!(entries.poll(&mut wheel, 100), [0]);
    assert!(wheel.is_empty());
}

#[test]
fn due_or_past_deadline_is_rejected() {
    let mut wheel = Wheel::new();
    let mut entries = Entries::new(2);
    assert!(entries.poll(&mut wheel, 10).is_empty());
    assert!(!entries.insert(&mut wheel, 0, 10));
    assert!(!entries.insert(&mut wheel, 1, 3));
    assert!(wheel.is_empty());
}

#[test]
fn advance_idle_moves_only_past_nothing_due() {
    let mut wheel = Wheel::new();
    let mut entries = Entries::new(3);
    wheel.advance_idle(30);
    assert_eq!(wheel.elapsed(), 30, "an empty wheel catches up");
    assert!(entries.insert(&mut wheel, 0, 200));
    // The entry's level-1 slot starts at 192: up to 191 nothing is due.
    wheel.advance_idle(191);
    assert_eq!(wheel.elapsed(), 191);
    assert!(
        !entries.insert(&mut wheel, 1, 150),
        "passed deadlines are due"
    );
    wheel.advance_idle(195);
    assert_eq!(wheel.elapsed(), 191, "a due slot needs a poll");
    wheel.advance_idle(10);
    assert_eq!(wheel.elapsed(), 191, "never backwards");
    assert!(entries.poll(&mut wheel, 199).is_empty());
    assert_eq!(entries.poll(&mut wheel, 200), [0]);
    assert!(entries.insert(&mut wheel, 2, 201));
    assert_eq!(entries.poll(&mut wheel, 201), [2]);
}

#[test]
fn clock_going_backwards_fires_nothing_early() {
    let mut wheel = Wheel::new();
    let mut entries = Entries::new(1);
    entries.poll(&mut wheel, 500);
    assert!(entries.insert(&mut wheel, 0, 510));
    assert!(
        entries.poll(&mut wheel, 200).is_empty(),
        "backwards: no fire"
    );
    assert_eq!(wheel.elapsed(), 500);
    assert!(entries.poll(&mut wheel, 509).is_empty());
    assert_eq!(entries.poll(&mut wheel, 510), [0]);
}

#[test]
fn deadlines_beyond_the_wheel_wait_whole_rotations() {
    let mut wheel = Wheel::new();
    let mut entries = Entries::new(2);
    let far = 3 * MAX_DURATION + 12_345;
    assert!(entries.insert(&mut wheel, 0, far));
    assert!(entries.insert(&mut wheel, 1, u64::MAX >> 2));
    let mut now = 0;
    // Step through the rotations by the wheel's own expirations.
    while let Some(next) = wheel.next_expiration_tick() {
        if next > far {
            break;
        }
        now = next;
        let fired = entries.poll(&mut wheel, now);
        if now < far {
            assert!(fired.is_empty(), "fired early at {now}");
        } else {
            assert_eq!(fired, [0]);
        }
    }
    assert_eq!(now, far);
    entries.remove(&mut wheel, 1);
    assert!(wheel.is_empty());
}

#[test]
fn a_wrapped_top_level_slot_does_not_hide_later_slots() {
    // Top-level slots are 2^30 ticks wide. `far` is in slot 2 of the next
    // rotation, `near` in slot 5 of this one. Once slot 2 of this rotation
    // is processed, `far` goes back into the current slot; the scan must
    // still find slot 5 first.
    const SLOT: u64 = 1 << 30;
    let mut wheel = Wheel::new();
    let mut entries = Entries::new(2);
    let far = MAX_DURATION + 2 * SLOT + 7;
    let near = 5 * SLOT + 3;
    assert!(entries.insert(&mut wheel, 0, far));
    assert!(entries.insert(&mut wheel, 1, near));
    assert!(entries.poll(&mut wheel, 2 * SLOT).is_empty());
    assert_eq!(wheel.next_expiration_tick(), Some(5 * SLOT));
    assert_eq!(entries.poll(&mut wheel, near), [1]);
    assert!(entries.poll(&mut wheel, far - 1).is_empty());
    assert_eq!(entries.poll(&mut wheel, far), [0]);
}

#[test]
fn expired_entries_can_be_cancelled_before_firing() {
    let mut wheel = Wheel::new();
    let mut entries = Entries::new(3);
    for id in 0..3 {
        assert!(entries.insert(&mut wheel, id, 5));
    }
    // Take one: the other two now sit in the expired list.
    let first = wheel.poll(5).expect("due");
    let first = entries.id_of(first);
    entries.linked[first] = false;
    let other = (0..3).find(|&id| id != first).unwrap();
    entries.remove(&mut wheel, other);
    let rest = entries.poll(&mut wheel, 5);
    assert_eq!(rest.len(), 1);
    assert!(rest[0] != first && rest[0] != other);
    assert!(wheel.is_empty());
}

/// A deadline spread over every level, sometimes past the wheel's span,
/// sometimes already due.
fn random_deadline(rng: &mut FastRand, now: u64) -> u64 {
    let span = match rng.fastrand_n(8) {
        0 => 2,
        1 => 64,
        2 => 4_096,
        3 => 262_144,
        4 => 1 << 24,
        5 => 1 << 30,
        6 => 1 << 37,
        _ => 200,
    };
    let offset = (rng.fastrand() as u64 | ((rng.fastrand() as u64) << 32)) % span;
    // Occasionally a deadline in the past.
    if rng.fastrand_n(20) == 0 {
        now.saturating_sub(offset % 50)
    } else {
        now + offset
    }
}

fn random_step(rng: &mut FastRand) -> u64 {
    match rng.fastrand_n(10) {
        0 => rng.fastrand_n(1 << 20) as u64,
        1 => 1 << 33,
        2 => 0,
        _ => rng.fastrand_n(300) as u64,
    }
}

/// One random run: the wheel against a sorted set of (deadline, id).
fn run_against_model(seed: u64, ops: usize) {
    const N: usize = 48;
    let mut rng = FastRand::from_seed(seed);
    let mut wheel = Wheel::new();
    let mut entries = Entries::new(N);
    let mut model: BTreeSet<(u64, usize)> = BTreeSet::new();
    let mut deadline = [0u64; N];
    let mut now = 0u64;
    for op in 0..ops {
        let id = rng.fastrand_n(N as u32) as usize;
        match rng.fastrand_n(10) {
            // Insert (or reset: cancel then insert again).
            0..=3 => {
                if entries.linked[id] {
                    entries.remove(&mut wheel, id);
                    assert!(model.remove(&(deadline[id], id)));
                }
                let when = random_deadline(&mut rng, now);
                deadline[id] = when;
                if entries.insert(&mut wheel, id, when) {
                    model.insert((when, id));
                } else {
                    assert!(
                        when <= now,
                        "seed {seed} op {op}: refused a future deadline"
                    );
                }
            }
            // Cancel.
            4..=5 => {
                if entries.linked[id] {
                    entries.remove(&mut wheel, id);
                    assert!(model.remove(&(deadline[id], id)));
                }
            }
            // Move a linked deadline later in place, as the driver does
            // on a reset: only the exact deadline changes.
            6 => {
                if entries.linked[id] {
                    let later = deadline[id] + random_step(&mut rng);
                    assert!(model.remove(&(deadline[id], id)));
                    model.insert((later, id));
                    deadline[id] = later;
                    // SAFETY: single-threaded test; the entry is linked.
                    unsafe { entries.entries[id].set_exact(later.saturating_mul(NANOS_PER_TICK)) };
                }
            }
            // Advance and compare.
            _ => {
                now += random_step(&mut rng);
                let fired = entries.poll(&mut wheel, now);
                let expected: Vec<(u64, usize)> = model
                    .iter()
                    .take_while(|(w, _)| *w <= now)
                    .copied()
                    .collect();
                for e in &expected {
                    model.remove(e);
                }
                let got: Vec<(u64, usize)> = fired.iter().map(|&i| (deadline[i], i)).collect();
                assert!(
                    got.windows(2).all(|w| w[0].0 <= w[1].0),
                    "seed {seed} op {op}: out of deadline order: {got:?}"
                );
                let mut got_sorted = got.clone();
                got_sorted.sort_unstable();
                assert_eq!(got_sorted, expected, "seed {seed} op {op} at {now}");
                // Nothing still linked may be due.
                assert!(!matches!(wheel.next_expiration_tick(), Some(t) if t <= now));
            }
        }
    }
    // Drain at the end of time: everything left fires, in order.
    let rest = entries.poll(&mut wheel, u64::MAX >> 2);
    let expected: Vec<usize> = model.iter().map(|&(_, id)| id).collect();
    let got_deadlines: Vec<u64> = rest.iter().map(|&i| deadline[i]).collect();
    assert!(
        got_deadlines.windows(2).all(|w| w[0] <= w[1]),
        "seed {seed}: drain order {got_deadlines:?} from {now}"
    );
    let mut got = rest.clone();
    got.sort_unstable();
    let mut expected_sorted = expected;
    expected_sorted.sort_unstable();
    assert_eq!(got, expected_sorted, "seed {seed}: final drain");
    assert!(wheel.is_empty());
}

#[test]
fn random_operations_match_sorted_model() {
    // A few seeds under Miri, which interprets every operation.
    let seeds = if cfg!(miri) { 3 } else { 300 };
    for seed in 0..seeds {
        run_against_model(seed, 400);
    }
}
