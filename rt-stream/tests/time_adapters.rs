//! The time-based adapters (`timeout`, `timeout_repeating`, `throttle`,
//! `chunks_timeout`) and `IntervalStream` on rt-time's paused clock, where
//! every instant an item comes out at is exact.

#![cfg(feature = "time")]

use std::future::pending;
use std::pin::pin;
use std::time::Duration;

use rt_stream::wrappers::IntervalStream;
use rt_stream::{self as stream, stream_fn, Elapsed, Stream, StreamExt};
use rt_time::{interval, interval_at, sleep_until, Instant};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// Milliseconds since `start` on the runtime's clock.
fn at(start: Instant) -> u64 {
    start.elapsed().as_millis() as u64
}

/// A stream yielding each `(ms, item)` of `plan` once the clock reaches
/// `ms` after `start`; afterwards it ends, or stays silent forever if
/// `then_silent`.
fn scheduled(start: Instant, plan: Vec<(u64, u32)>, then_silent: bool) -> impl Stream<Item = u32> {
    stream_fn(move |mut tx| async move {
        for (when, item) in plan {
            sleep_until(start + ms(when)).await;
            tx.send(item).await;
        }
        if then_silent {
            pending::<()>().await;
        }
    })
}

/// Reads `n` items from `stream`, each with the millisecond it came out at.
async fn timed<S: Stream + Unpin>(start: Instant, stream: &mut S, n: usize) -> Vec<(u64, S::Item)> {
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let item = stream.next().await.expect("stream ended early");
        out.push((at(start), item));
    }
    out
}

/// Whether `stream` yields nothing within an hour of paused time.
async fn stays_silent<S: Stream + Unpin>(stream: &mut S) -> bool {
    rt_time::timeout(Duration::from_secs(3600), stream.next())
        .await
        .is_err()
}

/// An adapter's item with the error reduced to "a timeout happened".
fn erase(item: Result<u32, Elapsed>) -> Result<u32, ()> {
    item.map_err(|elapsed| assert_eq!(elapsed.to_string(), "deadline has elapsed"))
}

#[test]
fn timeout_fires_exactly_at_the_deadline_and_restarts_with_each_item() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let source = scheduled(start, vec![(30, 1), (60, 2), (200, 3)], true);
        let mut s = pin!(source.timeout(ms(50)).map(erase));
        let got = timed(start, &mut s, 5).await;
        let e = Err(());
        assert_eq!(
            got,
            [
                (30, Ok(1)),
                (60, Ok(2)),
                // 50 ms after the last item, not after the first.
                (110, e),
                // Only one error per silence: none at 160.
                (200, Ok(3)),
                (250, e),
            ]
        );
        assert!(stays_silent(&mut s).await);
    });
}

#[test]
fn timeout_counts_its_first_deadline_from_when_it_was_built() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let mut s = pin!(stream::pending::<u32>().timeout(ms(40)).map(erase));
        rt_time::sleep(ms(15)).await;
        assert_eq!(timed(start, &mut s, 1).await, [(40, Err(()))]);
        assert!(stays_silent(&mut s).await);
    });
}

#[test]
fn timeout_lets_a_ready_item_win_over_a_passed_deadline() {
    rt_test::time_runtime(true).block_on(async {
        let mut s = pin!(stream::iter([1, 2]).timeout(ms(10)).map(erase));
        // Both deadlines pass while nobody reads.
        rt_time::sleep(ms(100)).await;
        assert_eq!(s.next().await, Some(Ok(1)));
        assert_eq!(s.next().await, Some(Ok(2)));
        assert_eq!(s.next().await, None);
    });
}

#[test]
fn timeout_size_hint_allows_an_error_around_every_item() {
    rt_test::time_runtime(true).block_on(async {
        let s = stream::iter([1, 2, 3]).timeout(ms(10));
        assert_eq!(s.size_hint(), (3, Some(7)));
        let s = stream::pending::<u8>().timeout(ms(10));
        assert_eq!(s.size_hint(), (0, Some(1)));
    });
}

