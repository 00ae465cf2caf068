//! Behaviour of `Notify` as a user sees it.

use rt_sync::Notify;
use rt_test::{block_on, counting_waker, poll_once, poll_with};
use std::pin::pin;
use std::sync::Arc;

#[test]
fn notify_one_stores_a_single_permit() {
    let notify = Notify::new();
    notify.notify_one();
    notify.notify_one();
    block_on(notify.notified());
    let mut second = pin!(notify.notified());
    assert!(poll_once(second.as_mut()).is_pending(), "only one permit");
}

#[test]
fn notify_one_wakes_the_oldest_waiter() {
    let notify = Notify::new();
    let (c1, w1) = counting_waker();
    let (c2, w2) = counting_waker();
    let mut first = pin!(notify.notified());
    let mut second = pin!(notify.notified());
    assert!(poll_with(first.as_mut(), &w1).is_pending());
    assert!(poll_with(second.as_mut(), &w2).is_pending());
    notify.notify_one();
    assert_eq!((c1.count(), c2.count()), (1, 0));
    assert!(poll_once(first.as_mut()).is_ready());
    assert!(poll_once(second.as_mut()).is_pending());
}

#[test]
fn notify_last_wakes_the_newest_waiter() {
    let notify = Notify::new();
    let mut first = pin!(notify.notified());
    let mut second = pin!(notify.notified());
    assert!(poll_once(first.as_mut()).is_pending());
    assert!(poll_once(second.as_mut()).is_pending());
    notify.notify_last();
    assert!(poll_once(first.as_mut()).is_pending());
    assert!(poll_once(second.as_mut()).is_ready());
}

#[test]
fn notify_waiters_wakes_everyone_and_stores_nothing() {
    let notify = Notify::new();
    let (count, waker) = counting_waker();
    let mut futures: Vec<_> = (0..40).map(|_| Box::pin(notify.notified())).collect();
    for f in &mut futures {
        assert!(poll_with(f.as_mut(), &waker).is_pending());
    }
    notify.notify_waiters();
    assert_eq!(count.count(), 40);
    for f in &mut futures {
        assert!(poll_once(f.as_mut()).is_ready());
    }
    let mut later = pin!(notify.notified());
    assert!(poll_once(later.as_mut()).is_pending(), "no permit stored");
}

#[test]
fn notified_created_before_notify_waiters_completes_unpolled() {
    let notify = Notify::new();
    let mut early = pin!(notify.notified());
    notify.notify_waiters();
    let mut late = pin!(notify.notified());
    assert!(poll_once(early.as_mut()).is_ready());
    assert!(poll_once(late.as_mut()).is_pending());
}

#[test]
fn enable_joins_the_queue_without_polling() {
    let notify = Notify::new();
    let mut a = pin!(notify.notified());
    let mut b = pin!(notify.notified());
    assert!(!a.as_mut().enable());
    assert!(!b.as_mut().enable());
    notify.notify_one();
    assert!(a.as_mut().enable());
    assert!(poll_once(b.as_mut()).is_pending());
}

#[test]
fn dropped_notified_passes_notify_one_on() {
    let notify = Notify::new();
    let mut first = Box::pin(notify.notified());
    let (count, waker) = counting_waker();
    let mut second = pin!(notify.notified());
    assert!(poll_once(first.as_mut()).is_pending());
    assert!(poll_with(second.as_mut(), &waker).is_pending());
    notify.notify_one();
    drop(first);
    assert_eq!(count.count(), 1);
    assert!(poll_once(second.as_mut()).is_ready());
}

#[test]
fn dropped_notified_with_nobody_else_stores_the_permit() {
    let notify = Notify::new();
    let mut only = Box::pin(notify.notified());
    assert!(poll_once(only.as_mut()).is_pending());
    notify.notify_one();
    drop(only);
    let mut next = pin!(notify.notified());
    assert!(poll_once(next.as_mut()).is_ready());
}

#[test]
fn cross_thread_ping_pong() {
    let ping = Arc::new(Notify::new());
    let pong = Arc::new(Notify::new());
    let (ping2, pong2) = (ping.clone(), pong.clone());
    let t = std::thread::spawn(move || {
        for _ in 0..200 {
            block_on(ping2.notified());
            pong2.notify_one();
        }
    });
    for _ in 0..200 {
        ping.notify_one();
        block_on(pong.notified());
    }
    t.join().unwrap();
}

#[test]
#[cfg(not(loom))]
fn const_new_and_default() {
    static GLOBAL: Notify = Notify::const_new();
    GLOBAL.notify_one();
    block_on(GLOBAL.notified());
    let _ = Notify::default();
}

#[test]
fn owned_notified_outlives_the_borrow_and_passes_notify_one_on() {
    let notify = Arc::new(Notify::new());
    let (c1, w1) = counting_waker();
    let mut first = Box::pin(notify.clone().notified_owned());
    let mut second = Box::pin(notify.clone().notified_owned());
    assert!(poll_with(first.as_mut(), &w1).is_pending());
    assert!(!second.as_mut().enable());
    notify.notify_one();
    assert_eq!(c1.count(), 1);
    drop(first);
    assert!(poll_once(second.as_mut()).is_ready(), "handed on at drop");
    let late = notify.clone().notified_owned();
    notify.notify_waiters();
    block_on(late);
    drop(second);
    assert_eq!(Arc::strong_count(&notify), 1, "futures release the Notify");
}

/// A waker whose drop notifies the same `Notify`.
struct NotifyOnDrop(Arc<Notify>);

impl std::task::Wake for NotifyOnDrop {
    fn wake(self: Arc<Self>) {}
}

impl Drop for NotifyOnDrop {
    fn drop(&mut self) {
        self.0.notify_waiters();
    }
}

#[test]
fn replacing_a_waker_that_uses_the_notify_does_not_deadlock() {
    let notify = Arc::new(Notify::new());
    let mut notified = pin!(notify.notified());
    let waker = std::task::Waker::from(Arc::new(NotifyOnDrop(notify.clone())));
    assert!(poll_with(notified.as_mut(), &waker).is_pending());
    drop(waker);
    // The stored waker is replaced (and dropped) by this poll.
    let _ = poll_once(notified.as_mut());
    assert!(poll_once(notified.as_mut()).is_ready());
}
