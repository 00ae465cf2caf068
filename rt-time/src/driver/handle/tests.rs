//! Handle tests: sharding spreads threads, the published ticks stay at or
//! before every deadline, a deadline moved later is moved on when its old
//! place comes due, skipped shards catch up on registration, fired
//! entries are released to a lock-free drop, and eight threads registering,
//! resetting and cancelling entries while another fires them leave the
//! wheels consistent and empty.

use super::*;
use crate::entry::TimerEntry;
use std::sync::Barrier;

struct NoUnpark;

impl Unpark for NoUnpark {
    fn unpark(&self) {}
}

fn handle(shards: usize) -> Arc<Handle> {
    Arc::new(Handle::new(
        Arc::new(NoUnpark),
        std::time::Instant::now(),
        false,
        shards,
    ))
}

#[test]
fn threads_spread_over_shards() {
    let handle = handle(8);
    let shards: std::collections::HashSet<usize> = (0..8)
        .map(|_| {
            let handle = handle.clone();
            std::thread::spawn(move || handle.shard_for_this_thread())
                .join()
                .unwrap()
        })
        .collect();
    assert!(shards.len() > 1, "every thread got the same shard");
}

#[test]
fn deadline_ticks_round_up_and_saturate() {
    let handle = handle(1);
    let start = handle.start;
    assert_eq!(handle.deadline_to_tick(start), 0);
    assert_eq!(handle.deadline_to_tick(start - Duration::from_secs(1)), 0);
    assert_eq!(handle.deadline_to_tick(start + Duration::from_micros(1)), 1);
    assert_eq!(handle.deadline_to_tick(start + Duration::from_millis(7)), 7);
    // Further than `u64::MAX` nanoseconds, where the platform allows it:
    // the exact deadline saturates, and the tick is that of the saturated
    // deadline, within `MAX_TICK` (no clock reaches either).
    if let Some(far) = start.checked_add(Duration::from_secs(u64::MAX / 2_000)) {
        let (tick, exact) = handle.deadline_to_tick_and_exact(far);
        assert_eq!(exact, u64::MAX);
        assert_eq!(tick, u64::MAX.div_ceil(NANOS_PER_TICK));
        assert!(tick <= MAX_TICK);
        assert_eq!(handle.deadline_to_tick(far), tick);
    }
}

