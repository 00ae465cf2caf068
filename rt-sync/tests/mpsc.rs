//! Behaviour of the mpsc channels as a user sees them.

use rt_sync::mpsc::{
    self,
    error::{SendError, TryRecvError, TrySendError},
};
use rt_test::{block_on, counting_waker, poll_once, poll_with};
use std::pin::pin;
use std::task::Poll;

#[test]
#[should_panic(expected = "mpsc bounded channel requires buffer > 0")]
fn zero_capacity_panics() {
    let _ = mpsc::channel::<u8>(0);
}

#[test]
fn bounded_send_and_recv() {
    let (tx, mut rx) = mpsc::channel(4);
    block_on(async {
        for i in 0..4 {
            tx.send(i).await.unwrap();
        }
        assert_eq!(tx.capacity(), 0);
        assert_eq!(tx.max_capacity(), 4);
        assert_eq!(rx.len(), 4);
        assert_eq!(rx.recv().await, Some(0));
        assert_eq!(tx.capacity(), 1);
        drop(tx);
        let mut rest = Vec::new();
        assert_eq!(rx.recv_many(&mut rest, 10).await, 3);
        assert_eq!(rest, [1, 2, 3]);
        assert_eq!(rx.recv().await, None);
        assert_eq!(rx.recv_many(&mut rest, 10).await, 0);
    });
}

#[test]
fn full_channel_makes_senders_wait_and_wakes_them() {
    let (tx, mut rx) = mpsc::channel(1);
    tx.try_send(1).unwrap();
    match tx.try_send(2) {
        Err(e @ TrySendError::Full(2)) => assert_eq!(e.to_string(), "no available capacity"),
        other => panic!("expected Full, got {other:?}"),
    }
    let (count, waker) = counting_waker();
    let mut send = pin!(tx.send(2));
    assert!(poll_with(send.as_mut(), &waker).is_pending());
    assert_eq!(rx.try_recv(), Ok(1));
    assert_eq!(count.count(), 1);
    assert_eq!(poll_once(send.as_mut()), Poll::Ready(Ok(())));
    assert_eq!(rx.try_recv(), Ok(2));
    assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
}

#[test]
fn recv_wakes_on_send() {
    let (tx, mut rx) = mpsc::channel(2);
    let (count, waker) = counting_waker();
    {
        let mut recv = pin!(rx.recv());
        assert!(poll_with(recv.as_mut(), &waker).is_pending());
        tx.try_send(5).unwrap();
        assert_eq!(count.count(), 1);
        assert_eq!(poll_once(recv.as_mut()), Poll::Ready(Some(5)));
    }
    let mut recv = pin!(rx.recv());
    assert!(poll_with(recv.as_mut(), &waker).is_pending());
    drop(tx);
    assert_eq!(count.count(), 2);
    assert_eq!(poll_once(recv.as_mut()), Poll::Ready(None));
}

#[test]
fn closed_receiver_still_delivers_accepted_messages_and_permits() {
    let (tx, mut rx) = mpsc::channel(3);
    tx.try_send(1).unwrap();
    let permit = tx.try_reserve().unwrap();
    rx.close();
    assert!(tx.is_closed());
    assert!(rx.is_closed());
    match tx.try_send(9) {
        Err(e @ TrySendError::Closed(9)) => assert_eq!(e.to_string(), "channel closed"),
        other => panic!("expected Closed, got {other:?}"),
    }
    let err = block_on(tx.send(10)).unwrap_err();
    assert_eq!(err, SendError(10));
    assert_eq!(err.to_string(), "channel closed");
    assert_eq!(format!("{err:?}"), "SendError { .. }");
    assert_eq!(rx.try_recv(), Ok(1));
    // The permit is still out: the channel is not finished yet.
    assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
    let (count, waker) = counting_waker();
    let mut recv = pin!(rx.recv());
    assert!(poll_with(recv.as_mut(), &waker).is_pending());
    permit.send(2);
    assert_eq!(count.count(), 1);
    assert_eq!(poll_once(recv.as_mut()), Poll::Ready(Some(2)));
}

#[test]
fn dropping_the_last_permit_after_close_ends_the_stream() {
    let (tx, mut rx) = mpsc::channel::<u8>(2);
    let permit = tx.try_reserve().unwrap();
    rx.close();
    let (count, waker) = counting_waker();
    let mut recv = pin!(rx.recv());
    assert!(poll_with(recv.as_mut(), &waker).is_pending());
    drop(permit);
    assert_eq!(count.count(), 1);
    assert_eq!(poll_once(recv.as_mut()), Poll::Ready(None));
    assert_eq!(
        TryRecvError::Disconnected.to_string(),
        "receiving on a closed channel"
    );
    assert_eq!(
        TryRecvError::Empty.to_string(),
        "receiving on an empty channel"
    );
}

