//! Handle tests: sharding spreads threads, and eight threads registering,
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
    // Further than `MAX_TICK` milliseconds, where the platform allows it.
    if let Some(far) = start.checked_add(Duration::from_secs(u64::MAX / 2_000)) {
        assert_eq!(handle.deadline_to_tick(far), MAX_TICK);
    }
}

#[test]
fn eight_threads_register_reset_cancel_while_firing() {
    const THREADS: usize = 8;
    const ROUNDS: u64 = 300;
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
