//! A task that yields still runs again while other tasks keep the
//! scheduler's queue full (tokio's `ping_pong_saturation`), a task that
//! yields alone lets the driver be polled within a few yields, and a
//! worker busy with a yield loop still steals from a worker that is stuck.

use rt_core::runtime::Builder;
use rt_core::task;
use rt_test::ObservedPark;
use std::future::poll_fn;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};
use std::time::Duration;

/// Two tasks that wake each other for as long as `running` holds, so the
/// run queue is never empty.
fn spawn_ping_pong(running: &Arc<AtomicBool>) -> Vec<task::JoinHandle<()>> {
    let slots: Arc<[Mutex<Option<Waker>>; 2]> = Arc::new(Default::default());
    (0..2)
        .map(|me| {
            let (slots, running) = (slots.clone(), running.clone());
            rt_core::spawn(poll_fn(move |cx| {
                if let Some(other) = slots[1 - me].lock().unwrap().take() {
                    other.wake();
                }
                if !running.load(Ordering::Relaxed) {
                    return Poll::Ready(());
                }
                *slots[me].lock().unwrap() = Some(cx.waker().clone());
                Poll::Pending
            }))
        })
        .collect()
}

fn yielding_task_finishes_under_saturation(rt: rt_core::runtime::Runtime) {
    // Under Miri, fewer pairs keep the queue just as full.
    let pair_count = if cfg!(miri) { 2 } else { 8 };
    let running = Arc::new(AtomicBool::new(true));
    rt.block_on(async {
        let pairs: Vec<_> = (0..pair_count)
            .flat_map(|_| spawn_ping_pong(&running))
            .collect();
        task::yield_now().await;
        let yielder = rt_core::spawn(async {
            for _ in 0..5 {
                task::yield_now().await;
            }
        });
        yielder.await.unwrap();
        running.store(false, Ordering::Relaxed);
        for pair in pairs {
            pair.await.unwrap();
        }
    });
}

#[test]
fn current_thread() {
    yielding_task_finishes_under_saturation(Builder::new_current_thread().build().unwrap());
}

#[test]
fn multi_thread() {
    yielding_task_finishes_under_saturation(
        Builder::new_multi_thread()
            .worker_threads(1)
            .build()
            .unwrap(),
    );
}

#[test]
fn a_lone_yield_loop_polls_the_driver_every_few_yields() {
    let polls = Arc::new(AtomicUsize::new(0));
    let counted = polls.clone();
    let rt = Builder::new_multi_thread()
        .worker_threads(1)
        .event_interval(1_000_000)
        .base_driver(move |_| {
            // Counts the polls that do not block.
            Ok(Box::new(ObservedPark::new(move |timeout| {
                if timeout == Some(Duration::ZERO) {
                    counted.fetch_add(1, Ordering::Relaxed);
                }
            })))
        })
        .build()
        .unwrap();
    let polls_during = rt.block_on(rt.spawn({
        let polls = polls.clone();
        async move {
            let before = polls.load(Ordering::Relaxed);
            for _ in 0..40 {
                task::yield_now().await;
            }
            polls.load(Ordering::Relaxed) - before
        }
    }));
    assert!(polls_during.unwrap() >= 5, "{polls:?}");
}

/// How long a test waits for work that should take milliseconds.
const DEADLINE: Duration = Duration::from_secs(10);

/// Tasks queued on a worker stuck in a long poll run on the other worker,
/// even while all that worker has of its own is a task that keeps
/// yielding. (Yielded tasks used to run again before any steal, so the
/// stuck worker's queue waited for it: under a yield loop, remote spawns
/// a descheduled worker had taken from the injector waited for the loop
/// to end.)
#[test]
fn a_worker_running_a_yield_loop_still_steals() {
    const CHILDREN: usize = 16;
    let rt = Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let (started_tx, started_rx) = std::sync::mpsc::channel();
    let yielder = rt.spawn({
        let stop = stop.clone();
        async move {
            started_tx.send(std::thread::current().id()).unwrap();
            while !stop.load(Ordering::Relaxed) {
                task::yield_now().await;
            }
        }
    });
    let yielder_thread = started_rx.recv_timeout(DEADLINE).unwrap();
    // Spawned from outside, the stuck task lands on either worker; it
    // gives up on the yielder's and is spawned again.
    let mut all_ran = None;
    for _attempt in 0..1_000 {
        let stuck = rt.spawn(async move {
            if std::thread::current().id() == yielder_thread {
                return None;
            }
            let (done_tx, done_rx) = std::sync::mpsc::channel();
            for _ in 0..CHILDREN {
                let done_tx = done_tx.clone();
                // Queued on this worker, which blocks below: only the other
                // worker can run them.
                rt_core::spawn(async move { done_tx.send(()).ok() });
            }
            let ran = (0..CHILDREN)
                .take_while(|_| done_rx.recv_timeout(DEADLINE).is_ok())
                .count();
            Some(ran)
        });
        if let Some(ran) = rt.block_on(stuck).unwrap() {
            all_ran = Some(ran);
            break;
        }
    }
    stop.store(true, Ordering::Relaxed);
    rt.block_on(yielder).unwrap();
    let ran = all_ran.expect("the stuck task never landed on the other worker");
    assert_eq!(
        ran, CHILDREN,
        "tasks queued on a stuck worker waited for it"
    );
}
