//! Loom model of the blocking-activity count: a driver that decides to wait
//! for the blocking pool must be woken when the last closure finishes.

use super::BlockingActivity;
use crate::loom::sync::atomic::{AtomicBool, Ordering::SeqCst};
use crate::loom::thread;
use crate::runtime::Unpark;
use std::sync::Arc;

struct RecordUnpark(AtomicBool);

impl Unpark for RecordUnpark {
    fn unpark(&self) {
        self.0.store(true, SeqCst);
    }
}

#[test]
fn a_driver_waiting_for_the_pool_is_woken_by_the_last_finish() {
    loom::model(|| {
        let activity = Arc::new(BlockingActivity::new());
        let record = Arc::new(RecordUnpark(AtomicBool::new(false)));
        activity.set_unpark(record.clone());
        activity.started();
        let pool = {
            let activity = activity.clone();
            thread::spawn(move || activity.finished())
        };
        // The time driver with a paused clock, deciding whether to wait.
        let waits = activity.busy_waking_driver_when_idle();
        pool.join().unwrap();
        assert!(
            !waits || record.0.load(SeqCst),
            "the driver waits for a closure whose end did not wake it"
        );
    });
}
