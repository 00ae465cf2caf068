//! Behaviour of the methods that consume a stream into one value: `next`,
//! `try_next`, `all`, `any`, `fold` and `collect`.

use std::collections::HashMap;
use std::pin::Pin;
use std::task::Poll;

use rt_stream::{self as stream, StreamExt};
use rt_test::{poll_once, run, Always, Scripted};

#[test]
fn next_borrows_and_loses_nothing_when_dropped() {
    let (mut inner, probe) = Scripted::new([Poll::Pending, Poll::Ready(Some(5))]);
    {
        let mut first = inner.next();
        assert_eq!(poll_once(Pin::new(&mut first)), Poll::Pending);
        // Dropped while pending: the stream still has its item.
    }
    assert_eq!(run(inner.next()), Some(5));
    assert_eq!(probe.polls(), 2);
}

#[test]
fn try_next_lifts_the_error_out() {
    run(async {
        let mut s = stream::iter([Ok(1), Err("bad")]);
        assert_eq!(s.try_next().await, Ok(Some(1)));
        assert_eq!(s.try_next().await, Err("bad"));
        assert_eq!(s.try_next().await, Ok(None));
    });
}

#[test]
fn all_stops_at_first_false() {
    run(async {
        let (mut s, probe) = Scripted::items([2, 4, 5, 6]);
        assert!(!s.all(|n| n % 2 == 0).await);
        assert_eq!(probe.polls(), 3);
        // The rest of the stream is still there.
        assert_eq!(s.next().await, Some(6));
        assert!(stream::empty::<u8>().all(|_| false).await);
    });
}

#[test]
fn any_stops_at_first_true() {
    run(async {
        let (mut s, probe) = Scripted::items([1, 3, 4, 5]);
        assert!(s.any(|n| n % 2 == 0).await);
        assert_eq!(probe.polls(), 3);
        assert!(!stream::empty::<u8>().any(|_| true).await);
        assert!(!stream::iter([1, 3]).any(|n| n > 3).await);
    });
}

#[test]
fn all_yields_to_the_scheduler_on_an_endless_ready_stream() {
    let mut endless = Always(1);
    let mut fut = endless.all(|_| true);
    let (wakes, waker) = rt_test::counting_waker();
    let mut cx = std::task::Context::from_waker(&waker);
    assert!(std::pin::Pin::new(&mut fut).poll(&mut cx).is_pending());
    assert_eq!(wakes.count(), 1);
    use std::future::Future;
}

#[test]
fn fold_accumulates_across_pending() {
    let (s, _) = Scripted::new([
        Poll::Ready(Some(1)),
        Poll::Pending,
        Poll::Ready(Some(2)),
        Poll::Ready(Some(3)),
    ]);
    let mut fut = Box::pin(s.fold(String::new(), |acc, n: i32| format!("{acc}{n}")));
    assert_eq!(poll_once(Pin::new(&mut fut)), Poll::Pending);
    assert_eq!(
        poll_once(Pin::new(&mut fut)),
        Poll::Ready("123".to_string())
    );
}

#[test]
fn collect_into_vec_boxed_slice_and_unit() {
    run(async {
        let v: Vec<u8> = stream::iter([1, 2, 3]).collect().await;
        assert_eq!(v, [1, 2, 3]);
        let b: Box<[u8]> = stream::iter([4, 5]).collect().await;
        assert_eq!(&*b, &[4, 5]);
        let (): () = stream::iter([6]).collect().await;
    });
}

#[test]
fn collect_into_vec_reserves_the_lower_hint() {
    let v: Vec<u8> = run(stream::iter(0..100).collect());
    assert_eq!(v.len(), 100);
    assert!(v.capacity() >= 100);
}

#[test]
fn collect_into_string_from_chars_strs_and_strings() {
    run(async {
        let a: String = stream::iter(['h', 'i']).collect().await;
        let b: String = stream::iter(["h", "i"]).collect().await;
        let c: String = stream::iter([String::from("h"), String::from("i")])
            .collect()
            .await;
        assert_eq!((a.as_str(), b.as_str(), c.as_str()), ("hi", "hi", "hi"));
    });
}

#[test]
fn collect_into_hash_map_keeps_the_last_value_per_key() {
    let map: HashMap<&str, u8> = run(stream::iter([("a", 1), ("b", 2), ("a", 3)]).collect());
    assert_eq!(map.len(), 2);
    assert_eq!(map["a"], 3);
    assert_eq!(map["b"], 2);
}

#[test]
fn collect_into_result_stops_at_the_first_error() {
    run(async {
        let (s, probe) = Scripted::items([Ok(1), Err("first"), Err("second"), Ok(4)]);
        let got: Result<Vec<i32>, &str> = s.collect().await;
        assert_eq!(got, Err("first"));
        assert_eq!(probe.polls(), 2);

        let ok: Result<String, ()> = stream::iter([Ok('o'), Ok('k')]).collect().await;
        assert_eq!(ok.as_deref(), Ok("ok"));

        let map: Result<HashMap<u8, u8>, ()> = stream::iter([Ok((1, 2))]).collect().await;
        assert_eq!(map.unwrap()[&1], 2);
    });
}
