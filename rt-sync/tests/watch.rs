//! Behaviour of the watch channel as a user sees it.

use rt_sync::watch;
use rt_test::{block_on, counting_waker, poll_once, poll_with};
use std::pin::pin;

#[test]
fn receivers_see_the_latest_value() {
    let (tx, mut rx) = watch::channel(0);
    assert!(!rx.has_changed().unwrap());
    tx.send(1).unwrap();
    tx.send(2).unwrap();
    assert!(rx.has_changed().unwrap());
    let seen = rx.borrow();
    assert!(seen.has_changed());
    assert_eq!(*seen, 2);
    drop(seen);
    assert!(rx.has_changed().unwrap(), "borrow does not mark seen");
    assert_eq!(*rx.borrow_and_update(), 2);
    assert!(!rx.has_changed().unwrap());
}

#[test]
fn changed_waits_and_wakes() {
    let (tx, mut rx) = watch::channel("a");
    let (count, waker) = counting_waker();
    {
        let mut changed = pin!(rx.changed());
        assert!(poll_with(changed.as_mut(), &waker).is_pending());
        tx.send("b").unwrap();
        assert_eq!(count.count(), 1);
        assert_eq!(poll_once(changed.as_mut()), std::task::Poll::Ready(Ok(())));
    }
    assert_eq!(*rx.borrow(), "b");
    assert!(!rx.borrow().has_changed());
    let mut changed = pin!(rx.changed());
    assert!(poll_with(changed.as_mut(), &waker).is_pending());
    drop(tx);
    assert_eq!(count.count(), 2);
    match poll_once(changed.as_mut()) {
        std::task::Poll::Ready(Err(e)) => assert_eq!(e.to_string(), "channel closed"),
        other => panic!("expected closed, got {other:?}"),
    }
}

#[test]
fn a_change_before_close_is_still_reported() {
    let (tx, mut rx) = watch::channel(0);
    tx.send(1).unwrap();
    drop(tx);
    assert!(rx.has_changed().is_err());
    assert!(block_on(rx.changed()).is_ok());
    assert_eq!(*rx.borrow(), 1);
    assert!(block_on(rx.changed()).is_err());
}

#[test]
fn send_variants() {
    let (tx, rx) = watch::channel(vec![1]);
    tx.send_modify(|v| v.push(2));
    assert!(!tx.send_if_modified(|_| false));
    assert!(tx.send_if_modified(|v| {
        v.push(3);
        true
    }));
    assert_eq!(tx.send_replace(vec![9]), [1, 2, 3]);
    assert_eq!(*tx.borrow(), [9]);
    drop(rx);
    assert!(tx.is_closed());
    let err = tx.send(vec![]).unwrap_err();
    assert_eq!(err.to_string(), "channel closed");
    assert_eq!(format!("{err:?}"), "SendError { .. }");
    tx.send_replace(vec![4]);
    assert_eq!(*tx.borrow(), [4]);
}

#[test]
fn unmodified_send_does_not_wake() {
    let (tx, mut rx) = watch::channel(0);
    let (count, waker) = counting_waker();
    let mut changed = pin!(rx.changed());
    assert!(poll_with(changed.as_mut(), &waker).is_pending());
    tx.send_if_modified(|_| false);
    assert_eq!(count.count(), 0);
    assert!(poll_once(changed.as_mut()).is_pending());
}

#[test]
fn wait_for_checks_the_current_value_first() {
    let (tx, mut rx) = watch::channel(5);
    assert_eq!(*block_on(rx.wait_for(|v| *v == 5)).unwrap(), 5);
    let t = std::thread::spawn(move || {
        for i in 6..=10 {
            tx.send(i).unwrap();
        }
    });
    let ten = block_on(rx.wait_for(|v| *v == 10)).unwrap();
    assert_eq!(*ten, 10);
    drop(ten);
    t.join().unwrap();
    assert!(block_on(rx.wait_for(|v| *v == 11)).is_err());
}

#[test]
fn subscribe_clone_and_counts() {
    let (tx, rx) = watch::channel(0);
    tx.send(1).unwrap();
    let mut fresh = tx.subscribe();
    assert!(
        !fresh.has_changed().unwrap(),
        "subscribers start up to date"
    );
    let cloned = rx.clone();
    assert!(cloned.has_changed().unwrap(), "clones keep the version");
    assert!(cloned.same_channel(&fresh));
    assert_eq!(tx.receiver_count(), 3);
    let tx2 = tx.clone();
    assert_eq!(tx.sender_count(), 2);
    assert!(tx.same_channel(&tx2));
    drop(tx);
    tx2.send(2).unwrap();
    assert!(block_on(fresh.changed()).is_ok());
    fresh.mark_changed();
    assert!(fresh.has_changed().unwrap());
    fresh.mark_unchanged();
    assert!(!fresh.has_changed().unwrap());
}

#[test]
fn sender_closed_future() {
    let (tx, rx) = watch::channel(());
    rt_test::assert_wakes(pin!(tx.closed()), || drop(rx));
}

#[test]
fn sender_new_has_no_receivers() {
    let tx = watch::Sender::new(1);
    assert!(tx.is_closed());
    let mut rx = tx.subscribe();
    tx.send(2).unwrap();
    assert!(block_on(rx.changed()).is_ok());
}

#[test]
fn receiver_sees_the_senders_go() {
    let (tx, rx) = watch::channel(5);
    assert!(!rx.is_closed());
    drop(tx);
    assert!(rx.is_closed());
    assert_eq!(*rx.borrow(), 5, "the last value stays readable");
}

#[test]
fn waits_take_part_in_the_coop_budget() {
    let (tx, mut rx) = watch::channel(0);
    rt_core::task::coop::with_budget(2, || {
        tx.send(1).unwrap();
        assert!(poll_once(pin!(rx.changed())).is_ready());
        assert!(poll_once(pin!(rx.wait_for(|v| *v == 1))).is_ready());
        assert!(poll_once(pin!(rx.changed())).is_pending(), "budget spent");
        drop(rx);
        assert!(poll_once(pin!(tx.closed())).is_pending(), "budget spent");
    });
}
