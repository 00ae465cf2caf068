//! Dropping a runtime drops its unfinished tasks inside the runtime's
//! context, on both flavors: a destructor that spawns or creates a timer
//! finds the runtime (a spawn then gets a task that is cancelled at once)
//! instead of panicking with "no runtime".

use rt::runtime::{Builder, Runtime};
use std::sync::mpsc;
use std::time::Duration;

fn runtimes() -> [(&'static str, Runtime); 2] {
    [
        (
            "current_thread",
            Builder::new_current_thread().enable_all().build().unwrap(),
        ),
        (
            "multi_thread",
            Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap(),
        ),
    ]
}

/// Runs `cleanup` from the destructor of a value held by a task that is
/// still pending when its runtime is dropped; returns what it produced
/// (nothing if the destructor never finished).
fn cleanup_at_shutdown<T: Send + 'static>(
    rt: Runtime,
    cleanup: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    struct OnDrop<F: FnOnce()>(Option<F>);
    impl<F: FnOnce()> Drop for OnDrop<F> {
        fn drop(&mut self) {
            (self.0.take().unwrap())();
        }
    }
    let (tx, rx) = mpsc::channel();
    let (started_tx, started_rx) = rt::sync::oneshot::channel();
    let held = OnDrop(Some(move || {
        let _ = tx.send(cleanup());
    }));
    rt.spawn(async move {
        let _held = held;
        started_tx.send(()).unwrap();
        std::future::pending::<()>().await;
    });
    // The current-thread runtime runs its tasks only inside `block_on`.
    rt.block_on(started_rx).unwrap();
    drop(rt);
    rx.try_recv().ok()
}

#[test]
fn a_destructor_that_spawns_during_shutdown_gets_a_cancelled_task() {
    for (flavor, rt) in runtimes() {
        let join = cleanup_at_shutdown(rt, || rt::spawn(async { 1 }))
            .unwrap_or_else(|| panic!("{flavor}: the destructor did not finish"));
        let err = Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(join)
            .unwrap_err();
        assert!(err.is_cancelled(), "{flavor}: {err}");
    }
}

#[test]
fn a_destructor_that_creates_a_sleep_during_shutdown_finishes() {
    for (flavor, rt) in runtimes() {
        let made = cleanup_at_shutdown(rt, || {
            drop(rt::time::sleep(Duration::from_secs(1)));
        });
        assert!(made.is_some(), "{flavor}: the destructor did not finish");
    }
}
