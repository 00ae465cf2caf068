//! A million concurrent sleeps on a paused clock complete, in deadline
//! order, with memory that is given back. In debug builds the count is
//! 100 000 to keep the run short, and under Miri 100; `cargo test
//! --release` runs the full million.

#![cfg(feature = "test-util")]

use rt_time::{sleep_until, Duration, Instant, Sleep};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};

const COUNT: usize = if cfg!(miri) {
    100
} else if cfg!(debug_assertions) {
    100_000
} else {
    1_000_000
};

/// Queues the index of the sleep it belongs to and wakes the driving task.
struct ReadyQueue {
    ready: Mutex<(VecDeque<usize>, Option<Waker>)>,
}

struct SleepWaker {
    index: usize,
    queue: Arc<ReadyQueue>,
}

impl Wake for SleepWaker {
    fn wake(self: Arc<Self>) {
        let mut ready = self.queue.ready.lock().unwrap();
        ready.0.push_back(self.index);
        if let Some(waker) = ready.1.take() {
            waker.wake();
        }
    }
}

#[test]
fn a_million_concurrent_sleeps_complete_in_order() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let queue = Arc::new(ReadyQueue {
            ready: Mutex::new((VecDeque::new(), None)),
        });
        let mut rng = rt_core::util::rng::FastRand::from_seed(11);
        let mut sleeps: Vec<Option<Pin<Box<Sleep>>>> = (0..COUNT)
            .map(|_| {
                let offset = Duration::from_millis(rng.fastrand_n(10_000) as u64);
                Some(Box::pin(sleep_until(start + offset)))
            })
            .collect();
        let wakers: Vec<Waker> = (0..COUNT)
            .map(|index| {
                Waker::from(Arc::new(SleepWaker {
                    index,
                    queue: queue.clone(),
                }))
            })
            .collect();
        // Register every sleep; those due at once complete here.
        let mut remaining = COUNT;
        for (index, slot) in sleeps.iter_mut().enumerate() {
            let mut cx = Context::from_waker(&wakers[index]);
            let sleep = slot.as_mut().unwrap();
            if sleep.as_mut().poll(&mut cx).is_ready() {
                assert!(sleep.deadline() <= start);
                *slot = None;
                remaining -= 1;
            }
        }
        let mut last_deadline = start;
        // One future drives every sleep, so it must not run out of coop
        // budget: a sleep refused for budget would re-queue itself forever.
        rt_core::task::coop::unconstrained(std::future::poll_fn(|cx| {
            loop {
                let next = {
                    let mut ready = queue.ready.lock().unwrap();
                    match ready.0.pop_front() {
                        Some(index) => index,
                        None => {
                            ready.1 = Some(cx.waker().clone());
                            return if remaining == 0 {
                                Poll::Ready(())
                            } else {
                                Poll::Pending
                            };
                        }
                    }
                };
                let Some(sleep) = sleeps[next].as_mut() else {
                    continue;
                };
                let mut sleep_cx = Context::from_waker(&wakers[next]);
                if sleep.as_mut().poll(&mut sleep_cx).is_ready() {
                    let deadline = sleep.deadline();
                    assert!(Instant::now() >= deadline, "fired early");
                    assert!(deadline >= last_deadline, "out of order");
                    last_deadline = deadline;
                    // Free it at once: memory goes back as sleeps complete.
                    sleeps[next] = None;
                    remaining -= 1;
                }
            }
        }))
        .await;
        assert!(sleeps.iter().all(Option::is_none));
        assert!(start.elapsed() <= Duration::from_millis(10_000));
    });
}