#[test]
fn reserve_many_and_permit_iterator() {
    let (tx, mut rx) = mpsc::channel(4);
    block_on(async {
        assert!(tx.reserve_many(5).await.is_err());
        let mut permits = tx.reserve_many(3).await.unwrap();
        assert_eq!(permits.len(), 3);
        assert_eq!(tx.capacity(), 1);
        permits.next().unwrap().send(1);
        permits.next().unwrap().send(2);
        drop(permits);
        assert_eq!(tx.capacity(), 2);
        assert!(matches!(
            tx.try_reserve_many(5),
            Err(TrySendError::Full(()))
        ));
        let more = tx.try_reserve_many(2).unwrap();
        assert_eq!(more.count(), 2);
        assert_eq!(rx.recv().await, Some(1));
        assert_eq!(rx.recv().await, Some(2));
        assert_eq!(tx.capacity(), 4);
    });
}

#[test]
fn owned_permits() {
    let (tx, mut rx) = mpsc::channel(1);
    let permit = block_on(tx.clone().reserve_owned()).unwrap();
    let tx2 = tx.clone();
    let tx2 = match tx2.try_reserve_owned() {
        Err(TrySendError::Full(tx2)) => tx2,
        other => panic!("expected Full, got {other:?}"),
    };
    let back = permit.send(7);
    assert!(back.same_channel(&tx2));
    assert_eq!(rx.try_recv(), Ok(7));
    let permit = tx2.try_reserve_owned().unwrap();
    let _sender = permit.release();
    assert_eq!(tx.capacity(), 1);
}

#[test]
fn cancelled_send_keeps_fifo_and_capacity() {
    let (tx, mut rx) = mpsc::channel(1);
    tx.try_send(0).unwrap();
    let mut first = Box::pin(tx.send(1));
    let mut second = pin!(tx.send(2));
    assert!(poll_once(first.as_mut()).is_pending());
    assert!(poll_once(second.as_mut()).is_pending());
    drop(first);
    assert_eq!(rx.try_recv(), Ok(0));
    assert_eq!(poll_once(second.as_mut()), Poll::Ready(Ok(())));
    assert_eq!(rx.try_recv(), Ok(2));
}

#[test]
fn weak_senders_do_not_keep_the_channel_open() {
    let (tx, mut rx) = mpsc::channel::<u8>(1);
    let weak = tx.downgrade();
    assert_eq!(tx.strong_count(), 1);
    assert_eq!(tx.weak_count(), 1);
    let strong = weak.upgrade().unwrap();
    assert_eq!(rx.sender_strong_count(), 2);
    drop(strong);
    drop(tx);
    assert!(weak.upgrade().is_none());
    assert_eq!(block_on(rx.recv()), None);
    assert_eq!(rx.try_recv(), Err(TryRecvError::Disconnected));
}

#[test]
fn sender_closed_future() {
    let (tx, rx) = mpsc::channel::<u8>(1);
    rt_test::assert_wakes(pin!(tx.closed()), || drop(rx));
}

#[test]
fn dropping_the_receiver_drops_queued_messages() {
    let marker = std::sync::Arc::new(());
    let (tx, rx) = mpsc::channel(8);
    for _ in 0..5 {
        tx.try_send(marker.clone()).unwrap();
    }
    drop(rx);
    assert_eq!(std::sync::Arc::strong_count(&marker), 1);
    assert!(tx.try_send(marker.clone()).is_err());
}

#[test]
fn unbounded_send_recv_close() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    for i in 0..100 {
        tx.send(i).unwrap();
    }
    assert_eq!(rx.len(), 100);
    assert!(!rx.is_empty());
    rx.close();
    assert!(tx.is_closed());
    assert_eq!(tx.send(100), Err(SendError(100)));
    let mut all = Vec::new();
    block_on(async { while rx.recv_many(&mut all, 7).await > 0 {} });
    assert_eq!(all, (0..100).collect::<Vec<_>>());
    assert_eq!(rx.try_recv(), Err(TryRecvError::Disconnected));
}

