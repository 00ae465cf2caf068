//! Every rt leaf resource shows in a task dump's trace: a task parked on it
//! is traced down to it, and runs on normally once the resource is ready.

use rt::runtime::{Builder, Handle, Runtime};
use rt::sync::{broadcast, mpsc, oneshot, watch, Mutex, Notify, RwLock, Semaphore};
use rt::task::TaskState;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

fn runtime() -> Runtime {
    Builder::new_current_thread().enable_all().build().unwrap()
}

/// Spawns `parked` on `rt`, lets it reach its await, and checks that its
/// trace names `leaf` (and, innermost first, this file's async block);
/// then runs `release` and waits for the task to finish.
fn check<F, R>(rt: &Runtime, leaf: &str, parked: F, release: R)
where
    F: Future<Output = ()> + Send + 'static,
    R: Future<Output = ()>,
{
    let task = rt.spawn(parked);
    rt.block_on(async {
        while Handle::current()
            .dump()
            .tasks()
            .iter()
            .any(|t| t.id() == task.id() && t.state() != TaskState::Idle)
        {
            rt::task::yield_now().await;
        }
    });
    let dump = rt.handle().dump();
    let info = dump.tasks().iter().find(|t| t.id() == task.id()).unwrap();
    let trace = info.trace().unwrap_or_else(|| panic!("no trace: {dump}"));
    // A task may wait on several leaves at once (`select!` polls its
    // branches in a random order): one of its chains must name the leaf
    // below this file's async block.
    let named = trace.chains().any(|chain| {
        let leaf_at = chain.iter().position(|f| f.name().contains(leaf));
        let root_at = chain
            .iter()
            .position(|f| f.name().contains("dump_trace_leaves::"));
        matches!((leaf_at, root_at), (Some(l), Some(r)) if l < r)
    });
    assert!(named, "{leaf} then this file in:\n{trace}");
    rt.block_on(async {
        release.await;
        task.await.unwrap();
    });
}

#[test]
fn timers() {
    let rt = runtime();
    let _guard = rt.enter();
    let (tx, rx) = oneshot::channel::<()>();
    check(
        &rt,
        "rt_time::sleep::Sleep",
        async move {
            rt::select! {
                _ = rt::time::sleep(Duration::from_secs(3600)) => {}
                _ = rx => {}
            }
        },
        async move { tx.send(()).unwrap() },
    );
    let (tx, rx) = oneshot::channel::<()>();
    check(
        &rt,
        "rt_time::timeout::Timeout",
        async move {
            rt::time::timeout(Duration::from_secs(3600), rx)
                .await
                .unwrap()
                .unwrap();
        },
        async move { tx.send(()).unwrap() },
    );
    let notify = Arc::new(Notify::new());
    let waiter = notify.clone();
    check(
        &rt,
        "rt_time::interval::Interval",
        async move {
            let mut interval = rt::time::interval(Duration::from_secs(3600));
            interval.tick().await;
            rt::select! {
                _ = interval.tick() => {}
                _ = waiter.notified() => {}
            }
        },
        async move { notify.notify_one() },
    );
}

#[test]
fn locks_and_semaphores() {
    let rt = runtime();
    let _guard = rt.enter();
    let notify = Arc::new(Notify::new());
    let waiter = notify.clone();
    check(
        &rt,
        "rt_sync::notify::Notified",
        async move { waiter.notified().await },
        async move { notify.notify_one() },
    );

    let semaphore = Arc::new(Semaphore::new(0));
    let waiter = semaphore.clone();
    check(
        &rt,
        "rt_sync::batch_semaphore::Acquire",
        async move {
            let _permit = waiter.acquire().await.unwrap();
        },
        async move { semaphore.add_permits(1) },
    );

    let mutex = Arc::new(Mutex::new(0));
    let held = mutex.clone().try_lock_owned().unwrap();
    let waiter = mutex.clone();
    check(
        &rt,
        "rt_sync::mutex::Mutex<T>::lock",
        async move {
            *waiter.lock().await += 1;
        },
        async move { drop(held) },
    );
    assert_eq!(*mutex.try_lock().unwrap(), 1);

    let lock = Arc::new(RwLock::new(0));
    let reader = lock.clone().try_read_owned().unwrap();
    let writer = lock.clone();
    check(
        &rt,
        "rt_sync::rwlock::RwLock<T>::write",
        async move {
            *writer.write().await += 1;
        },
        async move { drop(reader) },
    );
}

#[test]
fn channels() {
    let rt = runtime();
    let _guard = rt.enter();
    let (tx, mut rx) = mpsc::channel::<u8>(1);
    check(
        &rt,
        "rt_sync::mpsc::bounded::Receiver<T>::recv",
        async move {
            assert_eq!(rx.recv().await, Some(1));
        },
        {
            let tx = tx.clone();
            async move { tx.send(1).await.unwrap() }
        },
    );
    let (tx, mut rx) = mpsc::channel::<u8>(1);
    tx.try_send(1).unwrap();
    check(
        &rt,
        "rt_sync::batch_semaphore::Acquire",
        // The receiver is gone by the time the send runs again (the
        // release below drops it), so the send may fail: only the wait
        // matters here.
        async move {
            let _ = tx.send(2).await;
        },
        async move { assert_eq!(rx.recv().await, Some(1)) },
    );

    let (tx, rx) = oneshot::channel::<u8>();
    check(
        &rt,
        "rt_sync::oneshot::Receiver",
        async move {
            assert_eq!(rx.await.unwrap(), 3);
        },
        async move { tx.send(3).unwrap() },
    );

    let (tx, mut rx) = broadcast::channel::<u8>(4);
    check(
        &rt,
        "rt_sync::broadcast",
        async move {
            assert_eq!(rx.recv().await.unwrap(), 4);
        },
        async move {
            tx.send(4).unwrap();
        },
    );

    let (tx, mut rx) = watch::channel(0u8);
    check(
        &rt,
        "rt_sync::watch::Receiver<T>::changed",
        async move { rx.changed().await.unwrap() },
        async move { tx.send(5).unwrap() },
    );
}

#[test]
fn io_readiness() {
    let rt = runtime();
    let _guard = rt.enter();
    let listener = rt
        .block_on(rt::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    check(
        &rt,
        "rt_io::reactor",
        async move {
            listener.accept().await.unwrap();
        },
        async move {
            rt::net::TcpStream::connect(addr).await.unwrap();
        },
    );
}
