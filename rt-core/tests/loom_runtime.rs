//! Loom models of whole runtimes: the current-thread scheduler and the
//! multi-thread scheduler with two workers (one where the race a model
//! checks needs no more), built by the public `Builder`
//! with the plain parker as their driver (the I/O driver lives in rt-io).
//! Worker threads, parkers, the blocking pool and `block_in_place`'s
//! replacement worker all run as loom threads, so every interleaving of
//! their locks, atomics and condvars up to the preemption bound is
//! explored, and a lost wake-up shows up as a deadlock.
//!
//! Whole schedulers have a large state space: each model keeps to one or
//! two tasks, and to a preemption bound of its own through
//! `rt_core::loom::explore` (two for the current-thread models, one for
//! the multi-thread ones; lower when `LOOM_MAX_PREEMPTIONS` is), so that
//! each runs in seconds.
#![cfg(loom)]

use rt_core::loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use rt_core::loom::sync::Arc;
use rt_core::loom::{explore, thread};
use rt_core::runtime::{Builder, RngSeed, Runtime};
use rt_core::task::{self, LocalSet};
use rt_core::util::AtomicWaker;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// A runtime whose random choices are the same in every execution, as loom
/// needs them to be.
fn current_thread() -> Runtime {
    Builder::new_current_thread()
        .rng_seed(RngSeed::from_u64(7))
        .build()
        .unwrap()
}

fn multi_thread() -> Runtime {
    multi_thread_with(2)
}

fn multi_thread_with(workers: usize) -> Runtime {
    Builder::new_multi_thread()
        .worker_threads(workers)
        .rng_seed(RngSeed::from_u64(7))
        .build()
        .unwrap()
}

/// A one-shot event that a task (or `block_on`) awaits and any thread
/// sets.
#[derive(Clone)]
struct Signal(Arc<SignalInner>);

struct SignalInner {
    set: AtomicBool,
    waker: AtomicWaker,
}

impl Signal {
    fn new() -> Signal {
        Signal(Arc::new(SignalInner {
            set: AtomicBool::new(false),
            waker: AtomicWaker::new(),
        }))
    }

    fn set(&self) {
        self.0.set.store(true, SeqCst);
        self.0.waker.wake();
    }

    fn wait(&self) -> Wait {
        Wait(self.clone())
    }
}

struct Wait(Signal);