#[test]
fn unbounded_weak_and_closed() {
    let (tx, rx) = mpsc::unbounded_channel::<u8>();
    let weak = tx.downgrade();
    assert_eq!(weak.strong_count(), 1);
    let upgraded = weak.upgrade().unwrap();
    assert!(upgraded.same_channel(&tx));
    drop(rx);
    block_on(tx.closed());
    assert!(upgraded.is_closed());
}

#[test]
fn blocking_send_and_recv_across_threads() {
    let (tx, mut rx) = mpsc::channel(2);
    let producer = std::thread::spawn(move || {
        for i in 0..50 {
            tx.blocking_send(i).unwrap();
        }
    });
    let mut got = Vec::new();
    while let Some(i) = rx.blocking_recv() {
        got.push(i);
    }
    producer.join().unwrap();
    assert_eq!(got, (0..50).collect::<Vec<_>>());
}

#[test]
fn recv_many_with_zero_limit_returns_at_once() {
    let (tx, mut rx) = mpsc::channel::<u8>(1);
    let mut buf = Vec::new();
    assert_eq!(block_on(rx.recv_many(&mut buf, 0)), 0);
    drop(tx);
}

#[test]
fn recv_takes_part_in_the_coop_budget() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    for i in 0..10 {
        tx.send(i).unwrap();
    }
    let waker = rt_test::noop_waker();
    let mut cx = std::task::Context::from_waker(&waker);
    rt_core::task::coop::with_budget(3, || {
        for i in 0..3 {
            assert_eq!(rx.poll_recv(&mut cx), Poll::Ready(Some(i)));
        }
        assert_eq!(rx.poll_recv(&mut cx), Poll::Pending, "budget spent");
    });
    assert_eq!(rx.try_recv(), Ok(3));
}

#[test]
fn debug_output_names_each_handle() {
    let (tx, rx) = mpsc::channel::<u8>(2);
    assert_eq!(format!("{rx:?}"), "Receiver { len: 0 }");
    assert_eq!(format!("{:?}", tx.downgrade()), "WeakSender { .. }");
    assert_eq!(format!("{tx:?}"), "Sender { capacity: 2, max_capacity: 2 }");
    let (tx, rx) = mpsc::unbounded_channel::<u8>();
    tx.send(1).unwrap();
    assert_eq!(format!("{rx:?}"), "UnboundedReceiver { len: 1 }");
    assert_eq!(
        format!("{:?}", tx.downgrade()),
        "WeakUnboundedSender { .. }"
    );
    assert_eq!(format!("{tx:?}"), "UnboundedSender { closed: false }");
}

#[test]
fn messages_moved_to_the_receiver_keep_their_slots_until_handed_out() {
    // One `recv` moves a batch out of the shared queue; the rest of that
    // batch must still count as queued and still hold capacity.
    let (tx, mut rx) = mpsc::channel(100);
    block_on(async {
        for i in 0..100 {
            tx.send(i).await.unwrap();
        }
        assert_eq!(rx.recv().await, Some(0));
        assert_eq!(rx.len(), 99);
        assert_eq!(tx.capacity(), 1);
        assert_eq!(rx.capacity(), 1);
        assert_eq!(rx.try_recv(), Ok(1));
        assert_eq!(tx.capacity(), 2);
        tx.send(100).await.unwrap();
        tx.send(101).await.unwrap();
        assert!(matches!(tx.try_send(102), Err(TrySendError::Full(102))));
        let mut got = Vec::new();
        assert_eq!(rx.recv_many(&mut got, 1000).await, 100);
        assert_eq!(got, (2..102).collect::<Vec<_>>());
        assert!(rx.is_empty());
        assert_eq!(tx.capacity(), 100);
    });
}

#[test]
fn close_with_moved_messages_delivers_them_before_the_end() {
    let (tx, mut rx) = mpsc::channel(64);
    block_on(async {
        for i in 0..40 {
            tx.send(i).await.unwrap();
        }
        assert_eq!(rx.recv().await, Some(0));
        rx.close();
        assert!(tx.send(99).await.is_err());
        for i in 1..40 {
            assert_eq!(rx.recv().await, Some(i));
        }
        assert_eq!(rx.recv().await, None);
        assert_eq!(rx.try_recv(), Err(TryRecvError::Disconnected));
    });
}

