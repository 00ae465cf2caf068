//! Behaviour of `RwLock` as a user sees it.

use rt_sync::{
    OwnedRwLockReadGuard, OwnedRwLockWriteGuard, RwLock, RwLockReadGuard, RwLockWriteGuard,
};
use rt_test::{block_on, counting_waker, poll_once, poll_with};
use std::pin::pin;
use std::sync::Arc;

#[test]
fn readers_share_writers_exclude() {
    let lock = RwLock::new(1);
    let a = lock.try_read().unwrap();
    let b = lock.try_read().unwrap();
    assert_eq!(*a + *b, 2);
    assert_eq!(
        lock.try_write().unwrap_err().to_string(),
        "operation would block"
    );
    drop((a, b));
    let mut w = lock.try_write().unwrap();
    *w = 2;
    assert!(lock.try_read().is_err());
    assert_eq!(format!("{lock:?}"), "RwLock { data: <locked> }");
    drop(w);
    assert_eq!(format!("{lock:?}"), "RwLock { data: 2 }");
}

#[test]
fn a_waiting_writer_holds_back_later_readers() {
    let lock = RwLock::new(0);
    let reader = lock.try_read().unwrap();
    let (count, waker) = counting_waker();
    let mut writer = pin!(lock.write());
    assert!(poll_with(writer.as_mut(), &waker).is_pending());
    let mut late_reader = pin!(lock.read());
    assert!(
        poll_once(late_reader.as_mut()).is_pending(),
        "write-preferring"
    );
    assert!(lock.try_read().is_err());
    drop(reader);
    assert_eq!(count.count(), 1);
    let guard = match poll_once(writer.as_mut()) {
        std::task::Poll::Ready(g) => g,
        _ => panic!("writer should hold the lock"),
    };
    drop(guard);
    assert!(poll_once(late_reader.as_mut()).is_ready());
}

#[test]
fn downgrade_lets_waiting_readers_in() {
    let lock = RwLock::new(String::from("a"));
    let mut writer = block_on(lock.write());
    writer.push('b');
    let mut reader = pin!(lock.read());
    assert!(poll_once(reader.as_mut()).is_pending());
    let read = writer.downgrade();
    assert!(poll_once(reader.as_mut()).is_ready());
    assert_eq!(*read, "ab");
    assert!(lock.try_write().is_err());
}

#[test]
fn max_readers_limits_concurrent_reads() {
    let lock = RwLock::with_max_readers(0, 2);
    let a = lock.try_read().unwrap();
    let _b = lock.try_read().unwrap();
    assert!(lock.try_read().is_err());
    drop(a);
    assert!(lock.try_read().is_ok());
}

#[test]
#[should_panic(expected = "a RwLock may not be created with more than")]
fn too_many_readers_panics() {
    let _ = RwLock::with_max_readers((), u32::MAX);
}

#[test]
fn mapped_guards() {
    let lock = RwLock::new((1, vec![1, 2]));
    {
        let guard = block_on(lock.write());
        let mut list = RwLockWriteGuard::map(guard, |pair| &mut pair.1);
        list.push(3);
    }
    let guard = block_on(lock.read());
    let guard = RwLockReadGuard::try_map(guard, |_| None::<&u8>).unwrap_err();
    let list = RwLockReadGuard::map(guard, |pair| &pair.1);
    assert_eq!(*list, [1, 2, 3]);
    drop(list);
    let guard = lock.try_write().unwrap();
    let mapped = RwLockWriteGuard::into_mapped(guard);
    assert_eq!(mapped.0, 1);
}

#[test]
fn owned_guards() {
    let lock = Arc::new(RwLock::new(vec![0u8; 3]));
    let read = block_on(lock.clone().read_owned());
    assert!(Arc::ptr_eq(OwnedRwLockReadGuard::rwlock(&read), &lock));
    let second = lock.clone().try_read_owned().unwrap();
    let first_elem = OwnedRwLockReadGuard::map(second, |v| &v[0]);
    assert_eq!(*first_elem, 0);
    assert!(lock.clone().try_write_owned().is_err());
    drop((read, first_elem));
    let write = block_on(lock.clone().write_owned());
    let mut elem = OwnedRwLockWriteGuard::map(write, |v| &mut v[1]);
    *elem = 9;
    let read = elem.downgrade();
    assert_eq!(*read, 9);
    assert!(lock.clone().try_read_owned().is_ok());
    drop(read);
    let write = lock.clone().try_write_owned().unwrap();
    let read = write.downgrade();
    std::thread::spawn(move || assert_eq!(read.len(), 3))
        .join()
        .unwrap();
    assert!(lock.try_write().is_ok());
}

