//! How often a worker takes from the injector ahead of its own queue,
//! tuned to the time its tasks take per poll.
//!
//! A fixed interval counts ticks, not time: with slow tasks (tens of
//! microseconds a poll) sixty ticks between injector checks keep outside
//! work waiting for milliseconds. Unless the builder fixed the interval,
//! each worker measures its batches (the polls between two maintenance
//! ticks, or from an unpark to the next maintenance), keeps a moving
//! average of the time per poll, and checks the injector about every
//! `TARGET_LATENCY`: the interval is that target over the average poll
//! time, kept within `MIN_INTERVAL..=MAX_INTERVAL`. Two clock reads per
//! batch, none per poll.
//!
//! This is tokio's design and tokio's values: its multi-thread scheduler
//! tunes its global queue interval the same way (`Stats` in
//! `runtime/scheduler/multi_thread/stats.rs`), with
//! `TARGET_GLOBAL_QUEUE_INTERVAL` (200 µs, our `TARGET_LATENCY`),
//! `MAX_TASKS_POLLED_PER_GLOBAL_QUEUE_INTERVAL` (127, our `MAX_INTERVAL`),
//! the floor of 2 in `tuned_global_queue_interval` (our `MIN_INTERVAL`)
//! and `TASK_POLL_TIME_EWMA_ALPHA` (0.1, our `NEW_BATCH_WEIGHT`). Two
//! details differ: tokio weighs a batch of `n` polls by
//! `1 - (1 - 0.1)^n` where this weighs every batch by 0.1, and tokio
//! seeds its average with 200 µs / 61 where this keeps the initial
//! interval until the first batch ends.

use crate::loom::time::Instant;
use std::time::Duration;

/// About how long injected work should wait for a busy worker (tokio's
/// `TARGET_GLOBAL_QUEUE_INTERVAL`).
const TARGET_LATENCY: Duration = Duration::from_micros(200);
/// Bounds of the tuned interval (tokio's floor of 2 and
/// `MAX_TASKS_POLLED_PER_GLOBAL_QUEUE_INTERVAL`).
const MIN_INTERVAL: u32 = 2;
const MAX_INTERVAL: u32 = 127;
/// Weight of the newest batch in the moving average of poll time
/// (tokio's `TASK_POLL_TIME_EWMA_ALPHA`).
const NEW_BATCH_WEIGHT: f64 = 0.1;

/// A worker's injector interval, fixed or tuned.
pub(super) struct QueueInterval {
    interval: u32,
    /// `None`: fixed by the builder.
    tuning: Option<Tuning>,
}

struct Tuning {
    batch_start: Instant,
    batch_polls: u32,
    /// Moving average of one poll's time, in nanoseconds; `None` until
    /// the first batch ends.
    average_poll_nanos: Option<f64>,
}

impl QueueInterval {
    /// `initial` ticks until the first measurement; `tuned` false keeps it.
    pub(super) fn new(initial: u32, tuned: bool) -> QueueInterval {
        QueueInterval {
            interval: initial,
            tuning: tuned.then(|| Tuning {
                batch_start: Instant::now(),
                batch_polls: 0,
                average_poll_nanos: None,
            }),
        }
    }

    /// Ticks between injector checks.
    #[inline]
    pub(super) fn ticks(&self) -> u32 {
        self.interval
    }

    /// A task was polled in the current batch.
    #[inline]
    pub(super) fn count_poll(&mut self) {
        if let Some(tuning) = &mut self.tuning {
            tuning.batch_polls = tuning.batch_polls.saturating_add(1);
        }
    }

    /// The worker woke from parking: time spent idle is no poll time.
    pub(super) fn start_batch(&mut self) {
        if let Some(tuning) = &mut self.tuning {
            tuning.batch_start = Instant::now();
            tuning.batch_polls = 0;
        }
    }

    /// A maintenance tick: fold the batch into the average, retune, and
    /// start the next batch.
    pub(super) fn end_batch(&mut self) {
        let Some(tuning) = &mut self.tuning else {
            return;
        };
        let now = Instant::now();
        if tuning.batch_polls > 0 {
            let elapsed = now.saturating_duration_since(tuning.batch_start);
            let per_poll = elapsed.as_nanos() as f64 / f64::from(tuning.batch_polls);
            let average = match tuning.average_poll_nanos {
                Some(average) => {
                    NEW_BATCH_WEIGHT * per_poll + (1.0 - NEW_BATCH_WEIGHT) * average
                }
                None => per_poll,
            };
            tuning.average_poll_nanos = Some(average);
            self.interval = interval_for(average);
        }
        tuning.batch_start = now;
        tuning.batch_polls = 0;
    }
}

/// The interval that checks the injector about every `TARGET_LATENCY`
/// when a poll takes `average_poll_nanos`.
fn interval_for(average_poll_nanos: f64) -> u32 {
    let target = TARGET_LATENCY.as_nanos() as f64;
    let ticks = target / average_poll_nanos.max(1.0);
    // The float-to-int cast saturates; the clamp keeps the bounds.
    (ticks as u32).clamp(MIN_INTERVAL, MAX_INTERVAL)
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn slow_polls_shorten_the_interval_and_fast_ones_lengthen_it() {
        assert_eq!(interval_for(50_000.0), 4);
        assert_eq!(interval_for(500_000.0), MIN_INTERVAL);
        assert_eq!(interval_for(100.0), MAX_INTERVAL);
        assert_eq!(interval_for(0.0), MAX_INTERVAL);
    }

    #[test]
    fn a_fixed_interval_never_moves() {
        let mut fixed = QueueInterval::new(31, false);
        fixed.count_poll();
        fixed.end_batch();
        assert_eq!(fixed.ticks(), 31);
    }

    #[test]
    fn an_empty_batch_keeps_the_interval() {
        let mut tuned = QueueInterval::new(61, true);
        tuned.end_batch();
        assert_eq!(tuned.ticks(), 61);
        tuned.count_poll();
        std::thread::sleep(Duration::from_millis(2));
        tuned.end_batch();
        assert_eq!(tuned.ticks(), MIN_INTERVAL);
    }
}
