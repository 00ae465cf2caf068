//! Loom models of the mpsc channels: send/recv ordering, close with
//! outstanding permits, receiver drop, weak senders and block reuse.
#![cfg(loom)]

use loom::future::block_on;
use loom::thread;
use rt_sync::mpsc;
use rt_test::poll_once;
use std::pin::pin;

#[test]
fn bounded_send_recv_in_order() {
    loom::model(|| {
        let (tx, mut rx) = mpsc::channel(1);
        let t = thread::spawn(move || {
            block_on(async {
                tx.send(1).await.unwrap();
                tx.send(2).await.unwrap();
            })
        });
        block_on(async {
            assert_eq!(rx.recv().await, Some(1));
            assert_eq!(rx.recv().await, Some(2));
            assert_eq!(rx.recv().await, None);
        });
        t.join().unwrap();
    });
}

#[test]
fn close_still_delivers_reserved_and_sent_messages() {
    loom::model(|| {
        let (tx, mut rx) = mpsc::channel(2);
        let t = thread::spawn(move || {
            let mut sent = 0;
            if let Ok(permit) = tx.try_reserve() {
                permit.send(1);
                sent += 1;
            }
            if tx.try_send(2).is_ok() {
                sent += 1;
            }
            sent
        });
        rx.close();
        let mut received = 0;
        block_on(async {
            while rx.recv().await.is_some() {
                received += 1;
            }
        });
        assert_eq!(received, t.join().unwrap());
    });
}

#[test]
fn dropped_permit_after_close_ends_the_stream() {
    loom::model(|| {
        let (tx, mut rx) = mpsc::channel::<u8>(1);
        let permit_holder = thread::spawn(move || {
            let permit = tx.try_reserve();
            drop(permit);
            drop(tx);
        });
        rx.close();
        block_on(async { assert_eq!(rx.recv().await, None) });
        permit_holder.join().unwrap();
    });
}

#[test]
fn receiver_drop_races_with_send() {
    loom::model(|| {
        let (tx, rx) = mpsc::unbounded_channel();
        let t = thread::spawn(move || {
            let _ = tx.send(loom::sync::Arc::new(1));
        });
        drop(rx);
        t.join().unwrap();
    });
}

#[test]
fn weak_upgrade_races_with_last_drop() {
    loom::model(|| {
        let (tx, mut rx) = mpsc::unbounded_channel::<u8>();
        let weak = tx.downgrade();
        let t = thread::spawn(move || drop(tx));
        if let Some(tx) = weak.upgrade() {
            tx.send(1).unwrap();
        }
        block_on(async { while rx.recv().await.is_some() {} });
        t.join().unwrap();
    });
}

#[test]
fn messages_cross_a_block_boundary_and_reuse_it() {
    loom::model(|| {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let t = thread::spawn(move || {
            for i in 0..34u32 {
                tx.send(i).unwrap();
            }
        });
        block_on(async {
            for i in 0..34u32 {
                assert_eq!(rx.recv().await, Some(i));
            }
            assert_eq!(rx.recv().await, None);
        });
        t.join().unwrap();
    });
}

#[test]
fn cancelled_partial_reservation_after_close_ends_the_stream() {
    loom::model(|| {
        let (tx, mut rx) = mpsc::channel::<u8>(2);
        let held = tx.try_reserve().unwrap();
        let other = tx.clone();
        let t = thread::spawn(move || {
            let mut reserve = pin!(other.reserve_many(2));
            // Pending with one slot assigned, or failed after the close;
            // either way it is dropped here and gives its slot back.
            let _ = poll_once(reserve.as_mut());
        });
        rx.close();
        drop(held);
        block_on(async { assert_eq!(rx.recv().await, None) });
        t.join().unwrap();
    });
}

#[test]
fn slots_of_moved_messages_return_one_by_one_to_a_waiting_sender() {
    // The receiver moves both queued messages out in one lock section; the
    // sender waiting for a slot must be let in by the first hand-out, and
    // a close racing with it must neither lose a message nor end early.
    loom::model(|| {
        let (tx, mut rx) = mpsc::channel(2);
        tx.try_send(1).unwrap();
        tx.try_send(2).unwrap();
        let t = thread::spawn(move || block_on(async { tx.send(3).await.is_ok() }));
        let mut received = Vec::new();
        block_on(async {
            received.push(rx.recv().await.unwrap());
            rx.close();
            while let Some(v) = rx.recv().await {
                received.push(v);
            }
        });
        let third_sent = t.join().unwrap();
        let expected: &[i32] = if third_sent { &[1, 2, 3] } else { &[1, 2] };
        assert_eq!(received, expected);
    });
}
