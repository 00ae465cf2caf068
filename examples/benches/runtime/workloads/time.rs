//! Timers: creating and cancelling timeouts from many tasks at once,
//! moving sleeps around the wheel, many sleeps firing together, interval
//! bookkeeping, and the memory a pending sleep costs.

use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

use super::build::runtime;
use super::far_sleep::sleep_after_registering;
use super::tk;
use bench_harness::alloc::Counter;
use bench_harness::{timed, Size};

/// Tasks that create timeouts or reset sleeps concurrently: more than the
/// largest worker count, so every worker has some.
const TIMER_TASKS: usize = 8;

/// A deadline far enough away that no timer in these workloads fires
/// unless it is meant to.
const FAR: Duration = Duration::from_secs(3600);

/// 100k `timeout(1 s, ready)` created, awaited and dropped, split over 8
/// tasks. The inner future is ready at once, so this is the cost of making
/// and dropping a timeout that never needs its timer; tasks on different
/// workers must not queue behind one another for it.
pub fn timeout_ready_8_tasks(size: &Size) -> f64 {
    let per_task = size.count(100_000) / TIMER_TASKS;
    timeouts_from_tasks(size, per_task, |i| async move {
        tk::time::timeout(Duration::from_secs(1), std::future::ready(i))
            .await
            .expect("a ready future does not time out")
    })
}

/// The same as [`timeout_ready_8_tasks`] with 100k timeouts whose inner
/// future yields once: each timeout registers its timer, then cancels it
/// when dropped. This is where one lock around the whole timer would make
/// the workers take turns.
pub fn timeout_pending_8_tasks(size: &Size) -> f64 {
    let per_task = size.count(100_000) / TIMER_TASKS;
    timeouts_from_tasks(size, per_task, |i| async move {
        let inner = async move {
            tk::task::yield_now().await;
            i
        };
        tk::time::timeout(Duration::from_secs(1), inner)
            .await
            .expect("a yielding future does not time out")
    })
}

fn timeouts_from_tasks<F, Fut>(size: &Size, per_task: usize, one: F) -> f64
where
    F: Fn(usize) -> Fut + Copy + Send + 'static,
    Fut: Future<Output = usize> + Send + 'static,
{
    let per_task = per_task.max(1);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let tasks: Vec<_> = (0..TIMER_TASKS)
                .map(|_| {
                    tk::spawn(async move {
                        let mut sum = 0usize;
                        for i in 0..per_task {
                            sum = sum.wrapping_add(one(i).await);
                        }
                        sum
                    })
                })
                .collect();
            for task in tasks {
                std::hint::black_box(task.await.expect("timeout task completes"));
            }
        })
    })
}

/// 1k pending sleeps (8 tasks of 125), each reset 100 times to a new
/// deadline and polled after every reset, so that every reset moves a
/// registered timer.
pub fn sleep_reset_churn(size: &Size) -> f64 {
    let per_task = size.count(1_000).div_ceil(TIMER_TASKS);
    let resets = size.count(100);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let tasks: Vec<_> = (0..TIMER_TASKS)
                .map(|_| tk::spawn(reset_churn(per_task, resets)))
                .collect();
            for task in tasks {
                task.await.expect("reset task completes");
            }
        })
    })
}

async fn reset_churn(sleeps: usize, resets: usize) {
    let start = tk::time::Instant::now();
    let mut sleeps: Vec<Pin<Box<tk::time::Sleep>>> = (0..sleeps)
        .map(|_| Box::pin(tk::time::sleep(FAR)))
        .collect();
    poll_all_once(&mut sleeps).await;
    for round in 0..resets {
        for (i, sleep) in sleeps.iter_mut().enumerate() {
            let offset = Duration::from_millis((round * 7 + i) as u64 % 5_000);
            sleep
                .as_mut()
                .reset(start + Duration::from_secs(60) + offset);
        }
        poll_all_once(&mut sleeps).await;
    }
}

/// Polls every sleep once (registering or re-registering its timer) and
/// returns without waiting for any of them.
async fn poll_all_once(sleeps: &mut [Pin<Box<tk::time::Sleep>>]) {
    poll_fn(|cx| {
        for sleep in sleeps.iter_mut() {
            assert!(sleep.as_mut().poll(cx).is_pending(), "far sleeps pend");
        }
        Poll::Ready(())
    })
    .await
}

/// 10k tasks each sleep 1 ms, all at once, and are joined: timer
/// registration from many tasks, then one batch of firings and wake-ups.
pub fn sleep_10k_concurrent(size: &Size) -> f64 {
    let tasks = size.count(10_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let handles: Vec<_> = (0..tasks)
                .map(|_| {
                    tk::spawn(async {
                        tk::time::sleep(Duration::from_millis(1)).await;
                    })
                })
                .collect();
            for handle in handles {
                handle.await.expect("sleeping task completes");
            }
        })
    })
}

