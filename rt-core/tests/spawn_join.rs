//! Spawning, joining, panics and aborts, as a user meets them.

use rt_core::task::{self, JoinError};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

#[test]
fn spawn_and_join_many() {
    // Fewer under Miri, which interprets each spawn.
    let n: u64 = if cfg!(miri) { 100 } else { 1000 };
    let rt = rt_test::runtime();
    let total = rt.block_on(async {
        let handles: Vec<_> = (0..n).map(|i| rt_core::spawn(async move { i })).collect();
        let mut total = 0;
        for h in handles {
            total += h.await.unwrap();
        }
        total
    });
    assert_eq!(total, (n - 1) * n / 2);
}

#[test]
fn spawn_from_runtime_before_block_on() {
    let rt = rt_test::runtime();
    let h = rt.spawn(async { 5 });
    assert_eq!(rt.block_on(h).unwrap(), 5);
}

#[test]
fn panic_is_reported_and_runtime_keeps_running() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let err = rt_core::spawn(async { panic!("boom") }).await.unwrap_err();
        assert!(err.is_panic());
        assert!(err.to_string().contains("panicked with message \"boom\""));
        assert_eq!(rt_core::spawn(async { 1 }).await.unwrap(), 1);
    });
}

#[test]
fn abort_pending_task() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let h = rt_core::spawn(std::future::pending::<()>());
        task::yield_now().await;
        h.abort();
        let err: JoinError = h.await.unwrap_err();
        assert!(err.is_cancelled());
    });
}

#[test]
fn abort_before_first_poll_and_abort_handle() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let h = rt_core::spawn(async { 1 });
        let ah = h.abort_handle();
        assert_eq!(ah.id(), h.id());
        ah.abort();
        assert!(h.await.unwrap_err().is_cancelled());
        assert!(ah.is_finished());
    });
}

#[test]
fn abort_after_completion_keeps_output() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let h = rt_core::spawn(async { 7 });
        while !h.is_finished() {
            task::yield_now().await;
        }
        h.abort();
        assert_eq!(h.await.unwrap(), 7);
    });
}

#[test]
fn detached_task_still_runs() {
    let rt = rt_test::runtime();
    let (tx, rx) = mpsc::channel();
    rt.block_on(async move {
        drop(rt_core::spawn(async move { tx.send(3).unwrap() }));
        task::yield_now().await;
    });
    assert_eq!(rx.recv().unwrap(), 3);
}

#[test]
fn task_id_inside_and_outside() {
    assert!(task::try_id().is_none());
    let rt = rt_test::runtime();
    rt.block_on(async {
        let h = rt_core::spawn(async { task::id() });
        let id = h.id();
        assert_eq!(h.await.unwrap(), id);
    });
}

#[test]
fn wake_from_another_thread() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let (tx, rx) = std::sync::mpsc::channel::<std::task::Waker>();
        let flag = Arc::new(AtomicUsize::new(0));
        let f2 = flag.clone();
        let waiter = rt_core::spawn(std::future::poll_fn(move |cx| {
            if f2.load(Ordering::SeqCst) == 1 {
                return std::task::Poll::Ready(());
            }
            tx.send(cx.waker().clone()).unwrap();
            std::task::Poll::Pending
        }));
        task::yield_now().await;
        let waker = rx.recv().unwrap();
        let f3 = flag.clone();
        std::thread::spawn(move || {
            f3.store(1, Ordering::SeqCst);
            waker.wake();
        })
        .join()
        .unwrap();
        waiter.await.unwrap();
    });
}

#[test]
fn spawn_blocking_returns_value_and_sees_handle() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let v = task::spawn_blocking(|| {
            let handle = rt_core::runtime::Handle::current();
            drop(handle);
            21 * 2
        })
        .await
        .unwrap();
        assert_eq!(v, 42);
    });
}

#[test]
#[should_panic(expected = "must be called from the context of an rt runtime")]
fn spawn_outside_runtime_panics() {
    drop(rt_core::spawn(async {}));
}

#[test]
#[should_panic(expected = "Cannot start a runtime from within a runtime")]
fn nested_block_on_panics() {
    let rt = rt_test::runtime();
    let handle = rt.handle().clone();
    rt.block_on(async move {
        handle.block_on(async {});
    });
}

#[test]
fn handle_try_current() {
    assert!(rt_core::runtime::Handle::try_current()
        .unwrap_err()
        .is_missing_context());
    let rt = rt_test::runtime();
    let _guard = rt.enter();
    assert!(rt_core::runtime::Handle::try_current().is_ok());
    let h = rt_core::spawn(async { 9 });
    assert_eq!(rt.block_on(h).unwrap(), 9);
}

#[test]
fn a_panicking_poll_drops_its_future_while_unwinding() {
    struct Boom(Option<mpsc::Sender<bool>>);
    impl std::future::Future for Boom {
        type Output = ();
        fn poll(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<()> {
            panic!("boom");
        }
    }
    impl Drop for Boom {
        fn drop(&mut self) {
            let sender = self.0.take().unwrap();
            sender.send(std::thread::panicking()).unwrap();
        }
    }
    let rt = rt_test::runtime();
    let (tx, rx) = mpsc::channel();
    let err = rt.block_on(rt.spawn(Boom(Some(tx)))).unwrap_err();
    assert!(err.is_panic());
    assert!(
        rx.recv().unwrap(),
        "the future is dropped during the unwind"
    );
}
