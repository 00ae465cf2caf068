//! Behaviour of `StreamExt::merge`: fair turns, waiting on both sides, and
//! ending only when both sides have ended.

use std::task::{Context, Poll};

use rt_stream::{self as stream, Stream, StreamExt};
use rt_test::{counting_waker, poll_next_once, Always, Scripted};

#[test]
fn two_always_ready_streams_take_strict_turns() {
    let mut s = Always('a').merge(Always('b'));
    let got: String = (0..10)
        .map(|_| match poll_next_once(&mut s) {
            Poll::Ready(Some(c)) => c,
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(got, "ababababab");
}

#[test]
fn one_side_pending_lets_the_other_through() {
    let (a, _) = Scripted::new([Poll::Pending, Poll::Pending, Poll::Ready(Some(1))]);
    let mut s = a.merge(stream::iter([10, 20]));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(10)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(20)));
    // `a` is asked first and is still pending; `b` has ended.
    assert_eq!(poll_next_once(&mut s), Poll::Pending);
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(1)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
}

#[test]
fn pending_on_both_sides_leaves_the_waker_with_both() {
    let (a, probe_a) = Scripted::new([Poll::Pending, Poll::Ready(Some(1))]);
    let (b, probe_b) = Scripted::new([Poll::Pending, Poll::Ready(Some(2))]);
    let mut s = a.merge(b);
    let (wakes, waker) = counting_waker();
    let mut cx = Context::from_waker(&waker);
    assert!(std::pin::Pin::new(&mut s).poll_next(&mut cx).is_pending());
    assert!(probe_b.wake());
    assert_eq!(wakes.count(), 1);
    assert!(probe_a.wake());
    assert_eq!(wakes.count(), 2);
}

#[test]
fn ends_once_both_sides_have_ended_and_never_polls_them_again() {
    let (a, probe_a) = Scripted::items([1]);
    let (b, probe_b) = Scripted::items([2, 3]);
    let mut s = a.merge(b);
    let mut got = Vec::new();
    while let Poll::Ready(Some(n)) = poll_next_once(&mut s) {
        got.push(n);
    }
    got.sort();
    assert_eq!(got, [1, 2, 3]);
    for _ in 0..3 {
        assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    }
    assert_eq!((probe_a.polls(), probe_b.polls()), (2, 3));
}

#[test]
fn hint_is_the_sum_of_both_sides() {
    let s = stream::iter(0..3).merge(stream::iter(0..4));
    assert_eq!(s.size_hint(), (7, Some(7)));
    let s = stream::iter(0..3).merge(Always(1));
    assert_eq!(s.size_hint(), (3, None));
}

#[test]
fn chained_merge_gives_the_last_stream_half_the_turns() {
    // Documented caveat: merge more than two streams with StreamMap.
    let mut s = Always(0).merge(Always(1)).merge(Always(2));
    let mut counts = [0usize; 3];
    for _ in 0..400 {
        if let Poll::Ready(Some(n)) = poll_next_once(&mut s) {
            counts[n] += 1;
        }
    }
    assert_eq!(counts, [100, 100, 200]);
}