impl Future for Wait {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let inner = &self.0 .0;
        inner.waker.register_by_ref(cx.waker());
        if inner.set.load(SeqCst) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

/// A task spawned from a thread outside the runtime runs, and wakes the
/// `block_on` that waits for it.
fn spawn_from_outside(rt: Runtime) {
    let done = Signal::new();
    let handle = rt.handle().clone();
    let spawner = {
        let done = done.clone();
        thread::spawn(move || {
            drop(handle.spawn(async move { done.set() }));
        })
    };
    rt.block_on(done.wait());
    spawner.join().unwrap();
}

/// A task parked on an event that another thread sets is woken and
/// completes; its completion wakes `block_on` through the join handle.
fn wake_from_another_thread(rt: Runtime) {
    let event = Signal::new();
    let waiting = {
        let event = event.clone();
        rt.spawn(async move {
            event.wait().await;
            5
        })
    };
    let setter = thread::spawn(move || event.set());
    assert_eq!(rt.block_on(waiting).unwrap(), 5);
    setter.join().unwrap();
}

/// Dropping the runtime cancels a task that never completes and waits for
/// a blocking closure that may not have started yet; the closure's result
/// is not lost if it ran, and nothing hangs either way.
fn shutdown_with_pending_and_blocking_work(rt: Runtime) {
    let ran = Arc::new(AtomicUsize::new(0));
    let never = Signal::new();
    let pending = {
        let never = never.clone();
        rt.spawn(async move { never.wait().await })
    };
    let blocking = {
        let ran = ran.clone();
        rt.spawn_blocking(move || {
            ran.fetch_add(1, SeqCst);
        })
    };
    drop(rt);
    // The pending task was cancelled by the shutdown.
    let mut pending = std::pin::pin!(pending);
    let polled = loom::future::block_on(std::future::poll_fn(|cx| {
        Poll::Ready(pending.as_mut().poll(cx))
    }));
    assert!(matches!(polled, Poll::Ready(Err(ref e)) if e.is_cancelled()));
    // The blocking closure either ran to completion or was cancelled
    // before it started: the pool joined its thread on drop.
    let mut blocking = std::pin::pin!(blocking);
    let polled = loom::future::block_on(std::future::poll_fn(|cx| {
        Poll::Ready(blocking.as_mut().poll(cx))
    }));
    match polled {
        Poll::Ready(Ok(())) => assert_eq!(ran.load(SeqCst), 1),
        Poll::Ready(Err(e)) => {
            assert!(e.is_cancelled());
            assert_eq!(ran.load(SeqCst), 0);
        }
        Poll::Pending => panic!("a blocking closure outlived its runtime's drop"),
    }
    drop(never);
}

/// The models both flavors run: `$rt` builds the runtime, `$bound` is the
/// flavor's preemption bound.
macro_rules! models_of_both_flavors {
    ($rt:ident, $bound:expr) => {
        #[test]
        fn spawn_from_outside_the_runtime() {
            explore($bound, || spawn_from_outside($rt()));
        }

        #[test]
        fn shutdown_cancels_pending_tasks_and_waits_for_blocking_work() {
            explore($bound, || shutdown_with_pending_and_blocking_work($rt()));
        }
    };
}

mod current_thread {
    use super::*;

    models_of_both_flavors!(current_thread, 2);

    #[test]
    fn wake_from_another_thread_is_not_lost() {
        explore(2, || wake_from_another_thread(current_thread()));
    }

    /// A local task woken on the set's own thread, by a runtime task that
    /// runs outside the set's poll, while a guard from `LocalSet::enter`
    /// keeps the set current: the wake must still reach the set.
    #[test]
    fn local_set_entered_with_a_guard_runs_its_tasks() {
        explore(2, || {
            let rt = current_thread();
            let local = LocalSet::new();
            let _guard = local.enter();
            let event = Signal::new();
            let spawner = {
                let event = event.clone();
                let handle = rt.handle().clone();
                thread::spawn(move || drop(handle.spawn(async move { event.set() })))
            };
            let out = local.block_on(&rt, async move {
                // `!Send` state: the task must stay on this thread.
                let local_state = std::rc::Rc::new(3);
                task::spawn_local(async move {
                    event.wait().await;
                    *local_state
                })
                .await
                .unwrap()
            });
            assert_eq!(out, 3);
            spawner.join().unwrap();
        });
    }
}

mod multi_thread {
    use super::*;

    models_of_both_flavors!(multi_thread, 1);

    /// On one worker: the race it checks, a wake from a thread outside
    /// the runtime against the worker that polls the task and parks,
    /// needs no second one (the spawn and shutdown models keep two), and
    /// with two the model explores for many minutes.
    #[test]
    fn wake_from_another_thread_is_not_lost() {
        explore(1, || wake_from_another_thread(multi_thread_with(1)));
    }

    /// On one worker, so that only the replacement worker can run the
    /// spawned task: a core lost in the hand-off deadlocks the model
    /// instead of leaving the task to a second worker's stealing.
    #[test]
    fn block_in_place_hands_the_core_to_a_new_worker() {
        explore(1, || {
            let rt = multi_thread_with(1);
            let out = rt.block_on(rt.spawn(async {
                // The worker's core moves to a fresh thread meanwhile; a
                // task spawned here must still run.
                let other = task::spawn(async { 2 });
                let one = task::block_in_place(|| 1);
                one + other.await.unwrap()
            }));
            assert_eq!(out.unwrap(), 3);
        });
    }
}
