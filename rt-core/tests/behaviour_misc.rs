//! Smaller behaviours: the coop budget, auto traits of the handles, wake
//! coalescing, and wakers that outlive their task and runtime.

use rt_core::runtime::Builder;
use rt_core::task::{self, coop, AbortHandle, JoinError, JoinHandle};
use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{ready, Context, Poll, Waker};

/// A resource that is always ready, but spends coop budget like a real one.
struct AlwaysReady;

impl Future for AlwaysReady {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let restore = ready!(coop::poll_proceed(cx));
        restore.made_progress();
        Poll::Ready(())
    }
}

#[test]
fn coop_budget_makes_a_busy_task_yield() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let other_ran = Arc::new(AtomicBool::new(false));
        let busy = {
            let other_ran = other_ran.clone();
            rt_core::spawn(async move {
                let mut iterations = 0u32;
                // Bounded so that a broken budget fails instead of hanging.
                while !other_ran.load(Ordering::SeqCst) && iterations < 100_000 {
                    AlwaysReady.await;
                    iterations += 1;
                }
                iterations
            })
        };
        let other = {
            let other_ran = other_ran.clone();
            rt_core::spawn(async move { other_ran.store(true, Ordering::SeqCst) })
        };
        let forced_before = coop::forced_yields();
        let iterations = busy.await.unwrap();
        other.await.unwrap();
        assert!(
            iterations <= 2 * coop::DEFAULT_BUDGET,
            "the busy task ran {iterations} times before the other task"
        );
        assert!(coop::forced_yields() > forced_before);
    });
}

#[test]
fn coop_budget_follows_the_builder() {
    let rt = Builder::new_current_thread()
        .coop_budget(4)
        .build()
        .unwrap();
    let polls = rt.block_on(async {
        rt_core::spawn(async {
            // Count how many units one poll may spend.
            let mut spent = 0;
            while coop::has_budget_remaining() {
                AlwaysReady.await;
                spent += 1;
            }
            spent
        })
        .await
        .unwrap()
    });
    assert_eq!(polls, 4);
}

#[test]
fn unconstrained_is_never_forced_to_yield() {
    let rt = rt_test::runtime();
    let n = rt.block_on(async {
        rt_core::spawn(coop::unconstrained(async {
            for _ in 0..10 * coop::DEFAULT_BUDGET {
                AlwaysReady.await;
            }
            coop::has_budget_remaining()
        }))
        .await
        .unwrap()
    });
    assert!(n);
}

/// Compiles only when `T` is not `Send`: if it were, both impls would
/// apply and the path would be ambiguous.
trait AmbiguousIfSend<A> {
    fn check() {}
}
impl<T: ?Sized> AmbiguousIfSend<()> for T {}
impl<T: ?Sized + Send> AmbiguousIfSend<u8> for T {}

/// As above, for `Sync`.
trait AmbiguousIfSync<A> {
    fn check() {}
}
impl<T: ?Sized> AmbiguousIfSync<()> for T {}
impl<T: ?Sized + Sync> AmbiguousIfSync<u8> for T {}

fn is_send_sync<T: Send + Sync>() {}

#[test]
fn handles_are_send_and_sync_only_when_they_should_be() {
    // Output Send (even if not Sync): the handle is both.
    is_send_sync::<JoinHandle<u32>>();
    is_send_sync::<JoinHandle<Cell<u32>>>();
    is_send_sync::<AbortHandle>();
    is_send_sync::<JoinError>();
    // Output not Send: the handle is neither.
    <JoinHandle<Rc<u32>> as AmbiguousIfSend<_>>::check();
    <JoinHandle<Rc<u32>> as AmbiguousIfSync<_>>::check();
}

#[test]
fn many_wakes_while_queued_run_the_task_once() {
    let rt = rt_test::runtime();
    let polls = Arc::new(AtomicUsize::new(0));
    let waker_slot: Arc<Mutex<Option<Waker>>> = Arc::new(Mutex::new(None));
    let handle = {
        let (polls, waker_slot) = (polls.clone(), waker_slot.clone());
        rt.spawn(std::future::poll_fn(move |cx| {
            polls.fetch_add(1, Ordering::SeqCst);
            *waker_slot.lock().unwrap() = Some(cx.waker().clone());
            Poll::<()>::Pending
        }))
    };
    let settle = || {
        rt.block_on(async {
            for _ in 0..8 {
                task::yield_now().await;
            }
        })
    };
    settle();
    assert_eq!(polls.load(Ordering::SeqCst), 1);

    // A burst of wakes from the driving thread.
    rt.block_on(async {
        let waker = waker_slot.lock().unwrap().clone().unwrap();
        for _ in 0..100 {
            waker.wake_by_ref();
        }
        // The by-value path as well, which consumes a reference.
        let owned = waker.clone();
        owned.wake();
    });
    settle();
    assert_eq!(polls.load(Ordering::SeqCst), 2);

    // A burst from another thread, while the runtime is idle.
    let waker = waker_slot.lock().unwrap().clone().unwrap();
    std::thread::spawn(move || {
        for _ in 0..100 {
            waker.wake_by_ref();
        }
    })
    .join()
    .unwrap();
    settle();
    assert_eq!(polls.load(Ordering::SeqCst), 3);
    handle.abort();
}

#[test]
fn a_waker_outliving_its_task_and_runtime_is_harmless() {
    let slot: Arc<Mutex<Vec<Waker>>> = Arc::new(Mutex::new(Vec::new()));
    let rt = rt_test::runtime();
    // A task that completes, and one that is still pending at shutdown.
    let finished = {
        let slot = slot.clone();
        rt.spawn(std::future::poll_fn(move |cx| {
            slot.lock().unwrap().push(cx.waker().clone());
            Poll::Ready(7)
        }))
    };
    {
        let slot = slot.clone();
        drop(rt.spawn(std::future::poll_fn(move |cx| {
            slot.lock().unwrap().push(cx.waker().clone());
            Poll::<()>::Pending
        })));
    }
    assert_eq!(rt.block_on(finished).unwrap(), 7);
    rt.block_on(task::yield_now());
    drop(rt);

    let wakers = std::mem::take(&mut *slot.lock().unwrap());
    assert_eq!(wakers.len(), 2);
    for waker in &wakers {
        waker.wake_by_ref();
        let owned = waker.clone();
        owned.wake();
    }
    // And from another thread, dropping them there.
    std::thread::spawn(move || {
        for waker in wakers {
            waker.wake_by_ref();
            drop(waker);
        }
    })
    .join()
    .unwrap();
}

#[test]
fn will_wake_holds_for_clones_of_one_task_waker() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let first_poll: Arc<Mutex<Option<Waker>>> = Arc::new(Mutex::new(None));
        let other = rt_core::spawn(std::future::poll_fn(|cx| Poll::Ready(cx.waker().clone())))
            .await
            .unwrap();
        let slot = first_poll.clone();
        let same = rt_core::spawn(async move {
            let mut polls = 0;
            std::future::poll_fn(|cx| {
                polls += 1;
                if polls == 1 {
                    *slot.lock().unwrap() = Some(cx.waker().clone());
                    cx.waker().wake_by_ref();
                    return Poll::Pending;
                }
                let first = slot.lock().unwrap().clone().unwrap();
                let clone = cx.waker().clone();
                Poll::Ready((
                    clone.will_wake(cx.waker()),
                    first.will_wake(cx.waker()),
                    other.will_wake(cx.waker()),
                ))
            })
            .await
        })
        .await
        .unwrap();
        assert_eq!(same, (true, true, false));
    });
}
