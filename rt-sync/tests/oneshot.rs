//! Behaviour of the oneshot channel as a user sees it.

use rt_sync::oneshot::{self, error::TryRecvError};
use rt_test::{block_on, counting_waker, poll_once, poll_with};
use std::pin::pin;

#[test]
fn send_and_receive() {
    let (tx, rx) = oneshot::channel();
    assert!(!tx.is_closed());
    tx.send("hi").unwrap();
    assert_eq!(block_on(rx), Ok("hi"));
}

#[test]
fn send_wakes_a_waiting_receiver() {
    let (tx, rx) = oneshot::channel();
    let (count, waker) = counting_waker();
    let mut rx = pin!(rx);
    assert!(poll_with(rx.as_mut(), &waker).is_pending());
    tx.send(1).unwrap();
    assert_eq!(count.count(), 1);
    assert_eq!(poll_once(rx.as_mut()), std::task::Poll::Ready(Ok(1)));
}

#[test]
fn dropped_sender_gives_recv_error() {
    let (tx, rx) = oneshot::channel::<u8>();
    drop(tx);
    let err = block_on(rx).unwrap_err();
    assert_eq!(err.to_string(), "channel closed");
}

#[test]
fn send_to_a_dropped_receiver_returns_the_value() {
    let (tx, rx) = oneshot::channel();
    drop(rx);
    assert!(tx.is_closed());
    assert_eq!(tx.send(String::from("back")), Err(String::from("back")));
}

#[test]
fn try_recv_states() {
    let (tx, mut rx) = oneshot::channel();
    assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
    tx.send(3).unwrap();
    assert_eq!(rx.try_recv(), Ok(3));
    assert_eq!(rx.try_recv(), Err(TryRecvError::Closed));
    assert_eq!(TryRecvError::Empty.to_string(), "channel empty");
    assert_eq!(TryRecvError::Closed.to_string(), "channel closed");

    let (tx, mut rx) = oneshot::channel::<u8>();
    drop(tx);
    assert_eq!(rx.try_recv(), Err(TryRecvError::Closed));
}

#[test]
fn close_keeps_a_value_sent_before() {
    let (tx, mut rx) = oneshot::channel();
    tx.send(9).unwrap();
    rx.close();
    assert_eq!(rx.try_recv(), Ok(9));

    let (tx, mut rx) = oneshot::channel();
    rx.close();
    assert_eq!(tx.send(1), Err(1));
    assert_eq!(block_on(rx).unwrap_err().to_string(), "channel closed");
}

#[test]
fn sender_closed_resolves_on_receiver_drop() {
    let (mut tx, rx) = oneshot::channel::<()>();
    let (count, waker) = counting_waker();
    {
        let mut closed = pin!(tx.closed());
        assert!(poll_with(closed.as_mut(), &waker).is_pending());
        drop(rx);
        assert_eq!(count.count(), 1);
        assert!(poll_once(closed.as_mut()).is_ready());
    }
    assert!(tx.is_closed());
}

#[test]
fn receiver_may_move_to_another_waker() {
    let (tx, rx) = oneshot::channel();
    let (first, w1) = counting_waker();
    let (second, w2) = counting_waker();
    let mut rx = pin!(rx);
    assert!(poll_with(rx.as_mut(), &w1).is_pending());
    assert!(poll_with(rx.as_mut(), &w2).is_pending());
    tx.send(()).unwrap();
    assert_eq!(first.count(), 0);
    assert_eq!(second.count(), 1);
    assert!(rx.is_terminated() || poll_once(rx.as_mut()).is_ready());
}

#[test]
fn blocking_recv_across_threads() {
    let (tx, rx) = oneshot::channel();
    let t = std::thread::spawn(move || rx.blocking_recv());
    tx.send(42u64).unwrap();
    assert_eq!(t.join().unwrap(), Ok(42));
}

#[test]
fn value_is_dropped_with_the_receiver() {
    let marker = std::sync::Arc::new(());
    let (tx, rx) = oneshot::channel();
    tx.send(marker.clone()).unwrap();
    drop(rx);
    assert_eq!(std::sync::Arc::strong_count(&marker), 1);
}
