//! Runtime metrics count what the schedulers did.

use rt_core::runtime::{Builder, HistogramConfiguration, RuntimeMetrics};
use rt_core::task;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::task::{Poll, Waker};
use std::time::{Duration, Instant};

/// Spins (no sleeping) until `done` holds, failing after a generous bound.
fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::yield_now();
    }
}

fn sum(metrics: &RuntimeMetrics, f: impl Fn(&RuntimeMetrics, usize) -> u64) -> u64 {
    (0..metrics.num_workers()).map(|w| f(metrics, w)).sum()
}

/// A worker whose thread first runs after shutdown began still goes
/// through one park (it joins the sleepers, sees the runtime closed and
/// leaves): every worker reports at least one, as on tokio.
#[test]
fn a_worker_that_only_sees_shutdown_still_counts_its_park() {
    for _ in 0..20 {
        let rt = Builder::new_multi_thread()
            .worker_threads(4)
            .build()
            .unwrap();
        let metrics = rt.handle().metrics();
        drop(rt);
        for w in 0..4 {
            assert!(metrics.worker_park_count(w) >= 1, "worker {w}");
            assert_eq!(metrics.worker_park_unpark_count(w) % 2, 0, "worker {w}");
        }
    }
}

#[test]
fn multi_thread_counts_polls_steals_and_parks() {
    const TASKS: usize = 64;
    let rt = Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let metrics = rt.handle().metrics();
    assert_eq!(metrics.num_workers(), 2);
    // Both workers find nothing to do at start and park.
    wait_until("both workers to park", || {
        (0..2).all(|w| metrics.worker_park_count(w) >= 1)
    });

    let done = Arc::new(AtomicUsize::new(0));
    let counter = done.clone();
    rt.block_on(async move {
        rt_core::spawn(async move {
            // These land in this worker's queue, and this worker stays busy
            // until they all ran: the other worker must steal every one.
            for _ in 0..TASKS {
                let counter = counter.clone();
                rt_core::spawn(async move {
                    counter.fetch_add(1, Ordering::SeqCst);
                });
            }
            wait_until("the other worker to run the tasks", || {
                counter.load(Ordering::SeqCst) == TASKS
            });
        })
        .await
        .unwrap();
    });
    assert_eq!(done.load(Ordering::SeqCst), TASKS);

    let polls = sum(&metrics, RuntimeMetrics::worker_poll_count);
    assert!(polls > TASKS as u64, "polls {polls}");
    let steals = sum(&metrics, RuntimeMetrics::worker_steal_count);
    let operations = sum(&metrics, RuntimeMetrics::worker_steal_operations);
    assert!(steals >= TASKS as u64, "steals {steals}");
    assert!(
        operations >= 1 && operations <= steals,
        "{operations} of {steals}"
    );
    // The thief was woken to steal.
    assert!(sum(&metrics, RuntimeMetrics::worker_unpark_count) >= 1);
    for w in 0..2 {
        assert!(metrics.worker_park_unpark_count(w) >= metrics.worker_park_count(w));
    }
    // Back to idle: both park again, having spent some time busy.
    wait_until("workers to park again", || {
        (0..2).all(|w| metrics.worker_park_count(w) >= 2)
    });
    assert!(
        (0..2).any(|w| metrics.worker_total_busy_duration(w) > Duration::ZERO),
        "no busy time"
    );
    assert_eq!(metrics.num_alive_tasks(), 0);
    assert_eq!(metrics.global_queue_depth(), 0);
    assert_eq!(
        (0..2)
            .map(|w| metrics.worker_local_queue_depth(w))
            .sum::<usize>(),
        0
    );
    assert!(!metrics.poll_time_histogram_enabled());
}

