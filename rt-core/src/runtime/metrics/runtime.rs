//! [`RuntimeMetrics`]: the view of a runtime's counters that
//! [`Handle::metrics`](crate::runtime::Handle::metrics) hands out.

use super::{IoDriverMetrics, WorkerMetrics};
use crate::runtime::scheduler;
use std::ops::Range;
use std::time::Duration;

/// A view of a runtime's counters, from [`Handle::metrics`](crate::runtime::Handle::metrics).
///
/// Every worker owns its counters (polls, steals, parks, busy time, ...)
/// and is the only thread that writes them, with plain relaxed stores, so
/// keeping them costs next to nothing; readers see recent values, not a
/// consistent snapshot across counters. The poll-time histogram is off by
/// default because it reads the clock twice per poll; turn it on with
/// [`Builder::enable_metrics_poll_time_histogram`](crate::runtime::Builder::enable_metrics_poll_time_histogram).
///
/// ```
/// use rt_core::runtime::Builder;
///
/// let rt = Builder::new_multi_thread()
///     .worker_threads(2)
///     .enable_metrics_poll_time_histogram()
///     .build()
///     .unwrap();
/// rt.block_on(async {
///     for _ in 0..10 {
///         rt_core::spawn(async {}).await.unwrap();
///     }
/// });
/// let metrics = rt.handle().metrics();
/// assert_eq!(metrics.num_workers(), 2);
/// let polls: u64 = (0..2).map(|w| metrics.worker_poll_count(w)).sum();
/// assert!(polls >= 10);
/// let histogram: u64 = (0..2)
///     .flat_map(|w| (0..metrics.poll_time_histogram_num_buckets()).map(move |b| (w, b)))
///     .map(|(w, b)| metrics.poll_time_histogram_bucket_count(w, b))
///     .sum();
/// assert!(histogram >= 10);
/// ```
///
/// Methods taking a `worker` index panic if it is not below
/// [`num_workers`](Self::num_workers).
#[derive(Clone)]
pub struct RuntimeMetrics {
    handle: scheduler::Handle,
}

impl RuntimeMetrics {
    pub(crate) fn new(handle: scheduler::Handle) -> RuntimeMetrics {
        RuntimeMetrics { handle }
    }

    fn worker(&self, worker: usize) -> &WorkerMetrics {
        self.handle.worker_metrics(worker)
    }

    /// Number of worker threads (1 for the current-thread runtime).
    pub fn num_workers(&self) -> usize {
        self.handle.num_workers()
    }

    /// Number of tasks spawned and not yet finished.
    pub fn num_alive_tasks(&self) -> usize {
        self.handle.num_alive_tasks()
    }

    /// Tasks waiting in the shared queue (spawned or woken from outside the
    /// workers).
    pub fn global_queue_depth(&self) -> usize {
        self.handle.global_queue_depth()
    }

    /// Task polls done by `worker`.
    pub fn worker_poll_count(&self, worker: usize) -> u64 {
        self.worker(worker).polls.load(relaxed())
    }

    /// Tasks `worker` stole from other workers.
    pub fn worker_steal_count(&self, worker: usize) -> u64 {
        self.worker(worker).steals.load(relaxed())
    }

    /// Successful steal operations by `worker` (each may take several
    /// tasks).
    pub fn worker_steal_operations(&self, worker: usize) -> u64 {
        self.worker(worker).steal_operations.load(relaxed())
    }

    /// Times `worker`'s local queue was full and moved half of its tasks
    /// to the shared injection queue (always 0 on the current-thread
    /// flavor, whose queue is unbounded).
    pub fn worker_overflow_count(&self, worker: usize) -> u64 {
        self.worker(worker).overflows.load(relaxed())
    }

    /// Times `worker` parked with nothing to do.
    pub fn worker_park_count(&self, worker: usize) -> u64 {
        self.worker(worker).parks.load(relaxed())
    }

    /// Times `worker` woke from parking.
    pub fn worker_unpark_count(&self, worker: usize) -> u64 {
        self.worker(worker).unparks.load(relaxed())
    }

    /// Parks plus unparks of `worker`.
    pub fn worker_park_unpark_count(&self, worker: usize) -> u64 {
        self.worker_park_count(worker) + self.worker_unpark_count(worker)
    }

    /// Times `worker` woke up and parked again without running a task (a
    /// needless wake-up).
    pub fn worker_noop_count(&self, worker: usize) -> u64 {
        self.worker(worker).noops.load(relaxed())
    }

