//! Loom models of Notify: the stored permit, notify_waiters, a woken
//! waiter completing without the lock, and passing a notification on when
//! a notified future is dropped.
#![cfg(loom)]

use loom::future::block_on;
use loom::sync::Arc;
use loom::thread;
use rt_sync::Notify;
use rt_test::poll_once;
use std::pin::pin;

#[test]
fn notify_one_is_never_lost() {
    loom::model(|| {
        let notify = Arc::new(Notify::new());
        let other = notify.clone();
        let t = thread::spawn(move || other.notify_one());
        block_on(notify.notified());
        t.join().unwrap();
    });
}

#[test]
fn notify_waiters_reaches_an_enabled_future() {
    loom::model(|| {
        let notify = Arc::new(Notify::new());
        let mut notified = pin!(notify.notified());
        notified.as_mut().enable();
        let other = notify.clone();
        let t = thread::spawn(move || other.notify_waiters());
        t.join().unwrap();
        block_on(notified);
    });
}

#[test]
fn notify_waiters_races_with_registration() {
    loom::model(|| {
        let notify = Arc::new(Notify::new());
        let notified = notify.notified();
        let other = notify.clone();
        let t = thread::spawn(move || other.notify_waiters());
        // Created before the call, so it completes whichever runs first.
        block_on(notified);
        t.join().unwrap();
    });
}

#[test]
fn dropped_waiter_passes_its_notification_on() {
    loom::model(|| {
        let notify = Arc::new(Notify::new());
        let first = notify.clone();
        let canceller = thread::spawn(move || {
            let mut notified = pin!(first.notified());
            if poll_once(notified.as_mut()).is_ready() {
                // It took the notification itself; hand one to the waiter.
                first.notify_one();
            }
        });
        let second = notify.clone();
        let waiter = thread::spawn(move || block_on(second.notified()));
        notify.notify_one();
        canceller.join().unwrap();
        waiter.join().unwrap();
    });
}

#[test]
fn woken_waiters_complete_while_the_notifier_unlinks_the_rest() {
    loom::model(|| {
        let notify = Arc::new(Notify::new());
        let mut first = pin!(notify.notified());
        let mut second = pin!(notify.notified());
        // Both queued, so `notify_waiters` unlinks and wakes each in turn.
        assert!(poll_once(first.as_mut()).is_pending());
        assert!(poll_once(second.as_mut()).is_pending());
        let other = notify.clone();
        let t = thread::spawn(move || other.notify_waiters());
        // Each completes from its own notification, read without the lock
        // once it is set, while the notifier may still hold the lock.
        block_on(first);
        block_on(second);
        t.join().unwrap();
    });
}

#[test]
fn a_notify_one_seen_without_the_lock_is_consumed() {
    loom::model(|| {
        let notify = Arc::new(Notify::new());
        let mut notified = pin!(notify.notified());
        assert!(poll_once(notified.as_mut()).is_pending());
        let other = notify.clone();
        let t = thread::spawn(move || other.notify_one());
        block_on(notified);
        t.join().unwrap();
        // The one permit went to the waiter: none is left stored.
        let mut next = pin!(notify.notified());
        assert!(poll_once(next.as_mut()).is_pending());
    });
}