/// 16 tasks each take 1k ticks from an interval whose first 1k ticks are
/// already due (it started 1k periods ago and bursts missed ticks): the
/// bookkeeping of a tick, without waiting for the clock.
pub fn interval_ticks(size: &Size) -> f64 {
    let tasks = 16;
    let ticks = size.count(1_000);
    let period = Duration::from_millis(1);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let handles: Vec<_> = (0..tasks)
                .map(|_| {
                    tk::spawn(async move {
                        let behind = period * (ticks as u32 + 1);
                        let start = tk::time::Instant::now() - behind;
                        let mut interval = tk::time::interval_at(start, period);
                        interval.set_missed_tick_behavior(tk::time::MissedTickBehavior::Burst);
                        for _ in 0..ticks {
                            interval.tick().await;
                        }
                    })
                })
                .collect();
            for handle in handles {
                handle.await.expect("ticking task completes");
            }
        })
    })
}

/// Heap bytes per pending sleep: 1M sleeps (1k in a smoke run), boxed and
/// polled once so that each is registered with the timer, hold their
/// memory while the counting allocator measures. The count includes the
/// boxed `Sleep` itself and whatever the timer allocates to track it; the
/// vector holding the boxes is allocated before counting starts.
pub fn pending_sleep_bytes(size: &Size) -> f64 {
    let sleeps = if size.smoke { 1_000 } else { 1_000_000 };
    let rt = runtime(size.flavor);
    // Warm-up: lazily built timer structures are not per-sleep cost.
    rt.block_on(async move {
        let warm_up = tk::spawn(hold_sleeps(sleeps.min(10_000), false));
        warm_up.await.expect("warm-up task completes");
    });
    let bytes = rt.block_on(async move {
        let measured = tk::spawn(hold_sleeps(sleeps, true));
        measured.await.expect("measuring task completes")
    });
    drop(rt);
    bytes as f64 / sleeps as f64
}

/// Creates and registers `count` far sleeps; when `measure` is true,
/// returns the heap growth that cost, measured while they are all pending.
async fn hold_sleeps(count: usize, measure: bool) -> isize {
    let mut sleeps: Vec<Pin<Box<tk::time::Sleep>>> = Vec::with_capacity(count);
    let counter = measure.then(Counter::start);
    let start = tk::time::Instant::now();
    for i in 0..count {
        // Deadlines 60 µs apart, spread over a minute for 1M sleeps, as
        // real timeouts would be.
        let deadline = start + FAR + Duration::from_micros(60 * i as u64);
        sleeps.push(Box::pin(tk::time::sleep_until(deadline)));
    }
    poll_all_once(&mut sleeps).await;
    let bytes = counter.as_ref().map_or(0, Counter::net_bytes);
    drop(counter);
    drop(sleeps);
    bytes
}

/// 1M sleeps (10k in a smoke run) on 1k tasks, all due within 10 ms, fire
/// and are joined: bulk expiry and wake-up.
pub fn timers_1m_firing(size: &Size) -> f64 {
    let tasks = 1_000;
    let per_task = if size.smoke { 10 } else { 1_000 };
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let start = tk::time::Instant::now();
            let handles: Vec<_> = (0..tasks)
                .map(|t| {
                    tk::spawn(async move {
                        for i in 0..per_task {
                            let at =
                                start + Duration::from_micros(((t * per_task + i) % 10_000) as u64);
                            tk::time::sleep_until(at).await;
                        }
                    })
                })
                .collect();
            for handle in handles {
                handle.await.expect("sleeping task completes");
            }
        })
    })
}

/// Heap bytes per task that sleeps: 100k tasks (1k in a smoke run) spawned
/// and each parked in a far `sleep`, counted while they all wait (task cell
/// plus timer entry), then the runtime is dropped.
pub fn sleeping_task_bytes(size: &Size) -> f64 {
    let tasks = if size.smoke { 1_000 } else { 100_000 };
    let rt = runtime(size.flavor);
    let bytes = rt.block_on(async move {
        let (ready_tx, mut ready_rx) = tk::sync::mpsc::channel::<()>(tasks);
        let counter = Counter::start();
        for _ in 0..tasks {
            let ready_tx = ready_tx.clone();
            // Registered with the timer before reporting ready.
            tk::spawn(sleep_after_registering(FAR, move || drop(ready_tx)));
        }
        drop(ready_tx);
        while ready_rx.recv().await.is_some() {}
        counter.net_bytes()
    });
    drop(rt);
    bytes as f64 / tasks as f64
}
