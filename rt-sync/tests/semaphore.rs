//! Behaviour of `Semaphore` as a user sees it.

use rt_sync::{AcquireError, Semaphore, TryAcquireError};
use rt_test::{block_on, counting_waker, poll_once, poll_with};
use std::pin::pin;
use std::sync::Arc;

#[test]
fn try_acquire_counts_permits() {
    let semaphore = Semaphore::new(2);
    let a = semaphore.try_acquire().unwrap();
    let b = semaphore.try_acquire().unwrap();
    assert_eq!(
        semaphore.try_acquire().unwrap_err(),
        TryAcquireError::NoPermits
    );
    drop(a);
    assert_eq!(semaphore.available_permits(), 1);
    drop(b);
    assert_eq!(semaphore.available_permits(), 2);
    assert!(semaphore.try_acquire_many(3).unwrap_err().is_no_permits());
    assert_eq!(semaphore.try_acquire_many(2).unwrap().num_permits(), 2);
}

#[test]
fn add_and_forget_permits() {
    let semaphore = Semaphore::new(1);
    semaphore.add_permits(4);
    assert_eq!(semaphore.available_permits(), 5);
    assert_eq!(semaphore.forget_permits(3), 3);
    assert_eq!(semaphore.forget_permits(10), 2);
    assert_eq!(semaphore.forget_permits(1), 0);
    assert_eq!(semaphore.available_permits(), 0);
}

#[test]
fn close_fails_waiters_and_later_acquires() {
    let semaphore = Semaphore::new(0);
    let (count, waker) = counting_waker();
    let mut waiting = pin!(semaphore.acquire());
    assert!(poll_with(waiting.as_mut(), &waker).is_pending());
    semaphore.close();
    assert_eq!(count.count(), 1);
    assert!(semaphore.is_closed());
    match poll_once(waiting.as_mut()) {
        std::task::Poll::Ready(Err(e)) => assert_eq!(e.to_string(), "semaphore closed"),
        other => panic!("expected a closed error, got {other:?}"),
    }
    assert_eq!(
        semaphore.try_acquire().unwrap_err(),
        TryAcquireError::Closed
    );
    assert_eq!(TryAcquireError::Closed.to_string(), "semaphore closed");
    assert_eq!(
        TryAcquireError::NoPermits.to_string(),
        "no permits available"
    );
    let err: AcquireError = block_on(semaphore.acquire()).unwrap_err();
    assert_eq!(err.to_string(), "semaphore closed");
}

#[test]
fn permits_held_across_close_stay_valid() {
    let semaphore = Semaphore::new(1);
    let permit = semaphore.try_acquire().unwrap();
    semaphore.close();
    drop(permit);
    assert_eq!(semaphore.available_permits(), 1);
    assert!(semaphore.try_acquire().is_err());
}

#[test]
fn waiters_are_served_in_fifo_order() {
    let semaphore = Semaphore::new(0);
    let mut first = pin!(semaphore.acquire());
    let mut second = pin!(semaphore.acquire());
    let mut third = pin!(semaphore.acquire());
    assert!(poll_once(first.as_mut()).is_pending());
    assert!(poll_once(second.as_mut()).is_pending());
    assert!(poll_once(third.as_mut()).is_pending());

    semaphore.add_permits(1);
    assert!(poll_once(third.as_mut()).is_pending());
    assert!(poll_once(second.as_mut()).is_pending());
    let p1 = match poll_once(first.as_mut()) {
        std::task::Poll::Ready(p) => p.unwrap(),
        _ => panic!("the first waiter gets the first permit"),
    };
    drop(p1);
    assert!(poll_once(third.as_mut()).is_pending());
    assert!(poll_once(second.as_mut()).is_ready());
}

#[test]
fn a_large_request_at_the_head_holds_back_smaller_ones() {
    let semaphore = Semaphore::new(0);
    let mut big = pin!(semaphore.acquire_many(3));
    let mut small = pin!(semaphore.acquire());
    assert!(poll_once(big.as_mut()).is_pending());
    assert!(poll_once(small.as_mut()).is_pending());
    semaphore.add_permits(2);
    assert!(poll_once(small.as_mut()).is_pending());
    assert!(poll_once(big.as_mut()).is_pending());
    assert_eq!(semaphore.available_permits(), 0, "partially assigned");
    assert!(
        semaphore.try_acquire().is_err(),
        "no overtaking via try_acquire"
    );
    semaphore.add_permits(2);
    assert!(poll_once(big.as_mut()).is_ready());
    assert!(poll_once(small.as_mut()).is_ready());
}

#[test]
fn cancelling_a_partial_waiter_returns_permits_and_wakes_the_next() {
    let semaphore = Semaphore::new(0);
    let (count, waker) = counting_waker();
    {
        let mut big = Box::pin(semaphore.acquire_many(3));
        assert!(poll_once(big.as_mut()).is_pending());
        let mut small = pin!(semaphore.acquire());
        assert!(poll_with(small.as_mut(), &waker).is_pending());
        semaphore.add_permits(2);
        assert_eq!(count.count(), 0);
        // Drop `big`: its two permits go to `small`, then to the pool.
        drop(big);
        assert_eq!(count.count(), 1);
        let permit = match poll_once(small.as_mut()) {
            std::task::Poll::Ready(p) => p.unwrap(),
            _ => panic!("small should have its permit"),
        };
        assert_eq!(semaphore.available_permits(), 1);
        drop(permit);
    }
    assert_eq!(semaphore.available_permits(), 2);
}

