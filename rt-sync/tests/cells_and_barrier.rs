//! Behaviour of `Barrier`, `OnceCell` and `SetOnce` as a user sees them.

use rt_sync::{Barrier, OnceCell, SetError, SetOnce, SetOnceError};
use rt_test::{block_on, counting_waker, poll_once, poll_with};
use std::pin::pin;
use std::sync::Arc;

#[test]
fn barrier_releases_a_generation_with_one_leader() {
    let barrier = Barrier::new(3);
    let mut a = Box::pin(barrier.wait());
    let mut b = Box::pin(barrier.wait());
    assert!(poll_once(a.as_mut()).is_pending());
    assert!(poll_once(b.as_mut()).is_pending());
    let leader = block_on(barrier.wait());
    assert!(leader.is_leader());
    let (ra, rb) = match (poll_once(a.as_mut()), poll_once(b.as_mut())) {
        (std::task::Poll::Ready(ra), std::task::Poll::Ready(rb)) => (ra, rb),
        _ => panic!("both waiters are released"),
    };
    assert!(!ra.is_leader() && !rb.is_leader());
    // Reusable: the next generation starts empty.
    let mut c = pin!(barrier.wait());
    assert!(poll_once(c.as_mut()).is_pending());
}

#[test]
fn barrier_of_zero_or_one_never_waits() {
    assert!(block_on(Barrier::new(0).wait()).is_leader());
    assert!(block_on(Barrier::new(1).wait()).is_leader());
}

#[test]
fn barrier_across_threads() {
    let barrier = Arc::new(Barrier::new(4));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                (0..20)
                    .filter(|_| block_on(barrier.wait()).is_leader())
                    .count()
            })
        })
        .collect();
    let leaders: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(leaders, 20, "one leader per generation");
}

#[test]
fn once_cell_set_get_and_errors() {
    let cell = OnceCell::new();
    assert!(!cell.initialized());
    assert_eq!(cell.get(), None);
    cell.set(1).unwrap();
    let err = cell.set(2).unwrap_err();
    assert!(err.is_already_init_err());
    assert_eq!(err.to_string(), "AlreadyInitializedError");
    assert_eq!(err, SetError::AlreadyInitializedError(2));
    assert_eq!(cell.get(), Some(&1));
    assert_eq!(format!("{cell:?}"), "OnceCell { value: Some(1) }");
    assert_eq!(cell.clone(), cell);
}

#[test]
fn once_cell_set_while_initialising_fails() {
    let cell = OnceCell::new();
    let (count, waker) = counting_waker();
    let mut init = pin!(cell.get_or_init(std::future::pending::<u8>));
    assert!(poll_with(init.as_mut(), &waker).is_pending());
    let err = cell.set(3).unwrap_err();
    assert!(err.is_initializing_err());
    assert_eq!(err.to_string(), "InitializingError");
    assert_eq!(count.count(), 0);
}

#[test]
fn once_cell_runs_one_initialiser_and_others_wait() {
    let cell = OnceCell::new();
    let (count, waker) = counting_waker();
    let (tx, rx) = rt_sync::oneshot::channel::<u32>();
    let mut first = pin!(cell.get_or_init(|| async { rx.await.unwrap() }));
    let mut second = pin!(cell.get_or_init(|| async { unreachable!("only one init runs") }));
    assert!(poll_once(first.as_mut()).is_pending());
    assert!(poll_with(second.as_mut(), &waker).is_pending());
    tx.send(8).unwrap();
    assert_eq!(poll_once(first.as_mut()), std::task::Poll::Ready(&8));
    assert_eq!(count.count(), 1);
    assert_eq!(poll_once(second.as_mut()), std::task::Poll::Ready(&8));
}

#[test]
fn once_cell_failed_or_cancelled_init_lets_the_next_try() {
    let cell = OnceCell::<u32>::new();
    let failed: Result<&u32, &str> = block_on(cell.get_or_try_init(|| async { Err("no") }));
    assert_eq!(failed, Err("no"));
    assert!(!cell.initialized());
    {
        let mut cancelled = Box::pin(cell.get_or_init(std::future::pending));
        assert!(poll_once(cancelled.as_mut()).is_pending());
    }
    assert_eq!(block_on(cell.get_or_init(|| async { 4 })), &4);
}

#[test]
fn once_cell_take_into_inner_and_drop() {
    let marker = Arc::new(());
    let mut cell = OnceCell::new_with(Some(marker.clone()));
    assert!(cell.take().is_some());
    assert!(!cell.initialized());
    cell.set(marker.clone()).unwrap();
    *cell.get_mut().unwrap() = marker.clone();
    assert!(cell.into_inner().is_some());
    let cell = OnceCell::from(marker.clone());
    drop(cell);
    assert_eq!(Arc::strong_count(&marker), 1);
    assert_eq!(OnceCell::<u8>::default().into_inner(), None);
}

#[test]
#[cfg(not(loom))]
fn once_cell_in_a_static() {
    static CELL: OnceCell<u32> = OnceCell::const_new();
    assert_eq!(block_on(CELL.get_or_init(|| async { 12 })), &12);
    static READY: OnceCell<u32> = OnceCell::const_new_with(5);
    assert_eq!(READY.get(), Some(&5));
    assert!(READY.set(6).unwrap_err().is_already_init_err());
    assert_eq!(block_on(READY.get_or_init(|| async { 7 })), &5);
}

#[test]
fn set_once_wakes_waiters() {
    let cell = SetOnce::new();
    let value = rt_test::assert_wakes(pin!(cell.wait()), || cell.set(String::from("v")).unwrap());
    assert_eq!(value, "v");
}

#[test]
fn set_once_rejects_a_second_value() {
    let cell = SetOnce::from(1);
    let err = cell.set(2).unwrap_err();
    assert_eq!(err, SetOnceError(2));
    assert_eq!(err.to_string(), "SetOnceError");
    assert_eq!(cell.get(), Some(&1));
    assert!(cell.initialized());
    assert_eq!(cell.clone(), cell);
    assert_eq!(cell.into_inner(), Some(1));
    assert_eq!(SetOnce::<u8>::default().into_inner(), None);
}

#[test]
fn set_once_drops_its_value() {
    let marker = Arc::new(());
    let cell = SetOnce::new_with(Some(marker.clone()));
    drop(cell);
    assert_eq!(Arc::strong_count(&marker), 1);
}

#[test]
fn set_once_across_threads() {
    let cell = Arc::new(SetOnce::new());
    let waiters: Vec<_> = (0..3)
        .map(|_| {
            let cell = cell.clone();
            std::thread::spawn(move || *block_on(cell.wait()))
        })
        .collect();
    cell.set(99u32).unwrap();
    for w in waiters {
        assert_eq!(w.join().unwrap(), 99);
    }
}

#[test]
#[cfg(not(loom))]
fn set_once_in_a_static() {
    static CELL: SetOnce<u8> = SetOnce::const_new();
    CELL.set(1).unwrap();
    assert_eq!(block_on(CELL.wait()), &1);
    static READY: SetOnce<u8> = SetOnce::const_new_with(2);
    assert_eq!(READY.get(), Some(&2));
    assert!(READY.set(3).is_err());
}