#[test]
fn current_thread_counts_queue_depth_and_polls() {
    let rt = Builder::new_current_thread().build().unwrap();
    let metrics = rt.handle().metrics();
    assert_eq!(metrics.num_workers(), 1);
    // Spawned from outside `block_on`: they wait in the shared queue.
    let handles: Vec<_> = (0..5).map(|i| rt.spawn(async move { i })).collect();
    assert_eq!(metrics.global_queue_depth(), 5);
    assert_eq!(metrics.num_alive_tasks(), 5);
    let total = rt.block_on(async {
        let mut total = 0;
        for handle in handles {
            total += handle.await.unwrap();
        }
        total
    });
    assert_eq!(total, 10);
    assert_eq!(metrics.global_queue_depth(), 0);
    assert_eq!(metrics.num_alive_tasks(), 0);
    assert_eq!(metrics.worker_poll_count(0), 5);
    assert_eq!(metrics.worker_steal_count(0), 0);
}

#[test]
fn current_thread_counts_parks_and_needless_wake_ups() {
    let (park_tx, park_rx) = mpsc::channel::<()>();
    let rt = Builder::new_current_thread()
        .on_thread_park(move || park_tx.send(()).unwrap())
        .build()
        .unwrap();
    let metrics = rt.handle().metrics();
    // Wakes the `block_on` future each time the runtime has parked. Those
    // wake-ups run no task: they are needless from the worker's view.
    let (waker_tx, waker_rx) = mpsc::channel::<Waker>();
    let helper = std::thread::spawn(move || {
        for waker in waker_rx {
            park_rx.recv().unwrap();
            waker.wake();
        }
    });
    let mut pending = 2;
    rt.block_on(std::future::poll_fn(move |cx| {
        if pending == 0 {
            return Poll::Ready(());
        }
        pending -= 1;
        waker_tx.send(cx.waker().clone()).unwrap();
        Poll::Pending
    }));
    helper.join().unwrap();
    assert_eq!(metrics.worker_park_count(0), 2);
    assert_eq!(metrics.worker_unpark_count(0), 2);
    assert_eq!(metrics.worker_park_unpark_count(0), 4);
    // The first wake-up was followed by a park with no task run between.
    assert_eq!(metrics.worker_noop_count(0), 1);
    assert_eq!(metrics.worker_poll_count(0), 0);
}

#[test]
fn budget_forced_yields_are_counted() {
    let rt = Builder::new_current_thread()
        .coop_budget(8)
        .build()
        .unwrap();
    let metrics = rt.handle().metrics();
    rt.block_on(async {
        rt_core::spawn(async {
            for _ in 0..40 {
                task::coop::consume_budget().await;
            }
        })
        .await
        .unwrap();
    });
    // 40 units on a budget of 8 per poll: at least four forced yields.
    assert!(
        metrics.budget_forced_yield_count() >= 4,
        "{}",
        metrics.budget_forced_yield_count()
    );
    assert_eq!(
        metrics.budget_forced_yield_count(),
        metrics.worker_budget_forced_yield_count(0)
    );
}

#[test]
fn poll_time_histogram_counts_every_timed_poll() {
    let config = HistogramConfiguration::linear(Duration::from_millis(1), 4);
    let rt = Builder::new_current_thread()
        .enable_metrics_poll_time_histogram()
        .metrics_poll_time_histogram_configuration(config)
        .build()
        .unwrap();
    let metrics = rt.handle().metrics();
    assert!(metrics.poll_time_histogram_enabled());
    assert_eq!(metrics.poll_time_histogram_num_buckets(), 4);
    assert_eq!(
        metrics.poll_time_histogram_bucket_range(1),
        Duration::from_millis(1)..Duration::from_millis(2)
    );
    assert_eq!(
        metrics.poll_time_histogram_bucket_range(3).end,
        Duration::MAX
    );
    rt.block_on(async {
        // One poll that takes at least 5 ms (measured, not slept): it lands
        // in the last bucket.
        rt_core::spawn(async {
            let start = Instant::now();
            while start.elapsed() < Duration::from_millis(5) {
                std::hint::spin_loop();
            }
        })
        .await
        .unwrap();
        for _ in 0..3 {
            rt_core::spawn(async {}).await.unwrap();
        }
    });
    let counts: Vec<u64> = (0..4)
        .map(|b| metrics.poll_time_histogram_bucket_count(0, b))
        .collect();
    assert_eq!(counts.iter().sum::<u64>(), metrics.worker_poll_count(0));
    assert_eq!(counts.iter().sum::<u64>(), 4);
    assert!(counts[3] >= 1, "{counts:?}");
}