#[test]
fn many_waiters_are_all_woken() {
    // More waiters than one wake batch.
    let semaphore = Semaphore::new(0);
    let (count, waker) = counting_waker();
    let mut futures: Vec<_> = (0..100).map(|_| Box::pin(semaphore.acquire())).collect();
    for f in &mut futures {
        assert!(poll_with(f.as_mut(), &waker).is_pending());
    }
    semaphore.add_permits(100);
    assert_eq!(count.count(), 100);
    for f in &mut futures {
        assert!(poll_once(f.as_mut()).is_ready());
    }
}

#[test]
fn split_merge_and_forget() {
    let semaphore = Semaphore::new(5);
    let mut permit = semaphore.try_acquire_many(4).unwrap();
    let part = permit.split(3).unwrap();
    assert_eq!(permit.num_permits(), 1);
    assert_eq!(part.num_permits(), 3);
    assert!(permit.split(2).is_none());
    permit.merge(part);
    assert_eq!(permit.num_permits(), 4);
    permit.forget();
    assert_eq!(semaphore.available_permits(), 1);
}

#[test]
#[should_panic(expected = "merging permits from different semaphores")]
fn merging_permits_of_two_semaphores_panics() {
    let a = Semaphore::new(1);
    let b = Semaphore::new(1);
    let mut pa = a.try_acquire().unwrap();
    pa.merge(b.try_acquire().unwrap());
}

#[test]
fn owned_permits() {
    let semaphore = Arc::new(Semaphore::new(3));
    let mut owned = block_on(semaphore.clone().acquire_many_owned(2)).unwrap();
    assert!(Arc::ptr_eq(owned.semaphore(), &semaphore));
    let one = owned.split(1).unwrap();
    let extra = semaphore.clone().try_acquire_owned().unwrap();
    assert!(semaphore.clone().try_acquire_many_owned(1).is_err());
    owned.merge(one);
    drop(owned);
    drop(extra);
    let single = block_on(semaphore.clone().acquire_owned()).unwrap();
    assert_eq!(single.num_permits(), 1);
    assert_eq!(semaphore.available_permits(), 2);
}

#[test]
#[cfg(not(loom))]
fn max_permits_and_const_new() {
    static GLOBAL: Semaphore = Semaphore::const_new(2);
    assert_eq!(GLOBAL.available_permits(), 2);
    assert_eq!(Semaphore::MAX_PERMITS, usize::MAX >> 3);
    let semaphore = Semaphore::new(Semaphore::MAX_PERMITS);
    assert_eq!(semaphore.available_permits(), Semaphore::MAX_PERMITS);
}

#[test]
#[should_panic(expected = "a semaphore may not have more than MAX_PERMITS permits")]
fn too_many_permits_panics() {
    let _ = Semaphore::new(Semaphore::MAX_PERMITS + 1);
}

#[test]
#[should_panic(expected = "would overflow MAX_PERMITS")]
fn adding_past_max_permits_panics() {
    let semaphore = Semaphore::new(Semaphore::MAX_PERMITS);
    semaphore.add_permits(1);
}

#[test]
fn hand_off_between_threads() {
    let semaphore = Arc::new(Semaphore::new(0));
    let counter = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let semaphore = semaphore.clone();
            let counter = counter.clone();
            std::thread::spawn(move || {
                for _ in 0..100 {
                    let permit = block_on(semaphore.acquire()).unwrap();
                    counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    drop(permit);
                }
            })
        })
        .collect();
    semaphore.add_permits(2);
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(counter.load(std::sync::atomic::Ordering::SeqCst), 400);
    assert_eq!(semaphore.available_permits(), 2);
}

#[test]
fn blocking_acquire_waits_for_a_permit_from_another_thread() {
    let semaphore = Arc::new(Semaphore::new(0));
    let adder = {
        let semaphore = semaphore.clone();
        std::thread::spawn(move || semaphore.add_permits(3))
    };
    let two = semaphore.blocking_acquire_many(2).unwrap();
    let one = semaphore.clone().blocking_acquire_owned().unwrap();
    adder.join().unwrap();
    assert_eq!((two.num_permits(), one.num_permits()), (2, 1));
    assert!(std::ptr::eq(two.semaphore(), &*semaphore));
    assert!(Arc::ptr_eq(one.semaphore(), &semaphore));
    drop((two, one));
    let _one = semaphore.blocking_acquire().unwrap();
    semaphore.close();
    assert!(semaphore.clone().blocking_acquire_many_owned(1).is_err());
}

#[test]
#[cfg(target_pointer_width = "64")]
fn merged_permits_may_exceed_one_acquisition() {
    let semaphore = Semaphore::new(6_000_000_000);
    let mut a = semaphore.try_acquire_many(3_000_000_000).unwrap();
    a.merge(semaphore.try_acquire_many(3_000_000_000).unwrap());
    assert_eq!(a.num_permits(), 6_000_000_000);
    let b = a.split(5_000_000_000).unwrap();
    drop(a);
    assert_eq!(semaphore.available_permits(), 1_000_000_000);
    drop(b);
    assert_eq!(semaphore.available_permits(), 6_000_000_000);
}
