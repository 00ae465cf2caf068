//! The parking policy seen from the driver: a worker with nothing to do
//! blocks without a deadline, even while another worker is stuck in a long
//! poll, as long as no task waits in that worker's LIFO slot.

#![cfg(feature = "rt-multi-thread")]

use rt_core::runtime::{Builder, Driver, ParkThread, Unpark};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long the test waits for events that take milliseconds.
const DEADLINE: Duration = Duration::from_secs(30);

/// `ParkThread`, reporting the timeout of every park that may block, and
/// whether it began after `mark` was raised.
struct ReportingDriver {
    inner: ParkThread,
    mark: Arc<AtomicBool>,
    parks: Mutex<mpsc::Sender<(bool, Option<Duration>)>>,
}

impl Driver for ReportingDriver {
    fn park(&mut self, timeout: Option<Duration>) {
        if timeout != Some(Duration::ZERO) {
            let after_mark = self.mark.load(Ordering::SeqCst);
            let _ = self.parks.lock().unwrap().send((after_mark, timeout));
        }
        self.inner.park(timeout);
    }

    fn unparker(&self) -> Arc<dyn Unpark> {
        self.inner.unparker()
    }

    fn shutdown(&mut self) {
        self.inner.shutdown();
    }
}

#[test]
fn a_stuck_worker_with_an_empty_lifo_slot_leaves_the_driver_holder_asleep() {
    let (parks_tx, parks) = mpsc::channel();
    let mark = Arc::new(AtomicBool::new(false));
    let driver_mark = mark.clone();
    let rt = Builder::new_multi_thread()
        .worker_threads(2)
        .base_driver(move |_| {
            Ok(Box::new(ReportingDriver {
                inner: ParkThread::new(),
                mark: driver_mark,
                parks: Mutex::new(parks_tx),
            }))
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
