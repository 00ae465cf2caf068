//! Behaviour of the broadcast channel as a user sees it.

use rt_sync::broadcast::{
    self,
    error::{RecvError, TryRecvError},
};
use rt_test::{block_on, counting_waker, poll_once, poll_with};
use std::pin::pin;
use std::sync::Arc;

#[test]
fn every_receiver_sees_every_value() {
    let (tx, mut a) = broadcast::channel(4);
    let mut b = tx.subscribe();
    assert_eq!(tx.send(1).unwrap(), 2);
    tx.send(2).unwrap();
    assert_eq!(a.len(), 2);
    assert_eq!(tx.len(), 2);
    for rx in [&mut a, &mut b] {
        assert_eq!(rx.try_recv(), Ok(1));
        assert_eq!(block_on(rx.recv()), Ok(2));
        assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
    }
    assert!(tx.is_empty(), "read by everyone");
}

#[test]
fn late_subscribers_only_see_later_values() {
    let (tx, _keep) = broadcast::channel(4);
    tx.send(1).unwrap();
    let mut late = tx.subscribe();
    assert_eq!(late.try_recv(), Err(TryRecvError::Empty));
    tx.send(2).unwrap();
    assert_eq!(late.try_recv(), Ok(2));
    let mut again = late.resubscribe();
    assert_eq!(again.try_recv(), Err(TryRecvError::Empty));
    assert!(again.same_channel(&late));
}

#[test]
fn lagging_receiver_is_told_how_much_it_missed() {
    let (tx, mut rx) = broadcast::channel(2);
    for i in 0..5 {
        tx.send(i).unwrap();
    }
    assert_eq!(rx.len(), 5);
    let err = rx.try_recv().unwrap_err();
    assert_eq!(err, TryRecvError::Lagged(3));
    assert_eq!(err.to_string(), "channel lagged by 3");
    assert_eq!(rx.try_recv(), Ok(3));
    assert_eq!(rx.try_recv(), Ok(4));
    for i in 5..10 {
        tx.send(i).unwrap();
    }
    let err = block_on(rx.recv()).unwrap_err();
    assert_eq!(err, RecvError::Lagged(3));
    assert_eq!(err.to_string(), "channel lagged by 3");
    assert_eq!(block_on(rx.recv()), Ok(8));
}

#[test]
fn capacity_rounds_up_to_a_power_of_two() {
    let (tx, mut rx) = broadcast::channel(3);
    for i in 0..4 {
        tx.send(i).unwrap();
    }
    assert_eq!(rx.try_recv(), Ok(0), "four slots, nothing lost");
}

#[test]
fn closed_after_draining() {
    let (tx, mut rx) = broadcast::channel(4);
    tx.send(1).unwrap();
    drop(tx);
    assert!(rx.is_closed());
    assert_eq!(block_on(rx.recv()), Ok(1));
    let err = block_on(rx.recv()).unwrap_err();
    assert_eq!(err, RecvError::Closed);
    assert_eq!(err.to_string(), "channel closed");
    assert_eq!(rx.try_recv(), Err(TryRecvError::Closed));
    assert_eq!(TryRecvError::Closed.to_string(), "channel closed");
    assert_eq!(TryRecvError::Empty.to_string(), "channel empty");
}

#[test]
fn send_without_receivers_fails() {
    let tx = broadcast::Sender::<u8>::new(2);
    let err = tx.send(3).unwrap_err();
    assert_eq!(err.0, 3);
    assert_eq!(err.to_string(), "channel closed");
    assert_eq!(format!("{err:?}"), "SendError { .. }");
    let rx = tx.subscribe();
    assert_eq!(tx.receiver_count(), 1);
    drop(rx);
    assert_eq!(tx.receiver_count(), 0);
}

#[test]
fn recv_waits_and_is_woken() {
    let (tx, mut rx) = broadcast::channel(2);
    let (count, waker) = counting_waker();
    {
        let mut recv = pin!(rx.recv());
        assert!(poll_with(recv.as_mut(), &waker).is_pending());
        tx.send(7).unwrap();
        assert_eq!(count.count(), 1);
        assert_eq!(poll_once(recv.as_mut()), std::task::Poll::Ready(Ok(7)));
    }
    let mut recv = pin!(rx.recv());
    assert!(poll_with(recv.as_mut(), &waker).is_pending());
    drop(tx);
    assert_eq!(count.count(), 2);
    assert_eq!(
        poll_once(recv.as_mut()),
        std::task::Poll::Ready(Err(RecvError::Closed))
    );
}

