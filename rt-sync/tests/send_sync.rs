//! The primitives and their futures can cross threads the way a user of a
//! multi-threaded executor needs (compile-time checks).

use rt_sync::{broadcast, mpsc, oneshot, watch};
use rt_sync::{Barrier, Mutex, Notify, OnceCell, RwLock, Semaphore, SetOnce};
use std::sync::Arc;

fn send<T: Send>(_: &T) {}
fn send_sync<T: Send + Sync>(_: &T) {}

#[test]
fn handles_are_send_and_sync() {
    send_sync(&Semaphore::new(1));
    send_sync(&Mutex::new(std::cell::Cell::new(1)));
    send_sync(&RwLock::new(1));
    send_sync(&Notify::new());
    send_sync(&Barrier::new(1));
    send_sync(&OnceCell::<u8>::new());
    send_sync(&SetOnce::<u8>::new());
    let (tx, rx) = mpsc::channel::<u8>(1);
    send_sync(&tx);
    send_sync(&rx);
    let (tx, rx) = mpsc::unbounded_channel::<u8>();
    send_sync(&tx);
    send_sync(&rx);
    let (tx, rx) = oneshot::channel::<u8>();
    send_sync(&tx);
    send_sync(&rx);
    let (tx, rx) = watch::channel(0u8);
    send_sync(&tx);
    send_sync(&rx);
    let (tx, rx) = broadcast::channel::<u8>(1);
    send_sync(&tx);
    send_sync(&rx);
    // Values are never shared between threads, so `T: Send` is enough.
    let (tx, rx) = broadcast::channel::<std::cell::Cell<u8>>(1);
    send_sync(&tx);
    send_sync(&rx);
}

#[test]
fn futures_are_send() {
    let semaphore = Arc::new(Semaphore::new(1));
    send(&semaphore.acquire());
    send(&semaphore.clone().acquire_many_owned(1));
    let mutex = Arc::new(Mutex::new(1));
    send(&mutex.lock());
    send(&mutex.clone().lock_owned());
    let lock = RwLock::new(1);
    send(&lock.read());
    send(&lock.write());
    let notify = Notify::new();
    send(&notify.notified());
    let (tx, mut rx) = mpsc::channel::<u8>(1);
    send(&tx.send(1));
    send(&tx.reserve());
    send(&rx.recv());
    let (_wtx, mut wrx) = watch::channel(0u8);
    send(&wrx.changed());
    let (btx, mut brx) = broadcast::channel::<u8>(1);
    send(&brx.recv());
    send(&btx.closed());
    let (mut otx, _orx) = oneshot::channel::<u8>();
    send(&otx.closed());
    let cell = OnceCell::<u8>::new();
    send(&cell.get_or_init(|| async { 1 }));
    let barrier = Barrier::new(1);
    send(&barrier.wait());
}

fn unwind_safe<T: std::panic::UnwindSafe + std::panic::RefUnwindSafe>(_: &T) {}

#[test]
fn mpsc_handles_are_unwind_safe_for_any_message() {
    // `Cell` is neither `UnwindSafe` nor `RefUnwindSafe`.
    type Msg = std::cell::Cell<u8>;
    let (tx, rx) = mpsc::channel::<Msg>(1);
    unwind_safe(&tx);
    unwind_safe(&rx);
    unwind_safe(&tx.downgrade());
    unwind_safe(&tx.try_reserve().unwrap());
    let (tx, rx) = mpsc::unbounded_channel::<Msg>();
    unwind_safe(&tx);
    unwind_safe(&rx);
    unwind_safe(&tx.downgrade());
}

#[test]
fn broadcast_recv_is_sync_for_values_that_are_only_send() {
    // `Cell` is `Send` but not `Sync`: the receive future holds no value
    // across its wait, so it can still be shared.
    let (_tx, mut rx) = broadcast::channel::<std::cell::Cell<u8>>(1);
    send_sync(&rx.recv());
}
