//! `LocalSet` and `spawn_local` as a user meets them.

use rt_core::task::{self, LocalSet};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

#[test]
fn run_until_drives_local_tasks_with_rc_state() {
    let rt = rt_test::runtime();
    let local = LocalSet::new();
    let log = Rc::new(RefCell::new(Vec::new()));
    let l2 = log.clone();
    local.block_on(&rt, async move {
        let mut handles = Vec::new();
        for i in 0..10 {
            let l = l2.clone();
            handles.push(task::spawn_local(async move {
                task::yield_now().await;
                l.borrow_mut().push(i);
            }));
        }
        for h in handles {
            h.await.unwrap();
        }
    });
    assert_eq!(log.borrow().len(), 10);
}

#[test]
fn local_set_as_future_waits_for_all_tasks() {
    let rt = rt_test::runtime();
    let local = LocalSet::new();
    let done = Rc::new(Cell::new(0));
    for _ in 0..5 {
        let d = done.clone();
        local.spawn_local(async move {
            task::yield_now().await;
            d.set(d.get() + 1);
        });
    }
    rt.block_on(local);
    assert_eq!(done.get(), 5);
}

#[test]
fn woken_from_another_thread() {
    let rt = rt_test::runtime();
    let local = LocalSet::new();
    local.block_on(&rt, async {
        let (tx, rx) = std::sync::mpsc::channel::<std::task::Waker>();
        let ready = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let r2 = ready.clone();
        let marker = Rc::new(()); // keeps the task !Send
        let waiting = task::spawn_local(std::future::poll_fn(move |cx| {
            let _ = &marker;
            if r2.load(std::sync::atomic::Ordering::SeqCst) {
                std::task::Poll::Ready(7)
            } else {
                tx.send(cx.waker().clone()).unwrap();
                std::task::Poll::Pending
            }
        }));
        task::yield_now().await;
        let waker = rx.recv().unwrap();
        let r3 = ready.clone();
        std::thread::spawn(move || {
            r3.store(true, std::sync::atomic::Ordering::SeqCst);
            waker.wake();
        })
        .join()
        .unwrap();
        assert_eq!(waiting.await.unwrap(), 7);
    });
}

#[test]
fn dropping_the_set_drops_unfinished_futures() {
    struct Guard(Rc<Cell<u32>>);
    impl Drop for Guard {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }
    let dropped = Rc::new(Cell::new(0));
    let rt = rt_test::runtime();
    let local = LocalSet::new();
    let mut handles = Vec::new();
    for _ in 0..3 {
        let g = Guard(dropped.clone());
        handles.push(local.spawn_local(async move {
            let _g = g;
            std::future::pending::<()>().await;
        }));
    }
    local.block_on(&rt, task::yield_now());
    assert_eq!(dropped.get(), 0);
    drop(local);
    assert_eq!(dropped.get(), 3);
    for h in handles {
        assert!(rt.block_on(h).unwrap_err().is_cancelled());
    }
}

#[test]
fn enter_allows_spawn_local() {
    let rt = rt_test::runtime();
    let local = LocalSet::new();
    let h = {
        let _guard = local.enter();
        task::spawn_local(async { 3 })
    };
    assert_eq!(local.block_on(&rt, h).unwrap(), 3);
}

#[test]
#[should_panic(expected = "`spawn_local` called from outside of a `task::LocalSet`")]
fn spawn_local_outside_panics() {
    drop(task::spawn_local(async {}));
}

#[test]
fn local_task_panic_is_reported() {
    let rt = rt_test::runtime();
    let local = LocalSet::new();
    local.block_on(&rt, async {
        let err = task::spawn_local(async { panic!("local boom") })
            .await
            .unwrap_err();
        assert!(err.is_panic());
    });
}

/// With the set entered by a guard, a task woken on the owner thread outside
/// the set's poll (here: aborted by a runtime task; in practice also a timer
/// or I/O event delivered by the driver) must wake the set. It used to be
/// queued silently, so awaiting it hung.
#[test]
fn wake_under_enter_guard_outside_the_poll_wakes_the_set() {
    rt_test::within(
        "a task woken under a LocalSet::enter guard never ran",
        || {
            let rt = rt_test::runtime();
            let local = LocalSet::new();
            let _guard = local.enter();
            let err = local.block_on(&rt, async {
                let marker = Rc::new(()); // keeps the task local
                let stuck = task::spawn_local(async move {
                    let _m = marker;
                    std::future::pending::<()>().await;
                });
                let abort = stuck.abort_handle();
                // A runtime task runs on this thread between polls of the set.
                rt_core::spawn(async move { abort.abort() });
                stuck.await.unwrap_err()
            });
            assert!(err.is_cancelled());
        },
    );
}

#[test]
#[should_panic(expected = "can call blocking only when running on the multi-threaded runtime")]
fn block_in_place_inside_a_local_set_on_the_multi_thread_runtime_panics() {
    let rt = rt_core::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .build()
        .unwrap();
    rt_core::task::LocalSet::new().block_on(&rt, async {
        rt_core::task::block_in_place(|| {});
    });
}
