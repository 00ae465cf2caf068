//! Loom models of the watch channel: a change or a close is never missed.
#![cfg(loom)]

use loom::future::block_on;
use loom::thread;
use rt_sync::watch;

#[test]
fn change_is_never_missed() {
    loom::model(|| {
        let (tx, mut rx) = watch::channel(0);
        let t = thread::spawn(move || {
            tx.send(1).unwrap();
        });
        block_on(async {
            // Either sees the new value, or the close after it.
            while *rx.borrow_and_update() != 1 {
                if rx.changed().await.is_err() {
                    break;
                }
            }
        });
        assert_eq!(*rx.borrow(), 1);
        t.join().unwrap();
    });
}

#[test]
fn close_wakes_a_waiting_receiver() {
    loom::model(|| {
        let (tx, mut rx) = watch::channel(());
        let t = thread::spawn(move || drop(tx));
        assert!(block_on(rx.changed()).is_err());
        t.join().unwrap();
    });
}

#[test]
fn sender_sees_the_last_receiver_go() {
    loom::model(|| {
        let (tx, rx) = watch::channel(());
        let t = thread::spawn(move || drop(rx));
        block_on(tx.closed());
        t.join().unwrap();
    });
}
