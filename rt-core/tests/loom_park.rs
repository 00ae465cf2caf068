//! Loom models of the parker and the atomic waker slot: no wake-up is ever
//! lost, whatever the interleaving.
#![cfg(loom)]

use rt_core::loom::sync::atomic::{AtomicBool, Ordering::SeqCst};
use rt_core::loom::sync::Arc;
use rt_core::loom::thread;
use rt_core::runtime::ParkThread;
use rt_core::util::AtomicWaker;
use std::task::Poll;

#[test]
fn unpark_before_or_during_park_is_not_lost() {
    loom::model(|| {
        let park = ParkThread::new();
        let unpark = park.unpark_handle();
        let flag = Arc::new(AtomicBool::new(false));
        let f2 = flag.clone();
        let t = thread::spawn(move || {
            f2.store(true, SeqCst);
            rt_core::runtime::Unpark::unpark(&unpark);
        });
        while !flag.load(SeqCst) {
            park.park_timeout(None);
        }
        t.join().unwrap();
    });
}

#[test]
fn two_unparks_one_park_leave_at_most_one_token() {
    loom::model(|| {
        let park = ParkThread::new();
        let u1 = park.unpark_handle();
        let u2 = park.unpark_handle();
        let t = thread::spawn(move || rt_core::runtime::Unpark::unpark(&u1));
        rt_core::runtime::Unpark::unpark(&u2);
        park.park_timeout(None);
        t.join().unwrap();
        // A second zero-timeout park returns whether or not a token is left.
        park.park_timeout(Some(std::time::Duration::ZERO));
    });
}

/// A future that is ready once a flag is set, and a thread that sets the
/// flag and then wakes the waker the future registered.
fn flag_set_by_another_thread() -> (
    impl std::future::Future<Output = ()>,
    thread::JoinHandle<()>,
) {
    let slot = Arc::new(AtomicWaker::new());
    let flag = Arc::new(AtomicBool::new(false));
    let (s2, f2) = (slot.clone(), flag.clone());
    let t = thread::spawn(move || {
        f2.store(true, SeqCst);
        s2.wake();
    });
    let ready = std::future::poll_fn(move |cx| {
        slot.register_by_ref(cx.waker());
        if flag.load(SeqCst) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    });
    (ready, t)
}

#[test]
fn atomic_waker_register_races_wake() {
    loom::model(|| {
        let (ready, t) = flag_set_by_another_thread();
        loom::future::block_on(ready);
        t.join().unwrap();
    });
}

/// `block_on` yields before it blocks; a wake-up that lands before, during
/// or after those yields must end the wait all the same.
#[test]
fn block_on_sees_a_wake_up_whenever_it_lands() {
    loom::model(|| {
        let (ready, t) = flag_set_by_another_thread();
        rt_core::util::block_on(ready);
        t.join().unwrap();
    });
}
