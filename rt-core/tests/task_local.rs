//! `task_local!`: scopes, access rules, and where the value is visible.

use rt_core::task::{self, AccessError};
use std::cell::Cell;
use std::future::Future;
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::task::{Context, Poll};

rt_core::task_local! {
    static NUMBER: u32;
    /// A documented key.
    pub static NAME: String;
}

rt_core::task_local! {
    static SINGLE: Cell<u8>
}

#[test]
fn scope_with_try_with_and_get() {
    let rt = rt_test::runtime();
    rt.block_on(NUMBER.scope(3, async {
        assert_eq!(NUMBER.get(), 3);
        assert_eq!(NUMBER.with(|n| n * 2), 6);
        assert_eq!(NUMBER.try_with(|n| n + 1), Ok(4));
        // Another key is not set by this scope.
        assert!(NAME.try_with(|_| ()).is_err());
    }));
}

#[test]
fn sync_scope_sets_the_value_for_the_closure_only() {
    let out = NAME.sync_scope("alpha".to_string(), || NAME.with(|n| n.clone()));
    assert_eq!(out, "alpha");
    assert!(NAME.try_with(|_| ()).is_err());
    SINGLE.sync_scope(Cell::new(1), || {
        SINGLE.with(|c| c.set(c.get() + 1));
        assert_eq!(SINGLE.with(|c| c.get()), 2);
    });
}

#[test]
fn nested_scopes_shadow_and_restore() {
    let rt = rt_test::runtime();
    rt.block_on(NUMBER.scope(1, async {
        assert_eq!(NUMBER.get(), 1);
        let inner = NUMBER
            .scope(2, async {
                task::yield_now().await;
                NUMBER.get()
            })
            .await;
        assert_eq!(inner, 2);
        assert_eq!(NUMBER.get(), 1);
        let sync_inner = NUMBER.sync_scope(5, || NUMBER.get());
        assert_eq!(sync_inner, 5);
        assert_eq!(NUMBER.get(), 1);
    }));
}

#[test]
fn value_survives_awaits_and_is_not_seen_by_other_tasks() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let other = rt_core::spawn(async {
            let mut misses = 0;
            for _ in 0..5 {
                if NUMBER.try_with(|_| ()).is_err() {
                    misses += 1;
                }
                task::yield_now().await;
            }
            misses
        });
        let mine = rt_core::spawn(NUMBER.scope(9, async {
            let mut seen = Vec::new();
            for _ in 0..5 {
                seen.push(NUMBER.get());
                task::yield_now().await;
            }
            seen
        }));
        assert_eq!(mine.await.unwrap(), [9; 5]);
        assert_eq!(other.await.unwrap(), 5);
        // Nor by the block_on future that spawned the scoped task.
        assert!(NUMBER.try_with(|_| ()).is_err());
    });
}

#[test]
fn two_tasks_each_see_their_own_value() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let handles: Vec<_> = (0..4u32)
            .map(|i| {
                rt_core::spawn(NUMBER.scope(i, async move {
                    task::yield_now().await;
                    task::yield_now().await;
                    NUMBER.get() == i
                }))
            })
            .collect();
        for h in handles {
            assert!(h.await.unwrap());
        }
    });
}

#[test]
#[should_panic(expected = "cannot access a task-local storage value without setting it first")]
fn with_outside_a_scope_panics() {
    NUMBER.with(|_| ());
}

#[test]
#[should_panic(expected = "cannot access a task-local storage value without setting it first")]
fn get_after_the_scope_ended_panics() {
    let rt = rt_test::runtime();
    rt.block_on(NUMBER.scope(1, async {}));
    NUMBER.get();
}

#[test]
fn try_with_outside_a_scope_errs() {
    let err: AccessError = NUMBER.try_with(|n| *n).unwrap_err();
    assert_eq!(err.to_string(), "task-local value not set");
    let rt = rt_test::runtime();
    rt.block_on(NUMBER.scope(1, async {}));
    assert!(NUMBER.try_with(|_| ()).is_err());
}

#[test]
fn the_value_is_only_set_while_polled() {
    let mut fut = pin!(NUMBER.scope(4, async {
        let first = NUMBER.get();
        std::future::poll_fn({
            let mut yielded = false;
            move |_| {
                if yielded {
                    Poll::Ready(())
                } else {
                    yielded = true;
                    Poll::Pending
                }
            }
        })
        .await;
        first + NUMBER.get()
    }));
    let waker = rt_test::noop_waker();
    let mut cx = Context::from_waker(&waker);
    assert!(fut.as_mut().poll(&mut cx).is_pending());
    assert!(NUMBER.try_with(|_| ()).is_err(), "unset between polls");
    assert_eq!(fut.as_mut().poll(&mut cx), Poll::Ready(8));
}

