//! Runtimes with nothing to do while one worker is stuck: a task that
//! blocks its worker in a synchronous call (as a poll stuck in a blocking
//! read would) and no other work anywhere. What matters is what the other
//! workers cost meanwhile: the process's CPU time over the stuck period and
//! its voluntary context switches per second, both recorded by the
//! harness beside the wall time (which is the stuck period itself).
//!
//! `eight_runtimes_*` do the same in eight runtimes of one process at
//! once, with one worker of each stuck, and with all of them idle.

use std::time::Duration;

use super::build::runtime;
use super::tk;
use bench_harness::{Size, Stopwatch};

/// How long a worker stays stuck in one sample, in milliseconds (a
/// hundredth in a smoke run).
const STUCK_MILLIS: usize = 200;

/// Runtimes in the eight-runtime workloads.
const RUNTIMES: usize = 8;

fn stuck_period(size: &Size) -> Duration {
    Duration::from_millis(size.count(STUCK_MILLIS) as u64)
}

/// Runs one task to completion on `rt`, so that its workers have started
/// and found nothing more to do before the measured region.
fn settle(rt: &tk::runtime::Runtime) {
    rt.block_on(async {
        tk::spawn(async {}).await.expect("a trivial task completes");
    });
}

/// Blocks the calling thread for `period`: a synchronous call inside a
/// poll.
fn stuck_in_a_blocking_call(period: Duration) {
    std::thread::sleep(period);
}

/// One task blocks its worker for the stuck period; the region is that
/// period, from inside the task.
pub fn stuck_worker(size: &Size) -> f64 {
    let rt = runtime(size.flavor);
    settle(&rt);
    let period = stuck_period(size);
    let stuck = rt.spawn(async move {
        let watch = Stopwatch::start();
        stuck_in_a_blocking_call(period);
        watch.elapsed().as_nanos() as f64
    });
    rt.block_on(stuck).expect("the stuck task completes")
}

/// Eight runtimes, one task in each blocking its worker for the stuck
/// period; the region covers spawning the eight and joining them.
pub fn eight_runtimes_stuck(size: &Size) -> f64 {
    let runtimes: Vec<_> = (0..RUNTIMES).map(|_| runtime(size.flavor)).collect();
    runtimes.iter().for_each(settle);
    let period = stuck_period(size);
    let watch = Stopwatch::start();
    let stuck: Vec<_> = runtimes
        .iter()
        .map(|rt| rt.spawn(async move { stuck_in_a_blocking_call(period) }))
        .collect();
    for (rt, task) in runtimes.iter().zip(stuck) {
        rt.block_on(task).expect("the stuck task completes");
    }
    watch.elapsed().as_nanos() as f64
}

/// Eight runtimes with nothing at all to do for the stuck period.
pub fn eight_runtimes_idle(size: &Size) -> f64 {
    let runtimes: Vec<_> = (0..RUNTIMES).map(|_| runtime(size.flavor)).collect();
    runtimes.iter().for_each(settle);
    let watch = Stopwatch::start();
    std::thread::sleep(stuck_period(size));
    let elapsed = watch.elapsed();
    drop(runtimes);
    elapsed.as_nanos() as f64
}
