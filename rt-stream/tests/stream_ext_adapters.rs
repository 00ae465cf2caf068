//! Behaviour of the adapters that keep the stream shape: their items, their
//! size hints, and that they never poll a stream that has ended.

use std::task::Poll;

use rt_stream::{self as stream, Stream, StreamExt};
use rt_test::{poll_next_once, run, Scripted};

fn items<S: rt_stream::Stream + Unpin>(mut s: S) -> Vec<S::Item> {
    let mut out = Vec::new();
    while let Poll::Ready(Some(item)) = poll_next_once(&mut s) {
        out.push(item);
    }
    out
}

#[test]
fn map_transforms_each_item_and_keeps_the_hint() {
    let s = stream::iter(1..=3).map(|n| n * 2);
    assert_eq!(s.size_hint(), (3, Some(3)));
    assert_eq!(items(s), [2, 4, 6]);
}

#[test]
fn map_passes_pending_through() {
    let (inner, _) = Scripted::new([Poll::Pending, Poll::Ready(Some(1))]);
    let mut s = inner.map(|n: i32| n + 1);
    assert_eq!(poll_next_once(&mut s), Poll::Pending);
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(2)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
}

#[test]
fn map_while_stops_at_first_none_and_stays_ended() {
    let (inner, probe) = Scripted::items([1, 2, -1, 3]);
    let mut s = inner.map_while(|n: i32| (n > 0).then_some(n * 10));
    assert_eq!(s.size_hint(), (0, None));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(10)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(20)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    assert_eq!(probe.polls(), 3);
    assert_eq!(s.size_hint(), (0, Some(0)));
}

#[test]
fn then_runs_one_future_per_item_in_order() {
    let got: Vec<i32> = run(stream::iter(1..=3)
        .then(|n| async move {
            rt_core::task::yield_now().await;
            n * n
        })
        .collect());
    assert_eq!(got, [1, 4, 9]);
}

#[test]
fn then_counts_the_future_in_flight_in_its_hint() {
    let (inner, _) = Scripted::items([1, 2]);
    let inner = inner.with_hint((2, Some(2)));
    let mut s = Box::pin(inner.then(|n: i32| async move {
        rt_core::task::yield_now().await;
        n
    }));
    assert_eq!(s.size_hint(), (2, Some(2)));
    // The first poll takes an item and starts its future, which yields.
    let (_, waker) = rt_test::counting_waker();
    let mut cx = std::task::Context::from_waker(&waker);
    assert!(s.as_mut().poll_next(&mut cx).is_pending());
    assert_eq!(s.size_hint(), (3, Some(3)));
}

#[test]
fn filter_and_filter_map_skip_rejected_items() {
    let s = stream::iter(1..=6).filter(|n| n % 3 == 0);
    assert_eq!(s.size_hint(), (0, Some(6)));
    assert_eq!(items(s), [3, 6]);

    let s = stream::iter(["1", "x", "3"]).filter_map(|w| w.parse::<u8>().ok());
    assert_eq!(s.size_hint(), (0, Some(3)));
    assert_eq!(items(s), [1, 3]);
}

#[test]
fn filter_keeps_looking_past_rejected_items_until_pending() {
    let (inner, _) = Scripted::new([Poll::Ready(Some(1)), Poll::Pending, Poll::Ready(Some(2))]);
    let mut s = inner.filter(|n: &i32| n % 2 == 0);
    assert_eq!(poll_next_once(&mut s), Poll::Pending);
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(2)));
}

#[test]
fn fuse_answers_none_forever_without_polling_again() {
    let (inner, probe) = Scripted::items([1]);
    let mut s = inner.fuse();
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(1)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    for _ in 0..3 {
        assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    }
    assert_eq!(probe.polls(), 2);
    assert_eq!(s.size_hint(), (0, Some(0)));
    assert!(futures_core::FusedStream::is_terminated(&s));
}

#[test]
fn take_yields_at_most_n_and_stops_polling() {
    let (inner, probe) = Scripted::items([1, 2, 3, 4]);
    let mut s = inner.take(2);
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(1)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(2)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    assert_eq!(probe.polls(), 2);
    assert_eq!(s.size_hint(), (0, Some(0)));
}

#[test]
fn take_is_fused_when_the_inner_stream_ends_early() {
    let (inner, probe) = Scripted::items([1]);
    let mut s = inner.take(5);
    assert_eq!(items(&mut s), [1]);
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    assert_eq!(probe.polls(), 2);
}

#[test]
fn take_hint_is_capped_by_n() {
    assert_eq!(stream::iter(0..10).take(3).size_hint(), (3, Some(3)));
    assert_eq!(stream::iter(0..2).take(3).size_hint(), (2, Some(2)));
    assert_eq!(stream::pending::<u8>().take(3).size_hint(), (0, Some(0)));
    assert_eq!(rt_test::Always(1).take(4).size_hint(), (0, Some(4)));
    assert_eq!(stream::iter(0..10).take(0).size_hint(), (0, Some(0)));
}