#[test]
fn timeout_repeating_errs_every_period_until_an_item_restarts_it() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let source = scheduled(start, vec![(120, 7)], true);
        let period = ms(50);
        let ticks = interval_at(start + period, period);
        let mut s = pin!(source.timeout_repeating(ticks).map(erase));
        assert_eq!(
            timed(start, &mut s, 5).await,
            [
                (50, Err(())),
                (100, Err(())),
                (120, Ok(7)),
                // The item moved the schedule: one period after it.
                (170, Err(())),
                (220, Err(())),
            ]
        );
        assert_eq!(s.size_hint(), (0, None));
    });
}

#[test]
fn throttle_spaces_items_by_the_duration() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let mut s = pin!(stream::iter(1..=4).throttle(ms(30)));
        assert_eq!(s.size_hint(), (4, Some(4)));
        assert_eq!(
            timed(start, &mut s, 4).await,
            [(0, 1), (30, 2), (60, 3), (90, 4)]
        );
        assert_eq!(s.next().await, None);
        assert_eq!(s.next().await, None);
    });
}

#[test]
fn throttle_adds_no_wait_to_an_already_slow_stream() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let source = scheduled(start, vec![(0, 1), (100, 2), (110, 3)], false);
        let mut s = pin!(source.throttle(ms(30)));
        assert_eq!(
            timed(start, &mut s, 3).await,
            // 100 is well past 0 + 30; 110 is held back to 100 + 30.
            [(0, 1), (100, 2), (130, 3)]
        );
        assert_eq!(s.next().await, None);
    });
}

#[test]
fn throttle_gives_its_stream_back() {
    rt_test::time_runtime(true).block_on(async {
        let mut s = stream::iter(1..=3).throttle(ms(30));
        assert_eq!(s.get_ref().size_hint(), (3, Some(3)));
        assert_eq!(s.get_mut().next().await, Some(1));
        let mut rest = s.into_inner();
        assert_eq!(rest.next().await, Some(2));
    });
}

#[test]
fn throttle_with_a_zero_duration_never_waits() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let mut s = pin!(stream::iter(1..=3).throttle(Duration::ZERO));
        assert_eq!(timed(start, &mut s, 3).await, [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(s.next().await, None);
    });
}

#[test]
fn throttle_and_chunks_timeout_build_outside_a_runtime() {
    // Their sleep is created at its first arming, inside the runtime.
    let throttle = stream::iter(1..=2).throttle(ms(20));
    let chunks = stream::iter(1..=3).chunks_timeout(2, ms(20));
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let mut throttle = pin!(throttle);
        assert_eq!(timed(start, &mut throttle, 2).await, [(0, 1), (20, 2)]);
        let mut chunks = pin!(chunks);
        assert_eq!(chunks.next().await, Some(vec![1, 2]));
        assert_eq!(chunks.next().await, Some(vec![3]));
        assert_eq!(chunks.next().await, None);
    });
}

#[test]
fn chunks_timeout_sends_full_chunks_at_once() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let mut s = pin!(stream::iter(1..=7).chunks_timeout(3, Duration::from_secs(1)));
        assert_eq!(s.size_hint(), (3, Some(7)));
        assert_eq!(
            timed(start, &mut s, 3).await,
            [(0, vec![1, 2, 3]), (0, vec![4, 5, 6]), (0, vec![7])]
        );
        assert_eq!(s.next().await, None);
        assert_eq!(s.next().await, None);
        assert_eq!(at(start), 0);
    });
}

#[test]
fn chunks_timeout_sends_a_partial_chunk_at_its_deadline() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let plan = vec![(0, 1), (10, 2), (20, 3), (100, 4), (130, 5)];
        let mut s = pin!(scheduled(start, plan, true).chunks_timeout(5, ms(50)));
        assert_eq!(
            timed(start, &mut s, 2).await,
            // Each chunk's clock starts with its own first item.
            [(50, vec![1, 2, 3]), (150, vec![4, 5])]
        );
        // An empty chunk never goes out.
        assert!(stays_silent(&mut s).await);
    });
}