    /// Tasks in `worker`'s local queue. The current-thread runtime samples
    /// it when it parks or polls its driver.
    pub fn worker_local_queue_depth(&self, worker: usize) -> usize {
        self.handle.worker_local_queue_depth(worker)
    }

    /// Time `worker` spent not parked, up to its last park (or, for the
    /// current-thread runtime, the end of its last `block_on`).
    pub fn worker_total_busy_duration(&self, worker: usize) -> Duration {
        self.worker(worker).busy_duration()
    }

    /// Times a resource made a task on `worker` yield because its coop
    /// budget was spent (sampled when the worker parks or polls its
    /// driver, and when a current-thread `block_on` returns).
    pub fn worker_budget_forced_yield_count(&self, worker: usize) -> u64 {
        self.worker(worker).forced_yields.load(relaxed())
    }

    /// Forced yields over all workers.
    pub fn budget_forced_yield_count(&self) -> u64 {
        (0..self.num_workers())
            .map(|w| self.worker_budget_forced_yield_count(w))
            .sum()
    }

    /// Whether the poll-time histogram is on.
    pub fn poll_time_histogram_enabled(&self) -> bool {
        self.handle.common().config.poll_histogram.is_some()
    }

    /// Number of histogram buckets (0 when the histogram is off).
    pub fn poll_time_histogram_num_buckets(&self) -> usize {
        self.handle
            .common()
            .config
            .poll_histogram
            .map_or(0, |c| c.num_buckets())
    }

    /// The poll durations bucket `bucket` counts.
    ///
    /// # Panics
    ///
    /// If the histogram is off or `bucket` is out of range.
    #[track_caller]
    pub fn poll_time_histogram_bucket_range(&self, bucket: usize) -> Range<Duration> {
        let config = self
            .handle
            .common()
            .config
            .poll_histogram
            .expect("the poll-time histogram is not enabled");
        assert!(bucket < config.num_buckets(), "bucket index out of range");
        config.bucket_range(bucket)
    }

    /// Polls by `worker` whose duration fell in `bucket`.
    ///
    /// # Panics
    ///
    /// If the histogram is off or an index is out of range.
    #[track_caller]
    pub fn poll_time_histogram_bucket_count(&self, worker: usize, bucket: usize) -> u64 {
        self.worker(worker)
            .histogram
            .as_ref()
            .expect("the poll-time histogram is not enabled")
            .count(bucket)
    }

    /// Threads in the blocking pool (busy or idle).
    pub fn num_blocking_threads(&self) -> usize {
        self.handle.common().blocking.counts().threads
    }

    /// Idle threads in the blocking pool.
    pub fn num_idle_blocking_threads(&self) -> usize {
        self.handle.common().blocking.counts().idle
    }

    /// Blocking closures queued and not yet started.
    pub fn blocking_queue_depth(&self) -> usize {
        self.handle.common().blocking.counts().queued
    }

    fn io(&self) -> Option<std::sync::Arc<IoDriverMetrics>> {
        self.handle.common().driver_handles.get::<IoDriverMetrics>()
    }

    /// Which I/O driver the runtime runs (`None` without one): the one
    /// asked for, or epoll when io_uring was asked for and the kernel
    /// refused it.
    pub fn io_driver_kind(&self) -> Option<super::IoDriverKind> {
        self.io().map(|io| io.kind())
    }

    /// I/O sources (sockets, pipes, `AsyncFd`s) registered with the
    /// reactor since the runtime started; 0 without an I/O driver.
    pub fn io_driver_fd_registered_count(&self) -> u64 {
        self.io().map_or(0, |io| io.registered())
    }

    /// I/O sources deregistered from the reactor since the runtime started.
    /// Registered minus deregistered is the number open now.
    pub fn io_driver_fd_deregistered_count(&self) -> u64 {
        self.io().map_or(0, |io| io.deregistered())
    }

    /// Readiness events the reactor has dispatched to I/O sources.
    pub fn io_driver_ready_count(&self) -> u64 {
        self.io().map_or(0, |io| io.ready())
    }
}

impl std::fmt::Debug for RuntimeMetrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RuntimeMetrics")
            .field("num_workers", &self.num_workers())
            .field("num_alive_tasks", &self.num_alive_tasks())
            .finish_non_exhaustive()
    }
}

fn relaxed() -> crate::loom::sync::atomic::Ordering {
    crate::loom::sync::atomic::Ordering::Relaxed
}
