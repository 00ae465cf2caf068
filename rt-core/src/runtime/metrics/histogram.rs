//! The poll-time histogram: how long task polls took, counted into
//! fixed-width buckets, one histogram per worker.

use crate::loom::sync::atomic::{AtomicU64, Ordering};
use std::ops::Range;
use std::time::Duration;

/// How the poll-time histogram splits durations into buckets; see
/// [`Builder::metrics_poll_time_histogram_configuration`](crate::runtime::Builder::metrics_poll_time_histogram_configuration).
///
/// ```
/// use std::time::Duration;
/// use rt_core::runtime::HistogramConfiguration;
///
/// // [0, 50µs), [50µs, 100µs), ..., [450µs, ∞)
/// let config = HistogramConfiguration::linear(Duration::from_micros(50), 10);
/// assert_eq!(config.num_buckets(), 10);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HistogramConfiguration {
    bucket_width: Duration,
    num_buckets: usize,
}

impl HistogramConfiguration {
    /// `num_buckets` buckets `bucket_width` wide from zero; the last one
    /// also takes every longer poll.
    ///
    /// # Panics
    ///
    /// If `bucket_width` is zero or `num_buckets` is zero.
    #[track_caller]
    pub fn linear(bucket_width: Duration, num_buckets: usize) -> HistogramConfiguration {
        assert!(!bucket_width.is_zero(), "bucket width must be non-zero");
        assert!(num_buckets > 0, "a histogram needs at least one bucket");
        HistogramConfiguration {
            bucket_width,
            num_buckets,
        }
    }

    /// Number of buckets.
    pub fn num_buckets(&self) -> usize {
        self.num_buckets
    }

    /// The durations bucket `bucket` counts.
    pub(crate) fn bucket_range(&self, bucket: usize) -> Range<Duration> {
        let start = self.bucket_width.saturating_mul(bucket as u32);
        let end = if bucket + 1 >= self.num_buckets {
            Duration::MAX
        } else {
            self.bucket_width.saturating_mul(bucket as u32 + 1)
        };
        start..end
    }

    fn bucket_of(&self, duration: Duration) -> usize {
        let index = duration.as_nanos() / self.bucket_width.as_nanos();
        (index.min(self.num_buckets as u128 - 1)) as usize
    }
}

impl Default for HistogramConfiguration {
    /// Ten buckets of 100 µs.
    fn default() -> HistogramConfiguration {
        HistogramConfiguration::linear(Duration::from_micros(100), 10)
    }
}

/// One worker's counts. Written only by the worker that owns it.
pub(crate) struct Histogram {
    config: HistogramConfiguration,
    buckets: Box<[AtomicU64]>,
}

impl Histogram {
    pub(crate) fn new(config: HistogramConfiguration) -> Histogram {
        Histogram {
            config,
            buckets: (0..config.num_buckets).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Counts one poll. Only the owning worker writes, so load and store.
    pub(crate) fn record(&self, duration: Duration) {
        let bucket = &self.buckets[self.config.bucket_of(duration)];
        bucket.store(bucket.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }

    pub(crate) fn count(&self, bucket: usize) -> u64 {
        self.buckets[bucket].load(Ordering::Relaxed)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn durations_land_in_their_bucket() {
        let config = HistogramConfiguration::linear(Duration::from_micros(10), 3);
        let histogram = Histogram::new(config);
        histogram.record(Duration::from_micros(3));
        histogram.record(Duration::from_micros(10));
        histogram.record(Duration::from_micros(19));
        histogram.record(Duration::from_secs(5));
        assert_eq!(
            [histogram.count(0), histogram.count(1), histogram.count(2)],
            [1, 2, 1]
        );
        assert_eq!(
            config.bucket_range(0),
            Duration::ZERO..Duration::from_micros(10)
        );
        assert_eq!(config.bucket_range(2).end, Duration::MAX);
    }
}
