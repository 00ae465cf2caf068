//! A seed fixes every random choice, so a current-thread run replays byte
//! for byte; `Handle::rng_seed` reports the seed to replay.

use rt_core::runtime::{Builder, RngSeed};
use rt_core::task;
use rt_core::util::rng::thread_rng_n;
use std::sync::{Arc, Mutex};

/// Runs tasks that make `select!`-like random choices (which branch, and
/// whether to yield) and records the order of their steps.
fn trace(seed: Option<RngSeed>) -> (RngSeed, Vec<(usize, u32)>) {
    let mut builder = Builder::new_current_thread();
    if let Some(seed) = seed {
        builder.rng_seed(seed);
    }
    let rt = builder.build().unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    rt.block_on(async {
        let mut handles = Vec::new();
        for t in 0..4 {
            let log = log.clone();
            handles.push(rt_core::spawn(async move {
                for _ in 0..20 {
                    let branch = thread_rng_n(4);
                    log.lock().unwrap().push((t, branch));
                    for _ in 0..branch {
                        task::yield_now().await;
                    }
                }
            }));
        }
        for handle in handles {
            handle.await.unwrap();
        }
    });
    let seed = rt.handle().rng_seed();
    let log = log.lock().unwrap().clone();
    (seed, log)
}

#[test]
fn same_seed_same_interleaving() {
    let (seed_a, a) = trace(Some(RngSeed::from_u64(42)));
    let (seed_b, b) = trace(Some(RngSeed::from_u64(42)));
    assert_eq!(seed_a, RngSeed::from_u64(42));
    assert_eq!(seed_a, seed_b);
    assert_eq!(a.len(), 80);
    assert_eq!(a, b);
}

#[test]
fn another_seed_changes_the_interleaving() {
    let (_, a) = trace(Some(RngSeed::from_u64(1)));
    let (_, b) = trace(Some(RngSeed::from_u64(2)));
    assert_ne!(a, b);
}

#[test]
fn a_picked_seed_is_reported_and_replays() {
    let (picked, first) = trace(None);
    let (_, replay) = trace(Some(picked));
    assert_eq!(first, replay);
}

#[test]
fn multi_thread_reports_its_seed() {
    let rt = Builder::new_multi_thread()
        .worker_threads(2)
        .rng_seed(RngSeed::from_u64(9))
        .build()
        .unwrap();
    assert_eq!(rt.handle().rng_seed().as_u64(), 9);
}
