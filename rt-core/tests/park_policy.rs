//! The parking policy seen from the driver: a worker with nothing to do
//! blocks without a deadline, even while another worker is stuck in a long
//! poll, as long as no task waits in that worker's LIFO slot.

#![cfg(feature = "rt-multi-thread")]

use rt_core::runtime::Builder;
use rt_test::ObservedPark;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long the test waits for events that take milliseconds.
const DEADLINE: Duration = Duration::from_secs(30);

#[test]
fn a_stuck_worker_with_an_empty_lifo_slot_leaves_the_driver_holder_asleep() {
    let (parks_tx, parks) = mpsc::channel();
    let mark = Arc::new(AtomicBool::new(false));
    let driver_mark = mark.clone();
    let rt = Builder::new_multi_thread()
        .worker_threads(2)
        .base_driver(move |_| {
            // Every park that may block, and whether it began after `mark`
            // was raised.
            let parks = Mutex::new(parks_tx);
            Ok(Box::new(ObservedPark::new(move |timeout| {
                if timeout != Some(Duration::ZERO) {
                    let after_mark = driver_mark.load(Ordering::SeqCst);
                    let _ = parks.lock().unwrap().send((after_mark, timeout));
                }
            })))
        })
        .build()
        .unwrap();
    let (started_tx, started) = mpsc::channel();
    let (release, released) = mpsc::channel::<()>();
    let stuck = rt.spawn(async move {
        started_tx.send(()).unwrap();
        // Blocks this worker without yielding, like a long poll; its LIFO
        // slot stays empty.
        released.recv_timeout(DEADLINE).expect("released");
    });
    started
        .recv_timeout(DEADLINE)
        .expect("the stuck task started");
    // Wake the other worker with a task of its own, so that it parks again
    // while the first is stuck.
    rt.spawn(async move { mark.store(true, Ordering::SeqCst) });
    let next = loop {
        match parks.recv_timeout(DEADLINE) {
            Ok((true, timeout)) => break timeout,
            Ok((false, _)) => {}
            Err(_) => panic!("the idle worker did not park on the driver again"),
        }
    };
    assert_eq!(
        next, None,
        "with every LIFO slot empty the driver's holder blocks without a deadline"
    );
    release.send(()).unwrap();
    rt.block_on(stuck).unwrap();
}