#[test]
fn eight_threads_register_reset_cancel_while_firing() {
    const THREADS: usize = 8;
    // Under Miri, 30 rounds still interleave every operation with firing.
    const ROUNDS: u64 = if cfg!(miri) { 30 } else { 300 };
    let handle = handle(THREADS);
    let start = Arc::new(Barrier::new(THREADS + 1));
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let driver = {
        let handle = handle.clone();
        let done = done.clone();
        let start = start.clone();
        std::thread::spawn(move || {
            start.wait();
            let mut now = 0;
            while !done.load(std::sync::atomic::Ordering::Acquire) {
                now += 1;
                handle.process_at(now);
                std::thread::yield_now();
            }
            now
        })
    };
    let workers: Vec<_> = (0..THREADS)
        .map(|_| {
            let handle = handle.clone();
            let start = start.clone();
            std::thread::spawn(move || {
                let shard = handle.shard_for_this_thread();
                let entries: Vec<_> = (0..16).map(|_| Box::pin(TimerEntry::new())).collect();
                start.wait();
                for round in 0..ROUNDS {
                    for (i, entry) in entries.iter().enumerate() {
                        let ptr = NonNull::from(&**entry);
                        let tick = round + i as u64 % 7;
                        // SAFETY: the entry is pinned in its box, used by
                        // this thread only, always with `shard`, and
                        // deregistered before the box drops.
                        unsafe {
                            match (round + i as u64) % 3 {
                                0 => handle.reregister(shard, ptr, tick),
                                1 => handle.reregister(shard, ptr, tick + 3),
                                _ => handle.deregister(shard, ptr),
                            }
                        }
                    }
                }
                for entry in &entries {
                    // SAFETY: as above.
                    unsafe { handle.deregister(shard, NonNull::from(&**entry)) };
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    done.store(true, std::sync::atomic::Ordering::Release);
    driver.join().unwrap();
    assert!(handle.is_empty());
}

/// Registers the pinned `entry` in `shard` at `tick`.
fn register(handle: &Handle, shard: usize, entry: &std::pin::Pin<Box<TimerEntry>>, tick: u64) {
    // SAFETY: the entry is pinned in its box, used by one thread, always
    // with `shard`, and the test deregisters or fires it before it drops.
    unsafe { handle.reregister(shard, NonNull::from(&**entry), tick) };
}

/// The earliest tick the driver's lock-free scan finds.
fn scan(handle: &Handle) -> Option<u64> {
    let next = handle.begin_park();
    handle.end_park();
    next
}

#[test]
fn published_ticks_stay_at_or_before_every_deadline() {
    let handle = handle(2);
    let a = Box::pin(TimerEntry::new());
    let b = Box::pin(TimerEntry::new());
    assert_eq!(scan(&handle), None);
    register(&handle, 1, &a, 20);
    assert_eq!(scan(&handle), Some(20));
    register(&handle, 1, &a, 10);
    assert_eq!(scan(&handle), Some(10));
    register(&handle, 1, &a, 15);
    assert_eq!(scan(&handle), Some(10), "a later reset keeps the tick");
    register(&handle, 1, &a, 10);
    register(&handle, 0, &b, 30);
    assert_eq!(scan(&handle), Some(10));
    // SAFETY: as in `register`.
    unsafe { handle.deregister(1, NonNull::from(&*a)) };
    assert_eq!(scan(&handle), Some(10), "a cancel leaves the tick");
    // The turn at 10 finds nothing due and publishes the exact tick.
    handle.process_at(10);
    assert_eq!(scan(&handle), Some(30));
    register(&handle, 1, &a, 40);
    handle.process_at(30);
    assert_eq!(b.state(), FIRED);
    assert_eq!(a.state(), REGISTERED);
    assert_eq!(scan(&handle), Some(40));
    handle.process_at(40);
    assert_eq!(a.state(), FIRED);
    assert_eq!(scan(&handle), None);
    assert!(handle.is_empty());
}

#[test]
fn a_deadline_moved_later_keeps_its_place_until_it_comes_due() {
    let handle = handle(1);
    let near = Box::pin(TimerEntry::new());
    let far = Box::pin(TimerEntry::new());
    let earlier = Box::pin(TimerEntry::new());
    register(&handle, 0, &near, 10);
    register(&handle, 0, &near, 25);
    // Not relinked: the driver still wakes at the old place...
    assert_eq!(scan(&handle), Some(10));
    handle.process_at(10);
    // ...where the entry moves on instead of firing.
    assert_eq!(near.state(), REGISTERED, "fired at its old deadline");
    assert_eq!(scan(&handle), Some(25));
    handle.process_at(24);
    assert_eq!(near.state(), REGISTERED, "fired early");
    handle.process_at(25);
    assert_eq!(near.state(), FIRED);
    // Moved from level 0 to a far level, through the cascade.
    register(&handle, 0, &far, 30);
    register(&handle, 0, &far, 100_000);
    handle.process_at(30);
    assert_eq!(far.state(), REGISTERED);
    handle.process_at(99_999);
    assert_eq!(far.state(), REGISTERED, "fired early");
    handle.process_at(100_000);
    assert_eq!(far.state(), FIRED);
    // A deadline moved earlier is relinked at once.
    register(&handle, 0, &earlier, 100_050);
    register(&handle, 0, &earlier, 100_020);
    assert_eq!(scan(&handle), Some(100_020));
    handle.process_at(100_020);
    assert_eq!(earlier.state(), FIRED);
    assert!(handle.is_empty());
}

#[test]
fn a_shard_skipped_by_a_turn_catches_up_on_registration() {
    let handle = handle(2);
    let far = Box::pin(TimerEntry::new());
    let late = Box::pin(TimerEntry::new());
    let past = Box::pin(TimerEntry::new());
    register(&handle, 1, &far, 100);
    // Neither shard has anything due at 50: the turn locks neither.
    handle.process_at(50);
    assert_eq!(far.state(), REGISTERED);
    // Deadlines the driver already passed fire at registration, in an
    // empty shard and in one holding a later timer alike.
    register(&handle, 0, &past, 40);
    assert_eq!(past.state(), FIRED);
    register(&handle, 1, &late, 45);
    assert_eq!(late.state(), FIRED);
    handle.process_at(99);
    assert_eq!(far.state(), REGISTERED, "fired early");
    handle.process_at(100);
    assert_eq!(far.state(), FIRED);
    assert!(handle.is_empty());
}

#[test]
fn only_entries_the_driver_released_skip_the_lock_on_drop() {
    let handle = handle(1);
    let entry = Box::pin(TimerEntry::new());
    assert!(!entry.needs_deregister(), "a new entry is in no wheel");
    register(&handle, 0, &entry, 10);
    assert!(entry.needs_deregister());
    handle.process_at(10);
    assert_eq!(entry.state(), FIRED);
    assert!(!entry.needs_deregister(), "a fired entry is released");
    // A reset after firing links it again.
    register(&handle, 0, &entry, 20);
    assert_eq!(entry.state(), REGISTERED);
    assert!(entry.needs_deregister());
    handle.shutdown();
    assert_eq!(entry.state(), SHUTDOWN);
    assert!(!entry.needs_deregister(), "a shut-down entry is released");
    assert!(handle.is_empty());
}

#[test]
fn exact_deadlines_fire_once_passed_and_never_before() {
    let start = std::time::Instant::now();
    let handle = Arc::new(Handle::new(Arc::new(NoUnpark), start, true, 2));
    let at = |micros: u64| start + Duration::from_micros(micros);
    let early = Box::pin(TimerEntry::new());
    let late = Box::pin(TimerEntry::new());
    let other = Box::pin(TimerEntry::new());
    let register_at = |shard: usize, entry: &std::pin::Pin<Box<TimerEntry>>, micros: u64| {
        let deadline = at(micros);
        let (tick, exact) = handle.deadline_to_tick_and_exact(deadline);
        // SAFETY: as in `register`.
        unsafe { handle.reregister_exact(shard, NonNull::from(&**entry), tick, exact) };
    };
    // Both in tick 2 of shard 0; the other shard's timer is in tick 3.
    register_at(0, &early, 1_300);
    register_at(0, &late, 1_800);
    register_at(1, &other, 2_100);
    assert_eq!(scan(&handle), Some(2));
    assert_eq!(handle.wake_instant(2), Some(at(1_300)));
    handle.clock().advance_to(at(1_299));
    handle.process();
    handle.process_early();
    assert_eq!(early.state(), REGISTERED, "fired before its deadline");
    handle.clock().advance_to(at(1_300));
    handle.process();
    assert_eq!(early.state(), REGISTERED, "a tick turn fires whole ticks");
    handle.process_early();
    assert_eq!(early.state(), FIRED);
    assert_eq!(late.state(), REGISTERED, "fired before its deadline");
    assert_eq!(handle.wake_instant(2), Some(at(1_800)));
    handle.clock().advance_to(at(1_900));
    handle.process_early();
    assert_eq!(late.state(), FIRED);
    // Shard 1 publishes tick 3, which is not the next tick at 1.9 ms.
    assert_eq!(other.state(), REGISTERED);
    assert_eq!(scan(&handle), Some(3));
    // A timer registered by tick alone wakes the driver at its tick.
    register(&handle, 1, &other, 3);
    assert_eq!(handle.wake_instant(3), Some(at(3_000)));
    handle.clock().advance_to(at(2_999));
    handle.process_early();
    assert_eq!(other.state(), REGISTERED, "fired before its tick");
    handle.clock().advance_to(at(3_000));
    handle.process();
    assert_eq!(other.state(), FIRED);
    assert!(handle.is_empty());
}
