//! Loom models of the oneshot state machine.
#![cfg(loom)]

use loom::future::block_on;
use loom::thread;
use rt_sync::oneshot;
use rt_test::poll_once;
use std::pin::pin;

#[test]
fn send_then_receive() {
    loom::model(|| {
        let (tx, rx) = oneshot::channel();
        let t = thread::spawn(move || tx.send(7).unwrap());
        assert_eq!(block_on(rx), Ok(7));
        t.join().unwrap();
    });
}

#[test]
fn dropped_sender_is_an_error() {
    loom::model(|| {
        let (tx, rx) = oneshot::channel::<u8>();
        let t = thread::spawn(move || drop(tx));
        assert!(block_on(rx).is_err());
        t.join().unwrap();
    });
}

#[test]
fn close_races_with_send_without_losing_the_value() {
    loom::model(|| {
        let (tx, mut rx) = oneshot::channel();
        let t = thread::spawn(move || tx.send(5).is_ok());
        rx.close();
        let sent = t.join().unwrap();
        match rx.try_recv() {
            Ok(v) => {
                assert!(sent);
                assert_eq!(v, 5);
            }
            Err(_) => assert!(!sent),
        }
    });
}

#[test]
fn sender_sees_receiver_drop() {
    loom::model(|| {
        let (mut tx, rx) = oneshot::channel::<u8>();
        let t = thread::spawn(move || drop(rx));
        block_on(tx.closed());
        assert!(tx.is_closed());
        t.join().unwrap();
    });
}

#[test]
fn receiver_changes_waker_while_value_arrives() {
    loom::model(|| {
        let (tx, rx) = oneshot::channel();
        let t = thread::spawn(move || tx.send(1).unwrap());
        let mut rx = pin!(rx);
        if poll_once(rx.as_mut()).is_pending() {
            assert_eq!(block_on(rx), Ok(1));
        }
        t.join().unwrap();
    });
}

/// A receiver dropped while the value is being sent: whichever wins, the
/// value is dropped exactly once, by the receiver (it found the channel
/// complete, with or without closing first) or by the sender (it found the
/// channel closed and got the value back).
#[test]
fn receiver_drop_races_send_and_the_value_is_dropped_once() {
    loom::model(|| {
        let token = std::sync::Arc::new(());
        let (tx, rx) = oneshot::channel();
        let sent = token.clone();
        let t = thread::spawn(move || {
            // On failure the value comes back and is dropped here.
            let _ = tx.send(sent);
        });
        drop(rx);
        t.join().unwrap();
        assert_eq!(std::sync::Arc::strong_count(&token), 1);
    });
}

/// As above, but the receiver was polled first, so its waker is registered
/// while the send and the drop race.
#[test]
fn registered_receiver_drop_races_send() {
    loom::model(|| {
        let token = std::sync::Arc::new(());
        let (tx, rx) = oneshot::channel();
        let sent = token.clone();
        let t = thread::spawn(move || {
            let _ = tx.send(sent);
        });
        let mut rx = Box::pin(rx);
        // Ready (the value is taken and dropped here) or Pending (the
        // waker stays registered for the drop below); both must hold.
        drop(poll_once(rx.as_mut()));
        drop(rx);
        t.join().unwrap();
        assert_eq!(std::sync::Arc::strong_count(&token), 1);
    });
}
