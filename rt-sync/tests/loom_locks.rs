//! Loom models of the locks built on the batch semaphore: mutual exclusion
//! of `Mutex`, and `RwLock` writers against readers and downgrade.
#![cfg(loom)]

use loom::future::block_on;
use loom::sync::Arc;
use loom::thread;
use rt_sync::{Mutex, RwLock};

#[test]
fn mutex_increments_are_not_lost() {
    loom::model(|| {
        let mutex = Arc::new(Mutex::new(0));
        let other = mutex.clone();
        let t = thread::spawn(move || block_on(async { *other.lock().await += 1 }));
        block_on(async { *mutex.lock().await += 1 });
        t.join().unwrap();
        assert_eq!(*mutex.try_lock().unwrap(), 2);
    });
}

#[test]
fn rwlock_reader_sees_all_or_nothing_of_a_write() {
    loom::model(|| {
        let lock = Arc::new(RwLock::with_max_readers((0, 0), 2));
        let other = lock.clone();
        let t = thread::spawn(move || {
            let mut w = block_on(other.write());
            w.0 = 1;
            w.1 = 1;
            let r = w.downgrade();
            assert_eq!(*r, (1, 1));
        });
        let r = block_on(lock.read());
        assert_eq!(r.0, r.1);
        drop(r);
        t.join().unwrap();
        assert_eq!(*lock.try_read().unwrap(), (1, 1));
    });
}
