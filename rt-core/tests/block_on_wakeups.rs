//! How often `block_on` on the multi-thread runtime is woken: once per
//! completion of a `JoinHandle` it waits on, never spuriously, and a
//! `JoinHandle` polled again with the same waker keeps the one it holds;
//! a `block_on` nested in another keeps the outer one's wake-up.
//!
//! Every step is ordered by a gate that the test opens itself, so the poll
//! counts below hold under any thread interleaving.

use rt_core::runtime::{Builder, Runtime};
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};

fn rt() -> Runtime {
    Builder::new_multi_thread()
        .worker_threads(1)
        .build()
        .unwrap()
}

/// A one-shot barrier a task can wait on.
#[derive(Clone, Default)]
struct Gate {
    open: Arc<AtomicBool>,
    waiter: Arc<Mutex<Option<Waker>>>,
}

impl Gate {
    fn open(&self) {
        self.open.store(true, Ordering::SeqCst);
        if let Some(waker) = self.waiter.lock().unwrap().take() {
            waker.wake();
        }
    }

    async fn wait(&self) {
        poll_fn(|cx| {
            // Register before checking, so an `open` in between still wakes.
            *self.waiter.lock().unwrap() = Some(cx.waker().clone());
            if self.open.load(Ordering::SeqCst) {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
        .await
    }
}

#[test]
fn block_on_is_polled_once_more_per_join_handle_completion() {
    let rt = rt();
    let gate = Gate::default();
    let task_gate = gate.clone();
    let mut handle = rt.spawn(async move {
        task_gate.wait().await;
        7
    });
    let mut polls = 0;
    let out = rt.block_on(poll_fn(|cx| {
        polls += 1;
        let polled = Pin::new(&mut handle).poll(cx);
        if polls == 1 {
            // The task cannot finish before the gate opens.
            assert!(polled.is_pending());
            gate.open();
        }
        polled
    }));
    assert_eq!(out.unwrap(), 7);
    // One poll before the completion, one after: no spurious wake-up.
    assert_eq!(polls, 2);
}

#[test]
fn wakes_before_parking_leave_one_token() {
    let rt = rt();
    let gate = Gate::default();
    let task_gate = gate.clone();
    let mut handle = rt.spawn(async move { task_gate.wait().await });
    let mut polls = 0;
    rt.block_on(poll_fn(|cx| {
        polls += 1;
        match polls {
            1 => {
                // Two wake-ups before the thread parks: one extra poll.
                cx.waker().wake_by_ref();
                cx.waker().wake_by_ref();
                Poll::Pending
            }
            2 => {
                assert!(Pin::new(&mut handle).poll(cx).is_pending());
                gate.open();
                Poll::Pending
            }
            // Had the two wake-ups left two tokens, this poll would come
            // before the task finished.
            _ => Pin::new(&mut handle).poll(cx).map(Result::unwrap),
        }
    }));
    assert_eq!(polls, 3);
}

/// Clones of [`counting_waker`] wakers, process-wide.
static CLONES: AtomicUsize = AtomicUsize::new(0);

/// A `static`, not a `const`: `will_wake` compares vtable addresses, and
/// each use of a `const` may get an address of its own.
static VTABLE: RawWakerVTable = RawWakerVTable::new(
    |data| {
        CLONES.fetch_add(1, Ordering::SeqCst);
        RawWaker::new(data, &VTABLE)
    },
    |_| {},
    |_| {},
    |_| {},
);

fn counting_waker() -> Waker {
    // SAFETY: every vtable function ignores the data pointer, so a null
    // pointer is never dereferenced, and none of them has a contract to
    // uphold beyond that.
    unsafe { Waker::from_raw(RawWaker::new(std::ptr::null(), &VTABLE)) }
}

#[test]
fn join_handle_keeps_a_waker_that_will_wake_the_same() {
    let rt = rt();
    let gate = Gate::default();
    let task_gate = gate.clone();
    let mut handle = rt.spawn(async move { task_gate.wait().await });
    let waker = counting_waker();
    let mut cx = Context::from_waker(&waker);
    assert!(Pin::new(&mut handle).poll(&mut cx).is_pending());
    assert_eq!(CLONES.load(Ordering::SeqCst), 1);
    assert!(Pin::new(&mut handle).poll(&mut cx).is_pending());
    assert_eq!(CLONES.load(Ordering::SeqCst), 1);
    gate.open();
    rt.block_on(handle).unwrap();
}

/// `util::block_on` reuses its thread's parker from one call to the next;
/// a `block_on` nested inside a poll gets a parker of its own, so a wake-up
/// meant for the outer future is not consumed by the inner one.
#[test]
fn a_nested_block_on_keeps_the_outer_wake_up() {
    let (outer_tx, outer_rx) = std::sync::mpsc::channel::<Waker>();
    let inner_gate = Gate::default();
    let waker_thread = {
        let inner_gate = inner_gate.clone();
        std::thread::spawn(move || {
            // The outer waker fires while the inner `block_on` waits for
            // its gate, which opens only afterwards.
            outer_rx.recv().unwrap().wake();
            inner_gate.open();
        })
    };
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    let blocking_thread = std::thread::spawn(move || {
        let mut polls = 0;
        rt_core::util::block_on(poll_fn(|cx| {
            polls += 1;
            if polls == 1 {
                outer_tx.send(cx.waker().clone()).unwrap();
                rt_core::util::block_on(inner_gate.wait());
                return Poll::Pending;
            }
            Poll::Ready(())
        }));
        // Sequential calls on the same thread each complete.
        for i in 0..100 {
            assert_eq!(rt_core::util::block_on(async move { i }), i);
        }
        done_tx.send(()).unwrap();
    });
    done_rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the outer block_on lost its wake-up and hangs");
    blocking_thread.join().unwrap();
    waker_thread.join().unwrap();
}
