//! Behaviour of `Mutex` as a user sees it.

use rt_sync::{Mutex, MutexGuard, OwnedMutexGuard};
use rt_test::{block_on, counting_waker, poll_once, poll_with};
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;

#[test]
fn lock_and_try_lock() {
    let mutex = Mutex::new(1);
    let mut guard = block_on(mutex.lock());
    *guard += 1;
    let err = mutex.try_lock().unwrap_err();
    assert_eq!(err.to_string(), "operation would block");
    assert_eq!(format!("{mutex:?}"), "Mutex { data: <locked> }");
    drop(guard);
    assert_eq!(*mutex.try_lock().unwrap(), 2);
    assert_eq!(format!("{mutex:?}"), "Mutex { data: 2 }");
}

#[test]
fn unlock_wakes_the_next_waiter() {
    let mutex = Mutex::new(());
    let guard = mutex.try_lock().unwrap();
    let _next = rt_test::assert_wakes(pin!(mutex.lock()), || drop(guard));
}

#[test]
fn waiters_get_the_lock_in_fifo_order() {
    let mutex = Mutex::new(Vec::new());
    let guard = mutex.try_lock().unwrap();
    let mut futures: Vec<_> = (0..5)
        .map(|i| {
            let mutex = &mutex;
            Box::pin(async move { mutex.lock().await.push(i) })
        })
        .collect();
    for f in &mut futures {
        assert!(poll_once(f.as_mut()).is_pending());
    }
    drop(guard);
    // Poll in reverse: only the oldest waiter can ever make progress.
    let mut done = [false; 5];
    while done.iter().any(|d| !d) {
        for i in (0..5).rev() {
            if !done[i] && poll_once(futures[i].as_mut()).is_ready() {
                done[i] = true;
            }
        }
    }
    assert_eq!(*mutex.try_lock().unwrap(), [0, 1, 2, 3, 4]);
}

#[test]
fn cancelled_lock_leaves_the_queue() {
    let mutex = Mutex::new(0);
    let guard = mutex.try_lock().unwrap();
    let mut first = Box::pin(mutex.lock());
    let mut second = pin!(mutex.lock());
    assert!(poll_once(first.as_mut()).is_pending());
    assert!(poll_once(second.as_mut()).is_pending());
    drop(first);
    drop(guard);
    assert!(poll_once(second.as_mut()).is_ready());
}

#[test]
fn no_poisoning_after_a_panic() {
    let mutex = Arc::new(Mutex::new(0));
    let clone = mutex.clone();
    let result = std::thread::spawn(move || {
        let mut guard = clone.blocking_lock();
        *guard = 5;
        panic!("holder panics");
    })
    .join();
    assert!(result.is_err());
    assert_eq!(*mutex.blocking_lock(), 5);
}

#[test]
fn map_and_try_map() {
    let mutex = Mutex::new((1, String::from("a")));
    let guard = block_on(mutex.lock());
    let mut text = MutexGuard::map(guard, |pair| &mut pair.1);
    text.push('b');
    assert!(mutex.try_lock().is_err());
    drop(text);
    let guard = mutex.try_lock().unwrap();
    let guard = MutexGuard::try_map(guard, |_| None::<&mut u8>).unwrap_err();
    let number = MutexGuard::try_map(guard, |pair| Some(&mut pair.0)).unwrap();
    assert_eq!(*number, 1);
    drop(number);
    assert_eq!(mutex.into_inner().1, "ab");
}

#[test]
fn owned_guards() {
    let mutex = Arc::new(Mutex::new(vec![1, 2]));
    let guard = block_on(mutex.clone().lock_owned());
    assert!(Arc::ptr_eq(OwnedMutexGuard::mutex(&guard), &mutex));
    assert!(mutex.clone().try_lock_owned().is_err());
    let mut first = OwnedMutexGuard::map(guard, |v| &mut v[0]);
    *first = 10;
    drop(first);
    let guard = mutex.clone().try_lock_owned().unwrap();
    assert_eq!(*guard, [10, 2]);
    drop(guard);
    let guard = mutex.clone().blocking_lock_owned();
    // The owned guard can move to another thread.
    std::thread::spawn(move || assert_eq!(guard.len(), 2))
        .join()
        .unwrap();
    assert!(mutex.try_lock().is_ok());
}

#[test]
#[cfg(not(loom))]
fn get_mut_into_inner_default_and_const() {
    static GLOBAL: Mutex<u32> = Mutex::const_new(7);
    assert_eq!(*GLOBAL.try_lock().unwrap(), 7);
    let mut mutex: Mutex<u32> = Mutex::default();
    *mutex.get_mut() = 3;
    assert_eq!(Mutex::from(4).into_inner(), 4);
    assert_eq!(mutex.into_inner(), 3);
}

