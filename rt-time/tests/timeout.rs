//! `timeout` / `timeout_at`: results, poll order, the coop budget, and
//! timeouts racing the completion of their future.

#![cfg(feature = "test-util")]

use rt_core::task::coop;
use rt_time::error::Elapsed;
use rt_time::{sleep, timeout, timeout_at, Duration, Instant};
use std::future::Future;
use std::task::Poll;

#[test]
fn completes_before_the_deadline() {
    rt_test::time_runtime(false).block_on(async {
        let out = timeout(Duration::from_secs(5), async {
            sleep(Duration::from_millis(1)).await;
            3
        })
        .await;
        assert_eq!(out, Ok(3));
    });
}

#[test]
fn elapses_with_a_clear_error() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let err = timeout(Duration::from_millis(30), std::future::pending::<()>())
            .await
            .unwrap_err();
        assert_eq!(start.elapsed(), Duration::from_millis(30));
        assert_eq!(err.to_string(), "deadline has elapsed");
        let io: std::io::Error = err.into();
        assert_eq!(io.kind(), std::io::ErrorKind::TimedOut);
    });
}

#[test]
fn timeout_at_uses_the_instant() {
    rt_test::time_runtime(true).block_on(async {
        let deadline = Instant::now() + Duration::from_secs(2);
        let result = timeout_at(deadline, sleep(Duration::from_secs(3))).await;
        assert!(matches!(result, Err(Elapsed { .. })));
        assert_eq!(Instant::now(), deadline);
    });
}

#[test]
fn the_inner_future_is_polled_first() {
    rt_test::time_runtime(false).block_on(async {
        // Deadline already passed, but the value is ready: it wins.
        assert_eq!(timeout(Duration::ZERO, async { 1 }).await, Ok(1));
        let past = Instant::now() - Duration::from_secs(1);
        assert_eq!(timeout_at(past, async { 2 }).await, Ok(2));
    });
}

#[test]
fn an_overflowing_duration_never_elapses() {
    rt_test::time_runtime(false).block_on(async {
        assert_eq!(timeout(Duration::MAX, async { 4 }).await, Ok(4));
    });
}

#[test]
fn the_deadline_is_seen_when_the_inner_future_spends_the_budget() {
    // A real clock: a task that never idles also never lets a paused clock
    // auto-advance.
    rt_test::time_runtime(false).block_on(async {
        // Spends every unit it is given and never completes.
        let greedy = std::future::poll_fn(|cx| loop {
            match coop::poll_proceed(cx) {
                Poll::Ready(guard) => guard.made_progress(),
                Poll::Pending => return Poll::<()>::Pending,
            }
        });
        let result = timeout(Duration::from_millis(10), greedy).await;
        assert!(result.is_err());
    });
}

#[test]
fn timeouts_racing_completion_pick_the_earlier() {
    let rt = rt_test::time_runtime(true);
    rt.block_on(async {
        let mut handles = Vec::new();
        for work in 1..40u64 {
            for limit in [work - 1, work + 1] {
                handles.push(rt_core::spawn(async move {
                    let result = timeout(
                        Duration::from_millis(limit),
                        sleep(Duration::from_millis(work)),
                    )
                    .await;
                    (work, limit, result.is_ok())
                }));
            }
        }
        for handle in handles {
            let (work, limit, ok) = handle.await.unwrap();
            assert_eq!(ok, work < limit, "work {work} ms, limit {limit} ms");
        }
    });
}

#[test]
fn equal_deadlines_let_the_value_win() {
    rt_test::time_runtime(true).block_on(async {
        let deadline = Instant::now() + Duration::from_millis(25);
        let result = timeout_at(deadline, rt_time::sleep_until(deadline)).await;
        assert_eq!(result, Ok(()));
    });
}

#[test]
fn the_deadline_is_fixed_at_creation_not_at_the_first_poll() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let late_polled = timeout(Duration::from_millis(30), std::future::pending::<()>());
        rt_time::advance(Duration::from_millis(10)).await;
        assert!(late_polled.await.is_err());
        assert_eq!(start.elapsed(), Duration::from_millis(30));
    });
}

/// Pending forever; counts its polls.
struct CountPolls {
    polls: u32,
}

impl std::future::Future for CountPolls {
    type Output = ();

    fn poll(mut self: std::pin::Pin<&mut Self>, _cx: &mut std::task::Context<'_>) -> Poll<()> {
        self.polls += 1;
        Poll::Pending
    }
}

#[test]
fn the_inner_future_is_reachable_before_and_after_polling() {
    rt_test::time_runtime(false).block_on(async {
        let mut t = timeout(Duration::from_secs(60), CountPolls { polls: 0 });
        t.get_mut().polls = 10;
        let mut t = Box::pin(t);
        let first = std::future::poll_fn(|cx| Poll::Ready(t.as_mut().poll(cx))).await;
        assert!(first.is_pending());
        assert_eq!(t.get_ref().polls, 11);
        let t = timeout(Duration::from_secs(60), CountPolls { polls: 3 });
        assert_eq!(t.into_inner().polls, 3);
    });
}

#[test]
fn timeout_outside_a_runtime_panics_at_creation() {
    let err = std::panic::catch_unwind(|| {
        drop(timeout(Duration::from_millis(1), async { 1 }));
    })
    .unwrap_err();
    let message = panic_message(&err);
    assert!(
        message.contains("must be called from the context of an rt runtime"),
        "{message}"
    );
}

#[test]
fn timeout_in_a_runtime_without_timers_panics_at_creation() {
    let rt = rt_core::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let err = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _guard = rt.enter();
        drop(timeout_at(Instant::now(), async { 1 }));
    }))
    .unwrap_err();
    let message = panic_message(&err);
    assert!(message.contains("timers are disabled"), "{message}");
}

fn panic_message(err: &Box<dyn std::any::Any + Send>) -> String {
    err.downcast_ref::<String>()
        .cloned()
        .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}
