//! Loom model of the single-writer counters: the worker that owns them
//! updates with a load and a store (no read-modify-write), other threads
//! read. A reader must never see a count go backwards or run ahead, and
//! nothing written by the owner may be lost. The task header's poll
//! counter follows the same rule.

use super::{HistogramConfiguration, WorkerClock, WorkerMetrics};
use crate::loom::sync::atomic::Ordering::Relaxed;
use crate::loom::sync::Arc;
use crate::loom::thread;
use std::time::Duration;

#[test]
fn readers_see_single_writer_counts_in_order() {
    loom::model(|| {
        let config = HistogramConfiguration::linear(Duration::from_millis(1), 2);
        let metrics = Arc::new(WorkerMetrics::new(Some(config)));
        let owner = {
            let metrics = metrics.clone();
            thread::spawn(move || {
                let mut clock = WorkerClock::start();
                metrics.count_poll(&mut clock);
                metrics.record_poll_time(Duration::ZERO);
                metrics.count_poll(&mut clock);
            })
        };
        let first = metrics.polls.load(Relaxed);
        let second = metrics.polls.load(Relaxed);
        assert!(first <= second && second <= 2, "{first} then {second}");
        owner.join().unwrap();
        assert_eq!(metrics.polls.load(Relaxed), 2);
        let histogram = metrics.histogram.as_ref().unwrap();
        assert_eq!(histogram.count(0), 1);
    });
}
