//! Loom models of what the shim builds where loom lacks a piece: `try_lock`
//! fails instead of blocking, a timed wait ends and moves the virtual clock
//! by its timeout, and id counters restart in each execution.
#![cfg(loom)]

use rt_core::loom::counter::Counter;
use rt_core::loom::sync::atomic::{AtomicBool, Ordering::SeqCst};
use rt_core::loom::sync::{Arc, Condvar, Mutex};
use rt_core::loom::thread;
use rt_core::loom::time::Instant;
use std::time::Duration;

/// A thread that got the lock with `try_lock` holds it while it sleeps on
/// a condvar of its own, as a worker parked on the driver does; another
/// thread's `try_lock` meanwhile gets `WouldBlock` (or the lock, if it came
/// first), never waits behind the sleeper (loom 0.7 alone reports a
/// deadlock here).
#[test]
fn try_lock_never_waits_for_a_holder() {
    loom::model(|| {
        let driver = Arc::new(Mutex::new(()));
        let wake = Arc::new((Mutex::new(false), Condvar::new()));
        let holder = {
            let (driver, wake) = (driver.clone(), wake.clone());
            thread::spawn(move || {
                let _held = driver.try_lock();
                let mut woken = wake.0.lock().unwrap();
                while !*woken {
                    woken = wake.1.wait(woken).unwrap();
                }
            })
        };
        drop(driver.try_lock());
        *wake.0.lock().unwrap() = true;
        wake.1.notify_one();
        holder.join().unwrap();
        // Free again once the holder is gone.
        assert!(driver.try_lock().is_ok());
    });
}

/// A timed wait nobody notifies ends, and the clock shows its timeout
/// passed; a notification before it is not required.
#[test]
fn timed_wait_ends_and_advances_the_clock() {
    loom::model(|| {
        let lock = Mutex::new(());
        let condvar = Condvar::new();
        let start = Instant::now();
        let (_guard, result) = condvar
            .wait_timeout(lock.lock().unwrap(), Duration::from_secs(10))
            .unwrap();
        assert!(result.timed_out());
        assert_eq!(start.elapsed(), Duration::from_secs(10));
    });
}

/// A timed waiter and a notifier on another thread: whichever order they
/// run in, both finish.
#[test]
fn timed_wait_racing_a_notification_finishes() {
    loom::model(|| {
        let shared = Arc::new((Mutex::new(()), Condvar::new(), AtomicBool::new(false)));
        let notifier = {
            let shared = shared.clone();
            thread::spawn(move || {
                shared.2.store(true, SeqCst);
                shared.1.notify_one();
            })
        };
        let guard = shared.0.lock().unwrap();
        drop(
            shared
                .1
                .wait_timeout(guard, Duration::from_millis(1))
                .unwrap(),
        );
        notifier.join().unwrap();
        assert!(shared.2.load(SeqCst));
    });
}

/// Numbers a static counter hands out are the same in every execution, as
/// loom's replay of a path needs.
#[test]
fn counters_restart_in_each_execution() {
    static IDS: Counter = Counter::new(1);
    loom::model(|| {
        assert_eq!(IDS.next(), 1);
        let other = thread::spawn(|| IDS.next());
        let mine = IDS.next();
        let theirs = other.join().unwrap();
        assert_eq!(mine + theirs, 5);
    });
}
