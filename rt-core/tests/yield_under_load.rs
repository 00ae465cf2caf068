//! A task that yields still runs again while other tasks keep the
//! scheduler's queue full (tokio's `ping_pong_saturation`), and a task
//! that yields alone lets the driver be polled within a few yields.

use rt_core::runtime::{Builder, Driver, ParkThread, Unpark};
use rt_core::task;
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
    let running = Arc::new(AtomicBool::new(true));
    rt.block_on(async {
        let pairs: Vec<_> = (0..8).flat_map(|_| spawn_ping_pong(&running)).collect();
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

/// `ParkThread`, counting the polls that do not block.
struct CountingDriver {
    inner: ParkThread,
    polls: Arc<AtomicUsize>,
}

impl Driver for CountingDriver {
    fn park(&mut self, timeout: Option<Duration>) {
        if timeout == Some(Duration::ZERO) {
            self.polls.fetch_add(1, Ordering::Relaxed);
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
fn a_lone_yield_loop_polls_the_driver_every_few_yields() {
    let polls = Arc::new(AtomicUsize::new(0));
    let counted = polls.clone();
    let rt = Builder::new_multi_thread()
        .worker_threads(1)
        .event_interval(1_000_000)
        .base_driver(move |_| {
            Ok(Box::new(CountingDriver {
                inner: ParkThread::new(),
                polls: counted,
            }))
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
