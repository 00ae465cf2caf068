//! Loom models of Notify: the stored permit, notify_waiters and passing a
//! notification on when a notified future is dropped.
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