#[test]
fn blocking_use_from_threads() {
    let lock = Arc::new(RwLock::new(0u32));
    let writers: Vec<_> = (0..4)
        .map(|_| {
            let lock = lock.clone();
            std::thread::spawn(move || {
                for _ in 0..250 {
                    *lock.blocking_write() += 1;
                    let _ = *lock.blocking_read();
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    assert_eq!(*lock.blocking_read(), 1000);
}

#[test]
#[cfg(not(loom))]
fn get_mut_into_inner_and_statics() {
    static GLOBAL: RwLock<u8> = RwLock::const_new(1);
    static LIMITED: RwLock<u8> = RwLock::const_with_max_readers(2, 1);
    assert_eq!(*GLOBAL.try_read().unwrap(), 1);
    let _r = LIMITED.try_read().unwrap();
    assert!(LIMITED.try_read().is_err());
    let mut lock = RwLock::from(5);
    *lock.get_mut() += 1;
    assert_eq!(lock.into_inner(), 6);
    assert_eq!(RwLock::<u8>::default().into_inner(), 0);
}

#[test]
fn a_refused_write_try_map_keeps_the_lock_and_releases_it_once() {
    let lock = RwLock::new((1u8, 2u8));
    let guard = lock.try_write().unwrap();
    let mut guard = RwLockWriteGuard::try_map(guard, |_| None::<&mut u8>).unwrap_err();
    guard.0 = 7;
    assert!(lock.try_read().is_err());
    // The guard that came back still downgrades like a fresh one.
    let read = guard.downgrade();
    let other = lock.try_read().unwrap();
    assert_eq!((*read, *other), ((7, 2), (7, 2)));
    assert!(lock.try_write().is_err());
    drop((read, other));
    let second = RwLockWriteGuard::try_map(lock.try_write().unwrap(), |p| Some(&mut p.1));
    let mut second = second.unwrap();
    *second = 9;
    assert!(lock.try_read().is_err());
    drop(second);
    assert_eq!(*lock.try_read().unwrap(), (7, 9));
    let _held = lock.try_write().unwrap();
    assert!(lock.try_write().is_err());
}

#[test]
fn owned_write_try_map_refused_and_accepted() {
    let lock = Arc::new(RwLock::new((1u8, 2u8)));
    let guard = lock.clone().try_write_owned().unwrap();
    let mut guard = OwnedRwLockWriteGuard::try_map(guard, |_| None::<&mut u8>).unwrap_err();
    guard.1 = 8;
    assert!(lock.try_read().is_err());
    assert!(Arc::ptr_eq(OwnedRwLockWriteGuard::rwlock(&guard), &lock));
    let mut part = OwnedRwLockWriteGuard::try_map(guard, |p| Some(&mut p.0)).unwrap();
    *part = 6;
    assert!(lock.try_read().is_err());
    drop(part);
    assert_eq!(*lock.try_read().unwrap(), (6, 8));
    let whole = OwnedRwLockWriteGuard::into_mapped(lock.clone().try_write_owned().unwrap());
    assert_eq!(*whole, (6, 8));
    drop(whole);
    let _held = lock.try_write().unwrap();
    assert!(lock.try_read().is_err());
}

#[test]
fn downgrade_map_keeps_the_lock_and_lets_readers_in() {
    let lock = RwLock::new((1, 2));
    let write = lock.try_write().unwrap();
    let write = RwLockWriteGuard::try_downgrade_map(write, |_| None::<&u8>).unwrap_err();
    assert!(lock.try_read().is_err(), "refused: still write-locked");
    let second = RwLockWriteGuard::downgrade_map(write, |pair| &pair.1);
    assert_eq!(*second, 2);
    assert_eq!(lock.try_read().unwrap().0, 1, "readers share it now");
    assert!(lock.try_write().is_err(), "no writer while it is read");
    drop(second);
    assert!(lock.try_write().is_ok());
}

#[test]
fn owned_downgrade_map_keeps_the_lock_and_lets_readers_in() {
    let lock = Arc::new(RwLock::new(vec![1, 2, 3]));
    let write = lock.clone().try_write_owned().unwrap();
    let write = OwnedRwLockWriteGuard::try_downgrade_map(write, |v| v.get(9)).unwrap_err();
    assert!(lock.try_read().is_err(), "refused: still write-locked");
    let last: OwnedRwLockReadGuard<Vec<i32>, i32> =
        OwnedRwLockWriteGuard::try_downgrade_map(write, |v| v.last()).unwrap();
    assert_eq!(*last, 3);
    assert_eq!(lock.try_read().unwrap().len(), 3);
    drop(last);
    let whole =
        OwnedRwLockWriteGuard::downgrade_map(lock.clone().try_write_owned().unwrap(), |v| &v[..]);
    assert_eq!(whole.len(), 3);
}

#[test]
#[should_panic(expected = "a RwLock may not be created with 0 readers")]
fn zero_readers_is_refused() {
    let _ = RwLock::with_max_readers((), 0);
}