#[test]
fn chunks_timeout_flushes_its_partial_chunk_when_the_stream_ends() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let plan = vec![(0, 1), (10, 2)];
        let mut s = pin!(scheduled(start, plan, false).chunks_timeout(5, ms(50)));
        assert_eq!(timed(start, &mut s, 1).await, [(10, vec![1, 2])]);
        assert_eq!(s.next().await, None);
        assert_eq!(s.next().await, None);
    });
}

#[test]
#[should_panic(expected = "`max_size` must be non-zero.")]
fn chunks_timeout_refuses_a_zero_max_size() {
    let _ = stream::iter([1]).chunks_timeout(0, ms(1));
}

#[test]
fn every_adapter_keeps_answering_none_after_its_stream_ended() {
    rt_test::time_runtime(true).block_on(async {
        let mut timeout = pin!(stream::iter([1]).timeout(ms(5)));
        let mut repeating = pin!(stream::iter([1]).timeout_repeating(interval(ms(5))));
        let mut throttle = pin!(stream::iter([1]).throttle(ms(5)));
        let mut chunks = pin!(stream::iter([1]).chunks_timeout(2, ms(5)));
        assert!(matches!(timeout.next().await, Some(Ok(1))));
        assert!(matches!(repeating.next().await, Some(Ok(1))));
        assert_eq!(throttle.next().await, Some(1));
        assert_eq!(chunks.next().await, Some(vec![1]));
        for _ in 0..3 {
            // Long past every timer, still nothing but the end.
            rt_time::sleep(ms(100)).await;
            assert!(timeout.next().await.is_none());
            assert!(repeating.next().await.is_none());
            assert!(throttle.next().await.is_none());
            assert!(chunks.next().await.is_none());
        }
    });
}

#[test]
fn interval_stream_yields_each_tick_at_its_instant() {
    rt_test::time_runtime(true).block_on(async {
        let start = Instant::now();
        let mut ticks = IntervalStream::new(interval(ms(10)));
        assert_eq!(ticks.size_hint(), (usize::MAX, None));
        assert_eq!(ticks.as_ref().period(), ms(10));
        let got = timed(start, &mut ticks, 4).await;
        let when: Vec<u64> = got.iter().map(|(when, _)| *when).collect();
        assert_eq!(when, [0, 10, 20, 30]);
        for (when, due) in got {
            assert_eq!(due, start + ms(when));
        }
        ticks.as_mut().reset();
        let interval = ticks.into_inner();
        assert_eq!(interval.period(), ms(10));
    });
}

#[test]
fn the_adapters_are_send_and_sync_when_their_stream_is() {
    fn assert_send_sync<T: Send + Sync>(_: &T) {}
    rt_test::time_runtime(true).block_on(async {
        assert_send_sync(&stream::iter([1]).timeout(ms(1)));
        assert_send_sync(&stream::iter([1]).timeout_repeating(interval(ms(1))));
        assert_send_sync(&stream::iter([1]).throttle(ms(1)));
        assert_send_sync(&stream::iter([1]).chunks_timeout(2, ms(1)));
        assert_send_sync(&IntervalStream::new(interval(ms(1))));
    });
}

#[test]
fn durations_past_the_end_of_time_do_not_overflow() {
    rt_test::time_runtime(true).block_on(async {
        let mut timeout = pin!(stream::iter([1]).timeout(Duration::MAX));
        assert!(matches!(timeout.next().await, Some(Ok(1))));
        assert!(timeout.next().await.is_none());
        let mut chunks = pin!(stream::iter([1]).chunks_timeout(4, Duration::MAX));
        assert_eq!(chunks.next().await, Some(vec![1]));
        assert_eq!(chunks.next().await, None);
        let mut throttle = pin!(stream::iter([1, 2]).throttle(Duration::MAX));
        assert_eq!(throttle.next().await, Some(1));
        // The second item waits "forever".
        assert!(stays_silent(&mut throttle).await);
    });
}