#[test]
fn take_value_before_and_after_completion() {
    let waker = rt_test::noop_waker();
    let mut cx = Context::from_waker(&waker);

    let mut done = pin!(NUMBER.scope(10, async { NUMBER.get() }));
    assert_eq!(done.as_mut().poll(&mut cx), Poll::Ready(10));
    assert_eq!(done.as_mut().take_value(), Some(10));
    assert_eq!(done.as_mut().take_value(), None);

    // Taken before the first poll: the future then runs without a value.
    let mut early = pin!(NUMBER.scope(11, async { NUMBER.try_with(|n| *n).is_err() }));
    assert_eq!(early.as_mut().take_value(), Some(11));
    assert_eq!(early.as_mut().poll(&mut cx), Poll::Ready(true));
}

#[test]
fn the_value_is_set_while_the_future_is_dropped() {
    struct ReadOnDrop(mpsc::Sender<Option<u32>>);
    impl Drop for ReadOnDrop {
        fn drop(&mut self) {
            let _ = self.0.send(NUMBER.try_with(|n| *n).ok());
        }
    }
    let (tx, rx) = mpsc::channel();
    let guard = ReadOnDrop(tx);
    let fut = NUMBER.scope(21, async move {
        let _guard = guard;
        std::future::pending::<()>().await;
    });
    // Started and then dropped: the guard lives inside the future.
    {
        let mut fut = Box::pin(fut);
        let waker = rt_test::noop_waker();
        assert!(fut
            .as_mut()
            .poll(&mut Context::from_waker(&waker))
            .is_pending());
    }
    assert_eq!(rx.recv().unwrap(), Some(21));
    assert!(NUMBER.try_with(|_| ()).is_err());
}

#[test]
fn scoped_task_dropped_by_abort_sees_its_value() {
    let rt = rt_test::runtime();
    let seen = Arc::new(AtomicUsize::new(0));
    struct Check(Arc<AtomicUsize>);
    impl Drop for Check {
        fn drop(&mut self) {
            if NUMBER.try_with(|n| *n) == Ok(77) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
    }
    rt.block_on(async {
        let check = Check(seen.clone());
        let h = rt_core::spawn(NUMBER.scope(77, async move {
            let _check = check;
            std::future::pending::<()>().await;
        }));
        task::yield_now().await;
        h.abort();
        assert!(h.await.unwrap_err().is_cancelled());
    });
    assert_eq!(seen.load(Ordering::SeqCst), 1);
}

#[test]
fn a_panic_inside_the_scope_restores_the_slot() {
    let res = std::panic::catch_unwind(|| {
        NUMBER.sync_scope(1, || panic!("inside"));
    });
    assert!(res.is_err());
    assert!(NUMBER.try_with(|_| ()).is_err());
    // The key still works afterwards.
    assert_eq!(NUMBER.sync_scope(2, || NUMBER.get()), 2);
}

#[test]
#[should_panic(
    expected = "cannot enter a task-local scope while the task-local storage is borrowed"
)]
fn entering_a_scope_inside_with_panics() {
    NUMBER.sync_scope(1, || {
        NUMBER.with(|_| NUMBER.sync_scope(2, || ()));
    });
}

#[test]
#[should_panic(expected = "`TaskLocalFuture` polled after completion")]
fn polling_after_completion_panics() {
    let waker = rt_test::noop_waker();
    let mut cx = Context::from_waker(&waker);
    let mut fut = pin!(NUMBER.scope(1, async {}));
    assert!(fut.as_mut().poll(&mut cx).is_ready());
    let _ = fut.as_mut().poll(&mut cx);
}

#[test]
fn keys_and_futures_have_debug() {
    assert_eq!(format!("{:?}", NUMBER), "LocalKey { .. }");
    let fut = NUMBER.scope(3, async {});
    assert!(format!("{fut:?}").contains("TaskLocalFuture"));
    let _: &task::futures::TaskLocalFuture<u32, _> = &fut;
}

rt_core::task_local! {
    static SHARED: std::rc::Rc<u8>;
}

#[test]
fn values_need_not_be_send() {
    let value = std::rc::Rc::new(5u8);
    let seen = SHARED.sync_scope(value.clone(), || SHARED.get());
    assert_eq!(*seen, 5);
    assert_eq!(std::rc::Rc::strong_count(&value), 2);
}

#[test]
fn scope_future_is_unpin_when_the_inner_future_is() {
    fn unpin<T: Unpin>(_: &T) {}
    let fut = NUMBER.scope(1, std::future::ready(2));
    unpin(&fut);
    let mut fut = fut;
    let waker = rt_test::noop_waker();
    assert_eq!(
        Pin::new(&mut fut).poll(&mut Context::from_waker(&waker)),
        Poll::Ready(2)
    );
}
