//! `sleep` / `sleep_until` / `Sleep` behaviour on a real and a paused clock.

#![cfg(feature = "test-util")]

use rt_time::{sleep, sleep_until, Duration, Instant};
use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};

#[test]
fn sleep_waits_at_least_its_duration() {
    rt_test::time_runtime(false).block_on(async {
        let start = Instant::now();
        sleep(Duration::from_millis(20)).await;
        assert!(start.elapsed() >= Duration::from_millis(20));
    });
}

#[test]
fn sub_millisecond_deadlines_never_end_early() {
    rt_test::time_runtime(false).block_on(async {
        // Deadlines at every phase inside a millisecond, one after another
        // and then all at once: each sleep ends at or after its deadline.
        for i in 0..40u64 {
            let deadline = Instant::now() + Duration::from_micros(i * 97 % 2_000);
            sleep_until(deadline).await;
            assert!(Instant::now() >= deadline, "sleep {i} ended early");
        }
        let tasks: Vec<_> = (0..200u64)
            .map(|i| {
                rt_core::task::spawn(async move {
                    let deadline = Instant::now() + Duration::from_micros(i * 13 % 1_500);
                    sleep_until(deadline).await;
                    Instant::now() >= deadline
                })
            })
            .collect();
        for task in tasks {
            assert!(task.await.unwrap(), "a concurrent sleep ended early");
        }
    });
}

#[test]
fn zero_and_past_deadlines_complete() {
    rt_test::time_runtime(false).block_on(async {
        sleep(Duration::ZERO).await;
        sleep_until(Instant::now() - Duration::from_millis(5)).await;
    });
}

#[test]
fn sleeps_complete_in_deadline_order() {
    let rt = rt_test::time_runtime(true);
    let order = Arc::new(Mutex::new(Vec::new()));
    rt.block_on(async {
        let mut handles = Vec::new();
        for ms in [50u64, 10, 40, 20, 30, 10_000, 1] {
            let order = order.clone();
            handles.push(rt_core::spawn(async move {
                sleep(Duration::from_millis(ms)).await;
                order.lock().unwrap().push(ms);
            }));
        }
        for handle in handles {
            handle.await.unwrap();
        }
    });
    assert_eq!(*order.lock().unwrap(), [1, 10, 20, 30, 40, 50, 10_000]);
}

#[test]
fn reset_moves_the_deadline_both_ways() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let mut sleep = pin!(sleep(Duration::from_secs(10)));
        assert_eq!(sleep.deadline(), start + Duration::from_secs(10));
        // Poll once so that it is registered, then bring it closer.
        assert!(futures_poll(sleep.as_mut()).is_pending());
        sleep.as_mut().reset(start + Duration::from_millis(5));
        sleep.as_mut().await;
        assert_eq!(start.elapsed(), Duration::from_millis(5));
        assert!(sleep.is_elapsed());
        // Reset after completion: it waits again.
        sleep
            .as_mut()
            .reset(Instant::now() + Duration::from_secs(60));
        assert!(!sleep.is_elapsed());
        assert!(futures_poll(sleep.as_mut()).is_pending());
        sleep.as_mut().await;
        assert_eq!(start.elapsed(), Duration::from_millis(60_005));
    });
}

#[test]
fn dropping_sleeps_in_every_state_is_clean() {
    rt_test::time_runtime(true).block_on(async {
        drop(sleep(Duration::from_secs(1)));
        let mut registered = Box::pin(sleep(Duration::from_secs(1)));
        assert!(futures_poll(registered.as_mut()).is_pending());
        drop(registered);
        let mut fired = Box::pin(sleep(Duration::from_millis(1)));
        fired.as_mut().await;
        drop(fired);
        // The wheel is still usable.
        sleep(Duration::from_millis(3)).await;
    });
}

#[test]
fn far_deadlines_never_fire_and_never_panic() {
    rt_test::time_runtime(true).block_on(async {
        let mut forever = Box::pin(sleep(Duration::MAX));
        let mut years = Box::pin(sleep(Duration::from_secs(86_400 * 365 * 5)));
        assert!(futures_poll(forever.as_mut()).is_pending());
        assert!(futures_poll(years.as_mut()).is_pending());
        sleep(Duration::from_secs(86_400 * 365)).await;
        assert!(futures_poll(forever.as_mut()).is_pending());
        assert!(futures_poll(years.as_mut()).is_pending());
        // Past the wheel's two-year span: the five-year sleep still fires
        // exactly when due.
        let start = Instant::now();
        years.as_mut().await;
        assert!(Instant::now() >= years.deadline());
        assert!(start.elapsed() < Duration::from_secs(86_400 * 365 * 4 + 1));
        assert!(futures_poll(forever.as_mut()).is_pending());
    });
}