#[test]
fn contended_across_threads() {
    let mutex = Arc::new(Mutex::new(0u64));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let mutex = mutex.clone();
            std::thread::spawn(move || {
                for _ in 0..500 {
                    block_on(async { *mutex.lock().await += 1 });
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(*mutex.blocking_lock(), 2000);
}

#[test]
fn guard_is_ready_when_polled_after_unlock() {
    let mutex = Mutex::new(1);
    let mut lock = pin!(mutex.lock());
    match poll_once(lock.as_mut()) {
        Poll::Ready(guard) => assert_eq!(*guard, 1),
        Poll::Pending => panic!("free mutex must lock at once"),
    };
}

#[test]
fn a_refused_try_map_keeps_the_lock_and_releases_it_once() {
    let mutex = Mutex::new((1u8, 2u8));
    let guard = mutex.try_lock().unwrap();
    let mut guard = MutexGuard::try_map(guard, |_| None::<&mut u8>).unwrap_err();
    guard.0 = 7;
    assert!(mutex.try_lock().is_err());
    assert_eq!(MutexGuard::mutex(&guard) as *const _, &mutex as *const _);
    drop(guard);
    let again = mutex.try_lock().unwrap();
    assert_eq!(*again, (7, 2));
    drop(again);
    // Exactly one permit: a second holder is still excluded.
    let _held = mutex.try_lock().unwrap();
    assert!(mutex.try_lock().is_err());
}

#[test]
fn owned_try_map_refused_and_accepted() {
    let mutex = Arc::new(Mutex::new((1u8, 2u8)));
    let guard = mutex.clone().try_lock_owned().unwrap();
    let mut guard = OwnedMutexGuard::try_map(guard, |_| None::<&mut u8>).unwrap_err();
    guard.1 = 8;
    assert!(mutex.try_lock().is_err());
    assert!(Arc::ptr_eq(OwnedMutexGuard::mutex(&guard), &mutex));
    let mut part = OwnedMutexGuard::try_map(guard, |p| Some(&mut p.0)).unwrap();
    *part = 6;
    assert!(mutex.try_lock().is_err());
    drop(part);
    assert_eq!(*mutex.try_lock().unwrap(), (6, 8));
    let whole = OwnedMutexGuard::map(mutex.clone().try_lock_owned().unwrap(), |p| p);
    assert_eq!(*whole, (6, 8));
    assert!(mutex.try_lock().is_err());
    drop(whole);
    let _held = mutex.try_lock().unwrap();
    assert!(mutex.try_lock().is_err());
}

#[test]
fn a_waiter_out_of_budget_keeps_its_place_in_line() {
    let mutex = Mutex::new(());
    let guard = mutex.try_lock().unwrap();
    let (_, first_waker) = counting_waker();
    let (second, second_waker) = counting_waker();
    let mut first = pin!(mutex.lock());
    let mut later = pin!(mutex.lock());
    rt_core::task::coop::with_budget(0, || {
        assert!(poll_with(first.as_mut(), &first_waker).is_pending());
    });
    rt_core::task::coop::with_budget(0, || {
        assert!(poll_with(later.as_mut(), &second_waker).is_pending());
    });
    drop(guard);
    assert_eq!(second.count(), 0, "the lock goes to the first in line");
    assert!(poll_once(first.as_mut()).is_ready());
}

#[test]
fn a_lock_taken_without_budget_is_held_until_polled_or_dropped() {
    let mutex = Mutex::new(());
    {
        let mut waiter = pin!(mutex.lock());
        rt_core::task::coop::with_budget(0, || assert!(poll_once(waiter.as_mut()).is_pending()));
        assert!(
            mutex.try_lock().is_err(),
            "kept for the waiter that yielded"
        );
    }
    assert!(
        mutex.try_lock().is_ok(),
        "given back when the waiter is dropped"
    );
    let mut waiter = pin!(mutex.lock());
    rt_core::task::coop::with_budget(0, || assert!(poll_once(waiter.as_mut()).is_pending()));
    assert!(
        poll_once(waiter.as_mut()).is_ready(),
        "the next poll has it"
    );
}

/// A waker that holds the mutex's guard: dropping the waker unlocks.
struct UnlockOnDrop(#[allow(dead_code)] OwnedMutexGuard<()>);

impl std::task::Wake for UnlockOnDrop {
    fn wake(self: Arc<Self>) {}
}

#[test]
fn replacing_a_waker_whose_drop_unlocks_does_not_deadlock() {
    let mutex = Arc::new(Mutex::new(()));
    let guard = mutex.clone().try_lock_owned().unwrap();
    let mut waiter = pin!(mutex.lock());
    let waker = std::task::Waker::from(Arc::new(UnlockOnDrop(guard)));
    assert!(poll_with(waiter.as_mut(), &waker).is_pending());
    drop(waker);
    // This poll replaces the stored waker; dropping it unlocks the mutex,
    // which hands the lock to this very waiter.
    let _ = poll_once(waiter.as_mut());
    assert!(poll_once(waiter.as_mut()).is_ready());
}