#[test]
fn histogram_is_off_by_default() {
    let rt = Builder::new_current_thread()
        .metrics_poll_time_histogram_configuration(HistogramConfiguration::default())
        .build()
        .unwrap();
    let metrics = rt.handle().metrics();
    assert!(!metrics.poll_time_histogram_enabled());
    assert_eq!(metrics.poll_time_histogram_num_buckets(), 0);
}

#[test]
fn blocking_pool_threads_idle_and_queue() {
    let rt = Builder::new_current_thread()
        .max_blocking_threads(1)
        .build()
        .unwrap();
    let metrics = rt.handle().metrics();
    assert_eq!(metrics.num_blocking_threads(), 0);
    let (started_tx, started_rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let first = rt.spawn_blocking(move || {
        started_tx.send(()).unwrap();
        release_rx.recv().unwrap();
    });
    started_rx.recv().unwrap();
    // The only thread is busy: the second closure waits in the queue.
    let second = rt.spawn_blocking(|| 2);
    assert_eq!(metrics.num_blocking_threads(), 1);
    assert_eq!(metrics.num_idle_blocking_threads(), 0);
    assert_eq!(metrics.blocking_queue_depth(), 1);
    release_tx.send(()).unwrap();
    rt.block_on(async {
        first.await.unwrap();
        assert_eq!(second.await.unwrap(), 2);
    });
    wait_until("the blocking thread to go idle", || {
        metrics.num_idle_blocking_threads() == 1
    });
    assert_eq!(metrics.blocking_queue_depth(), 0);
}

#[test]
fn a_full_local_queue_counts_an_overflow() {
    let rt = Builder::new_multi_thread()
        .worker_threads(1)
        .build()
        .unwrap();
    rt.block_on(async {
        // Spawned from the worker itself, every task lands in its local
        // queue, which holds fewer than this (1024; Miri-sized just past it).
        rt_core::spawn(async {
            let n = if cfg!(miri) { 1100 } else { 2000 };
            let tasks: Vec<_> = (0..n).map(|_| rt_core::spawn(async {})).collect();
            for task in tasks {
                task.await.unwrap();
            }
        })
        .await
        .unwrap();
    });
    let metrics = rt.handle().metrics();
    assert!(metrics.worker_overflow_count(0) >= 1);
}

#[test]
fn the_current_thread_queue_never_overflows() {
    let rt = Builder::new_current_thread().build().unwrap();
    rt.block_on(async {
        // More than a multi-thread worker's local queue holds (1024).
        let n = if cfg!(miri) { 1100 } else { 2000 };
        let tasks: Vec<_> = (0..n).map(|_| rt_core::spawn(async {})).collect();
        for task in tasks {
            task.await.unwrap();
        }
    });
    assert_eq!(rt.handle().metrics().worker_overflow_count(0), 0);
}

#[test]
fn every_worker_reports_busy_time_even_when_shut_down_before_parking() {
    let rt = Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let metrics = rt.metrics();
    drop(rt);
    for worker in 0..metrics.num_workers() {
        assert!(
            metrics.worker_total_busy_duration(worker) > Duration::ZERO,
            "worker {worker}"
        );
    }
}

#[test]
fn an_idle_worker_parks_once_however_long_its_watch_lasts() {
    let rt = Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let metrics = rt.metrics();
    wait_until("both workers park", || {
        (0..2).all(|w| metrics.worker_park_count(w) >= 1)
    });
    for worker in 0..2 {
        assert_eq!(metrics.worker_park_count(worker), 1, "worker {worker}");
        assert_eq!(metrics.worker_unpark_count(worker), 0, "worker {worker}");
    }
    drop(rt);
    for worker in 0..2 {
        assert_eq!(metrics.worker_park_unpark_count(worker) % 2, 0);
    }
}