#[test]
fn values_are_freed_once_everyone_read_them() {
    let marker = Arc::new(());
    let (tx, mut a) = broadcast::channel(8);
    let b = tx.subscribe();
    tx.send(marker.clone()).unwrap();
    assert_eq!(Arc::strong_count(&marker), 2);
    let got = a.try_recv().unwrap();
    assert_eq!(Arc::strong_count(&marker), 3, "cloned for a, b still owes");
    drop(got);
    drop(b);
    assert_eq!(
        Arc::strong_count(&marker),
        1,
        "dropped receiver gave up its claim"
    );
}

#[test]
#[should_panic(expected = "broadcast channel capacity cannot be zero")]
fn zero_capacity_panics() {
    let _ = broadcast::channel::<u8>(0);
}

#[test]
fn sender_closed_and_clone() {
    let (tx, rx) = broadcast::channel::<u8>(1);
    let tx2 = tx.clone();
    assert!(tx.same_channel(&tx2));
    assert_eq!(tx.strong_count(), 2);
    rt_test::assert_wakes(pin!(tx.closed()), || drop(rx));
}

#[test]
fn many_threads_receive_everything() {
    let (tx, rx) = broadcast::channel(1024);
    let receivers: Vec<_> = (0..4)
        .map(|_| {
            let mut rx = rx.resubscribe();
            std::thread::spawn(move || {
                let mut sum = 0u64;
                while let Ok(v) = rx.blocking_recv() {
                    sum += v;
                }
                sum
            })
        })
        .collect();
    drop(rx);
    // Fewer under Miri, which interprets every thread's steps.
    let n: u64 = if cfg!(miri) { 100 } else { 1000 };
    for i in 0..n {
        tx.send(i).unwrap();
    }
    drop(tx);
    for r in receivers {
        assert_eq!(r.join().unwrap(), (n - 1) * n / 2);
    }
}

#[test]
fn weak_sender_upgrades_only_while_a_sender_lives() {
    let (tx, mut rx) = broadcast::channel(4);
    let weak = tx.downgrade();
    let weak2 = weak.clone();
    assert_eq!((tx.strong_count(), tx.weak_count()), (1, 2));
    assert_eq!((rx.sender_strong_count(), rx.sender_weak_count()), (1, 2));
    let upgraded = weak.upgrade().expect("a sender lives");
    assert_eq!(weak.strong_count(), 2);
    upgraded.send(7).unwrap();
    drop((tx, upgraded));
    assert_eq!(rx.try_recv(), Ok(7));
    assert_eq!(
        rx.try_recv(),
        Err(TryRecvError::Closed),
        "weak senders do not keep it open"
    );
    assert!(weak2.upgrade().is_none());
    drop(weak);
    assert_eq!(weak2.weak_count(), 1);
}

#[test]
fn closed_wakes_after_the_last_receiver_gave_up_its_values() {
    let (tx, rx) = broadcast::channel(2);
    tx.send(1).unwrap();
    let (count, waker) = counting_waker();
    let mut closed = pin!(tx.closed());
    assert!(poll_with(closed.as_mut(), &waker).is_pending());
    drop(rx);
    assert_eq!(count.count(), 1);
    assert!(tx.is_empty(), "the dropped receiver's claim is gone first");
    assert!(poll_once(closed.as_mut()).is_ready());
}

#[test]
fn a_panicking_clone_costs_only_that_value() {
    #[derive(Debug, PartialEq)]
    struct Fragile(u8);
    impl Clone for Fragile {
        fn clone(&self) -> Self {
            assert_ne!(self.0, 0, "cannot clone 0");
            Fragile(self.0)
        }
    }
    let (tx, mut a) = broadcast::channel(4);
    let _b = tx.subscribe();
    tx.send(Fragile(0)).unwrap();
    tx.send(Fragile(1)).unwrap();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| a.try_recv()));
    assert!(caught.is_err());
    assert_eq!(a.try_recv(), Ok(Fragile(1)));
}