#[test]
fn recv_many_takes_moved_and_queued_messages_together() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    block_on(async {
        for i in 0..10 {
            tx.send(i).unwrap();
        }
        assert_eq!(rx.recv().await, Some(0));
        for i in 10..20 {
            tx.send(i).unwrap();
        }
        let mut got = Vec::new();
        assert_eq!(rx.recv_many(&mut got, 15).await, 15);
        assert_eq!(got, (1..16).collect::<Vec<_>>());
        assert_eq!(rx.len(), 4);
    });
}

#[test]
fn dropping_the_receiver_drops_moved_messages_and_frees_their_slots() {
    let marker = std::sync::Arc::new(());
    let (tx, mut rx) = mpsc::channel(50);
    for _ in 0..45 {
        tx.try_send(marker.clone()).unwrap();
    }
    assert!(rx.try_recv().is_ok());
    assert_eq!(std::sync::Arc::strong_count(&marker), 45);
    drop(rx);
    assert_eq!(std::sync::Arc::strong_count(&marker), 1);
    assert_eq!(tx.capacity(), 50);
    assert!(tx.is_closed());
}

#[test]
fn dropping_the_receiver_releases_its_waker() {
    let (count, waker) = counting_waker();
    let (_tx, mut rx) = mpsc::channel::<()>(1);
    assert!(rx
        .poll_recv(&mut std::task::Context::from_waker(&waker))
        .is_pending());
    let before = std::sync::Arc::strong_count(&count);
    drop(rx);
    assert_eq!(std::sync::Arc::strong_count(&count), before - 1);
}

#[test]
fn a_panicking_message_drop_still_drops_the_rest() {
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    static DROPPED: AtomicUsize = AtomicUsize::new(0);
    struct Bomb(bool);
    impl Drop for Bomb {
        fn drop(&mut self) {
            DROPPED.fetch_add(1, SeqCst);
            assert!(!self.0, "the first message panics when dropped");
        }
    }
    let (tx, rx) = mpsc::unbounded_channel();
    for armed in [true, false, false] {
        tx.send(Bomb(armed)).unwrap();
    }
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || drop(rx)));
    assert!(caught.is_err());
    assert_eq!(DROPPED.load(SeqCst), 3);
}

#[test]
fn owned_permits_tell_their_channel() {
    let (tx, _rx) = mpsc::channel::<()>(2);
    let (other, _other_rx) = mpsc::channel::<()>(1);
    let a = tx.clone().try_reserve_owned().unwrap();
    let b = tx.clone().try_reserve_owned().unwrap();
    let c = other.clone().try_reserve_owned().unwrap();
    assert!(a.same_channel(&b));
    assert!(!a.same_channel(&c));
    assert!(a.same_channel_as_sender(&tx));
    assert!(!c.same_channel_as_sender(&tx));
}

#[test]
fn a_slot_assigned_before_close_fails_the_reservation_and_wakes_the_receiver() {
    let (tx, mut rx) = mpsc::channel::<u8>(1);
    let held = tx.try_reserve().unwrap();
    let mut reserve = pin!(tx.reserve());
    assert!(poll_once(reserve.as_mut()).is_pending());
    // The slot goes to the queued reservation, which has not run yet.
    drop(held);
    rx.close();
    let (recv_wakes, recv_waker) = counting_waker();
    let mut recv = pin!(rx.recv());
    assert!(poll_with(recv.as_mut(), &recv_waker).is_pending());
    // Nothing can be sent on a closed channel: the reservation fails and
    // gives its slot back, which leaves the channel drained.
    assert!(matches!(poll_once(reserve.as_mut()), Poll::Ready(Err(_))));
    assert_eq!(recv_wakes.count(), 1);
    assert_eq!(poll_once(recv.as_mut()), Poll::Ready(None));
}

#[test]
fn a_permit_send_whose_wake_panics_keeps_the_message_in_its_slot() {
    struct PanicOnWake;
    impl std::task::Wake for PanicOnWake {
        fn wake(self: std::sync::Arc<Self>) {
            panic!("wake refused");
        }
    }
    let (tx, mut rx) = mpsc::channel::<u8>(1);
    let waker = std::task::Waker::from(std::sync::Arc::new(PanicOnWake));
    let mut cx = std::task::Context::from_waker(&waker);
    assert!(rx.poll_recv(&mut cx).is_pending());
    let permit = tx.try_reserve().unwrap();
    let sent = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| permit.send(9)));
    assert!(sent.is_err());
    // The message holds the one slot: none was given back twice.
    assert_eq!(tx.capacity(), 0);
    assert_eq!(rx.try_recv(), Ok(9));
    assert_eq!(tx.capacity(), 1);
}