#[test]
fn take_while_ends_at_first_rejected_item_and_stays_ended() {
    let (inner, probe) = Scripted::items([1, 2, 5, 1]);
    let mut s = inner.take_while(|n: &i32| *n < 3);
    assert_eq!(items(&mut s), [1, 2]);
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    assert_eq!(probe.polls(), 3);
    assert_eq!(s.size_hint(), (0, Some(0)));
}

#[test]
fn skip_drops_the_first_n() {
    let s = stream::iter(1..=5).skip(2);
    assert_eq!(s.size_hint(), (3, Some(3)));
    assert_eq!(items(s), [3, 4, 5]);
    assert_eq!(stream::iter(1..=2).skip(5).size_hint(), (0, Some(0)));
    assert_eq!(items(stream::iter(1..=2).skip(5)), Vec::<i32>::new());
}

#[test]
fn skip_while_skips_a_prefix_only() {
    let s = stream::iter([1, 2, 7, 1, 8]).skip_while(|n| *n < 5);
    assert_eq!(s.size_hint(), (0, Some(5)));
    let mut s = s;
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(7)));
    // Past the prefix the inner hint is exact again.
    assert_eq!(s.size_hint(), (2, Some(2)));
    assert_eq!(items(s), [1, 8]);
}

#[test]
fn chain_yields_first_then_second_and_sums_hints() {
    let (first, probe) = Scripted::items([1, 2]);
    let first = first.with_hint((2, Some(2)));
    let mut s = first.chain(stream::iter([3]));
    assert_eq!(s.size_hint(), (3, Some(3)));
    assert_eq!(items(&mut s), [1, 2, 3]);
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    // The first stream was polled to its end once, never after.
    assert_eq!(probe.polls(), 3);
}

#[test]
fn peekable_peek_does_not_consume() {
    run(async {
        let mut s = stream::iter([1, 2]).peekable();
        assert_eq!(s.peek().await, Some(&1));
        assert_eq!(s.peek().await, Some(&1));
        assert_eq!(s.size_hint(), (2, Some(2)));
        assert_eq!(s.next().await, Some(1));
        assert_eq!(s.next().await, Some(2));
        assert_eq!(s.peek().await, None);
        assert_eq!(s.next().await, None);
    });
}

#[test]
fn peekable_keeps_an_item_that_arrives_while_peeking() {
    let (inner, probe) = Scripted::new([Poll::Pending, Poll::Ready(Some(9))]);
    let mut s = Box::pin(inner.peekable());
    let (_, waker) = rt_test::counting_waker();
    let mut cx = std::task::Context::from_waker(&waker);
    assert!(s.as_mut().poll_peek(&mut cx).is_pending());
    assert_eq!(s.as_mut().poll_peek(&mut cx), Poll::Ready(Some(&9)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(9)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    assert_eq!(probe.polls(), 3);
}

#[test]
fn adapters_work_on_boxed_dyn_streams() {
    let boxed: std::pin::Pin<Box<dyn rt_stream::Stream<Item = u8>>> =
        Box::pin(stream::iter([4, 5]));
    let got: Vec<u8> = run(boxed.map(|n| n + 1).collect());
    assert_eq!(got, [5, 6]);
}

#[test]
fn skip_while_and_take_while_pass_pending_through() {
    let (inner, _) = Scripted::new([
        Poll::Ready(Some(1)),
        Poll::Pending,
        Poll::Ready(Some(5)),
        Poll::Ready(Some(2)),
    ]);
    let mut s = inner.skip_while(|n: &i32| *n < 3);
    assert_eq!(poll_next_once(&mut s), Poll::Pending);
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(5)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(2)));

    let (inner, _) = Scripted::new([Poll::Pending, Poll::Ready(Some(1)), Poll::Ready(Some(9))]);
    let mut s = inner.take_while(|n: &i32| *n < 3);
    assert_eq!(poll_next_once(&mut s), Poll::Pending);
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(1)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
}

#[test]
fn chain_waits_on_the_first_stream_before_moving_on() {
    let (first, _) = Scripted::new([Poll::Pending, Poll::Ready(Some(1))]);
    let (second, second_probe) = Scripted::items([2]);
    let mut s = first.chain(second);
    assert_eq!(poll_next_once(&mut s), Poll::Pending);
    assert_eq!(second_probe.polls(), 0);
    assert_eq!(items(s), [1, 2]);
}

#[test]
fn then_keeps_its_future_across_pending_polls() {
    let started = std::cell::Cell::new(0);
    let (inner, probe) = Scripted::items([1, 2]);
    let mut s = Box::pin(inner.then(|n: i32| {
        started.set(started.get() + 1);
        async move {
            rt_core::task::yield_now().await;
            n * 100
        }
    }));
    assert_eq!(poll_next_once(&mut s), Poll::Pending);
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(100)));
    assert_eq!((started.get(), probe.polls()), (1, 1));
    assert_eq!(poll_next_once(&mut s), Poll::Pending);
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(200)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    assert_eq!(started.get(), 2);
}
