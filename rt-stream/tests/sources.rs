//! Behaviour of the plain constructors: `iter`, `once`, `empty`, `pending`.

use std::task::Poll;

use rt_stream::{self as stream, Stream, StreamExt};
use rt_test::{poll_next_once, run};

#[test]
fn iter_yields_every_item_with_an_exact_hint() {
    let mut s = stream::iter(vec!['a', 'b']);
    assert_eq!(s.size_hint(), (2, Some(2)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some('a')));
    assert_eq!(s.size_hint(), (1, Some(1)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some('b')));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
}

#[test]
fn iter_spends_the_coop_budget_and_yields_when_it_is_spent() {
    // Under a budget of 4 units, the fifth item must wait for a new poll.
    let mut s = stream::iter(0..10);
    let (wakes, waker) = rt_test::counting_waker();
    let mut cx = std::task::Context::from_waker(&waker);
    let polled = rt_core::task::coop::with_budget(4, || {
        let mut got = Vec::new();
        while let Poll::Ready(Some(n)) = std::pin::Pin::new(&mut s).poll_next(&mut cx) {
            got.push(n);
        }
        got
    });
    assert_eq!(polled, [0, 1, 2, 3]);
    assert_eq!(wakes.count(), 1);
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(4)));
}

#[test]
fn a_long_iter_does_not_starve_other_tasks() {
    let got = run(async {
        let other = rt_core::spawn(async { 7 });
        let total: u64 = stream::iter(0..10_000u64).fold(0, |a, b| a + b).await;
        (total, other.await.unwrap())
    });
    assert_eq!(got, (49_995_000, 7));
}

#[test]
fn once_yields_one_item() {
    let mut s = stream::once("x");
    assert_eq!(s.size_hint(), (1, Some(1)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some("x")));
    assert_eq!(s.size_hint(), (0, Some(0)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
}

#[test]
fn empty_ends_at_once_and_pending_never_yields() {
    let mut e = stream::empty::<u8>();
    assert_eq!(e.size_hint(), (0, Some(0)));
    assert_eq!(poll_next_once(&mut e), Poll::Ready(None));

    let mut p = stream::pending::<u8>();
    for _ in 0..3 {
        assert_eq!(poll_next_once(&mut p), Poll::Pending);
    }
}

#[test]
fn pending_is_a_placeholder_that_merge_waits_on() {
    let mut s = stream::iter([1]).merge(stream::pending());
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(1)));
    assert_eq!(poll_next_once(&mut s), Poll::Pending);
    let _ = run(async { stream::empty::<u8>().next().await });
}
