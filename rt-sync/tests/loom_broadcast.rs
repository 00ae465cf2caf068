//! Loom models of the broadcast channel: no value or close is missed, and
//! lag is reported rather than lost.
#![cfg(loom)]

use loom::future::block_on;
use loom::thread;
use rt_sync::broadcast::{
    self,
    error::{RecvError, TryRecvError},
};

#[test]
fn two_receivers_get_the_value_then_close() {
    loom::model(|| {
        let (tx, mut a) = broadcast::channel(2);
        let mut b = tx.subscribe();
        let t = thread::spawn(move || {
            assert_eq!(block_on(b.recv()), Ok(1));
            assert_eq!(block_on(b.recv()), Err(RecvError::Closed));
        });
        tx.send(1).unwrap();
        drop(tx);
        assert_eq!(block_on(a.recv()), Ok(1));
        assert_eq!(block_on(a.recv()), Err(RecvError::Closed));
        t.join().unwrap();
    });
}

#[test]
fn lag_is_reported_under_concurrent_sends() {
    loom::model(|| {
        let (tx, mut rx) = broadcast::channel(1);
        let t = thread::spawn(move || {
            tx.send(1).unwrap();
            tx.send(2).unwrap();
        });
        let mut seen = Vec::new();
        block_on(async {
            loop {
                match rx.recv().await {
                    Ok(v) => seen.push(v),
                    Err(RecvError::Lagged(n)) => assert!(n >= 1),
                    Err(RecvError::Closed) => break,
                }
            }
        });
        assert_eq!(seen.last(), Some(&2), "the newest value always arrives");
        t.join().unwrap();
    });
}

#[test]
fn receiver_drop_races_with_send() {
    loom::model(|| {
        let (tx, rx) = broadcast::channel(2);
        let t = thread::spawn(move || drop(rx));
        let _ = tx.send(loom::sync::Arc::new(0));
        t.join().unwrap();
    });
}

/// The lock-free read of a slot races a send that overwrites that slot:
/// each receiver either gets the old value or is told it lagged by one,
/// then gets the new value; the last reader of a value moves it out.
#[test]
fn slot_read_races_overwriting_send() {
    loom::model(|| {
        let (tx, mut a) = broadcast::channel(1);
        let mut b = tx.subscribe();
        tx.send(loom::sync::Arc::new(1)).unwrap();
        let reader = thread::spawn(move || {
            let first = b.try_recv().map(|v| *v);
            assert!(matches!(first, Ok(1) | Err(TryRecvError::Lagged(1))));
            b
        });
        let sender = thread::spawn(move || {
            tx.send(loom::sync::Arc::new(2)).unwrap();
            tx
        });
        let first = a.try_recv().map(|v| *v);
        assert!(matches!(first, Ok(1) | Err(TryRecvError::Lagged(1))));
        let mut b = reader.join().unwrap();
        let tx = sender.join().unwrap();
        assert_eq!(a.try_recv().map(|v| *v), Ok(2));
        let last = b.try_recv().unwrap();
        assert_eq!(*last, 2);
        assert_eq!(
            loom::sync::Arc::strong_count(&last),
            1,
            "the last reader moves the value out"
        );
        assert_eq!(tx.len(), 0);
    });
}

#[test]
fn upgrade_races_with_the_last_sender_drop() {
    loom::model(|| {
        let (tx, mut rx) = broadcast::channel(2);
        let weak = tx.downgrade();
        let t = thread::spawn(move || {
            if let Some(tx) = weak.upgrade() {
                tx.send(1).unwrap();
            }
        });
        drop(tx);
        t.join().unwrap();
        // Either the upgrade won and sent, or it saw the channel closed;
        // the channel ends closed in both cases.
        match block_on(rx.recv()) {
            Ok(1) => assert_eq!(block_on(rx.recv()), Err(RecvError::Closed)),
            other => assert_eq!(other, Err(RecvError::Closed)),
        }
    });
}