#[test]
fn sleep_outside_a_runtime_panics_with_guidance() {
    let err = std::panic::catch_unwind(|| drop(sleep(Duration::from_millis(1)))).unwrap_err();
    let message = panic_message(&err);
    assert!(
        message.contains("must be called from the context of an rt runtime"),
        "{message}"
    );
}

#[test]
fn sleep_in_a_runtime_without_timers_panics_with_guidance() {
    let rt = rt_core::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let err = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _guard = rt.enter();
        drop(sleep(Duration::from_millis(1)));
    }))
    .unwrap_err();
    let message = panic_message(&err);
    assert!(
        message.contains("timers are disabled. Call `enable_time` on the runtime builder"),
        "{message}"
    );
}

#[test]
fn runtime_shutdown_with_pending_sleeps_does_not_hang() {
    let rt = rt_test::time_runtime(false);
    rt.block_on(async {
        for _ in 0..10 {
            rt_core::spawn(async { sleep(Duration::from_secs(3600)).await });
        }
        rt_core::task::yield_now().await;
    });
    drop(rt);
}

/// Sets a flag and wakes the `block_on` future waiting for it.
struct Signal {
    fired: AtomicBool,
    waiter: Mutex<Option<Waker>>,
}

impl Wake for Signal {
    fn wake(self: Arc<Self>) {
        self.fired.store(true, Ordering::SeqCst);
        if let Some(waker) = self.waiter.lock().unwrap().take() {
            waker.wake();
        }
    }
}

#[test]
fn a_timer_registered_from_another_thread_wakes_the_parked_driver() {
    let rt = rt_test::time_runtime(false);
    let signal = Arc::new(Signal {
        fired: AtomicBool::new(false),
        waiter: Mutex::new(None),
    });
    let start = std::time::Instant::now();
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let other = {
        let handle = rt.handle().clone();
        let signal = signal.clone();
        std::thread::spawn(move || {
            // Wait until the runtime thread is inside `block_on`.
            ready_rx.recv().unwrap();
            let _guard = handle.enter();
            // Long enough that its first poll, even under valgrind on a
            // loaded machine, comes before the deadline; far shorter than
            // the 60 s the driver is parked for.
            let mut sleep = Box::pin(sleep(Duration::from_millis(500)));
            let waker = Waker::from(signal.clone());
            let mut cx = Context::from_waker(&waker);
            assert!(sleep.as_mut().poll(&mut cx).is_pending());
            // Keep the sleep alive until it fired.
            while !signal.fired.load(Ordering::SeqCst) {
                std::thread::park_timeout(std::time::Duration::from_millis(50));
            }
            assert!(sleep.as_mut().poll(&mut cx).is_ready());
        })
    };
    rt.block_on(async {
        let mut long = pin!(sleep(Duration::from_secs(60)));
        let mut told = false;
        std::future::poll_fn(|cx| {
            *signal.waiter.lock().unwrap() = Some(cx.waker().clone());
            if signal.fired.load(Ordering::SeqCst) {
                return Poll::Ready(());
            }
            if long.as_mut().poll(cx).is_ready() {
                panic!("the 60 s sleep fired first");
            }
            if !told {
                told = true;
                ready_tx.send(()).unwrap();
            }
            Poll::Pending
        })
        .await;
    });
    other.join().unwrap();
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
}

/// A waker that does nothing.
struct NoWake;

impl Wake for NoWake {
    fn wake(self: Arc<Self>) {}
}

fn futures_poll<F: Future>(future: std::pin::Pin<&mut F>) -> Poll<F::Output> {
    let waker = Waker::from(Arc::new(NoWake));
    let mut cx = Context::from_waker(&waker);
    future.poll(&mut cx)
}

fn panic_message(err: &Box<dyn std::any::Any + Send>) -> String {
    err.downcast_ref::<String>()
        .cloned()
        .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[test]
fn a_sleep_polled_after_its_runtime_shut_down_panics_clearly() {
    let rt = rt_test::time_runtime(false);
    let mut sleep = {
        let _guard = rt.enter();
        Box::pin(sleep(Duration::from_secs(3600)))
    };
    assert!(futures_poll(sleep.as_mut()).is_pending());
    drop(rt);
    let err = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = futures_poll(sleep.as_mut());
    }))
    .unwrap_err();
    assert!(panic_message(&err).contains("being shut down"));
    drop(sleep);
}
