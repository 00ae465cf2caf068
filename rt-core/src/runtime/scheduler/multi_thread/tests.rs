//! Tests of the multi-thread scheduler that need its private parts: a
//! worker thread that the OS refuses to start, and the idle bookkeeping of
//! a runtime with one worker.

use super::worker::FAIL_NEXT_SPAWN;
use crate::runtime::{scheduler, Builder};
use std::sync::mpsc;
use std::time::Duration;

/// A generous bound: the body takes milliseconds, a lost core hangs.
const DEADLINE: Duration = Duration::from_secs(60);

/// When `block_in_place` cannot start the thread that would take over its
/// worker, the caller's task fails, and the worker's other tasks still run
/// (on the thread that keeps the core). The core used to be dropped with
/// the thread's closure: its tasks were lost and dropping the runtime
/// waited forever for the core to come back.
#[test]
fn block_in_place_keeps_the_worker_when_its_thread_cannot_start() {
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let rt = Builder::new_multi_thread()
            .worker_threads(1)
            .build()
            .unwrap();
        let out = rt.block_on(async {
            let failed = crate::spawn(async {
                FAIL_NEXT_SPAWN.with(|fail| fail.set(true));
                crate::task::block_in_place(|| ());
            });
            let err = failed.await.unwrap_err();
            assert!(err.is_panic());
            crate::spawn(async { 6 }).await.unwrap()
        });
        drop(rt);
        done_tx.send(out).unwrap();
    });
    let out = done_rx
        .recv_timeout(DEADLINE)
        .expect("the worker's core was lost when its thread could not start");
    assert_eq!(out, 6);
}

/// A lone worker has nobody to steal from and so never counts itself as
/// searching; tasks pushed from outside while it sleeps must still wake it,
/// every time, and the searching count must come back to zero.
#[test]
fn a_lone_worker_wakes_for_every_remote_spawn_without_searching() {
    let rt = Builder::new_multi_thread()
        .worker_threads(1)
        .build()
        .unwrap();
    let scheduler::Handle::MultiThread(handle) = &rt.handle().inner else {
        unreachable!("a multi-thread runtime")
    };
    let (tx, rx) = mpsc::channel();
    for round in 0..500 {
        let tx = tx.clone();
        rt.spawn(async move { tx.send(round).unwrap() });
        let got = rx
            .recv_timeout(DEADLINE)
            .expect("a task spawned from outside never ran");
        assert_eq!(got, round);
    }
    // Wait until the worker parked again (it is on the sleeper list), then
    // check that it left no searching count behind.
    let waited = std::time::Instant::now();
    while !handle.shared.idle.is_parked(0) {
        assert!(waited.elapsed() < DEADLINE, "the worker never parked");
        std::thread::yield_now();
    }
    assert_eq!(handle.shared.idle.num_searching(), 0);
}
