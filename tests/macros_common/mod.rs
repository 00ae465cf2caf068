//! Helpers shared by the `macros_*` behaviour tests: a minimal executor and
//! futures whose polls and drops can be counted. They need no runtime, so
//! the macros are tested on their own.

#![allow(dead_code)]

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::{pin, Pin};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

/// A waker that only remembers that it was woken.
#[derive(Default)]
pub struct FlagWaker {
    woken: AtomicBool,
}

impl FlagWaker {
    /// Whether `wake` was called since the last `take_woken`.
    pub fn take_woken(&self) -> bool {
        self.woken.swap(false, Ordering::SeqCst)
    }
}

impl Wake for FlagWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::SeqCst);
    }
}

/// Runs a future whose every `Pending` was preceded by a wake-up of its own
/// task (true of everything these tests build, which is single-threaded).
/// A `Pending` without a wake-up would never be resumed: it panics rather
/// than hang.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let flag = Arc::new(FlagWaker::default());
    let waker = Waker::from(flag.clone());
    let mut cx = Context::from_waker(&waker);
    let mut future = pin!(future);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        assert!(
            flag.take_woken(),
            "the future returned Pending without arranging a wake-up"
        );
    }
}

/// Polls `future` once with a waker that records wake-ups.
pub fn poll_once<F: Future + ?Sized>(future: Pin<&mut F>) -> (Poll<F::Output>, bool) {
    let flag = Arc::new(FlagWaker::default());
    let waker = Waker::from(flag.clone());
    let mut cx = Context::from_waker(&waker);
    let poll = future.poll(&mut cx);
    (poll, flag.take_woken())
}

/// Counts polls and drops of the futures built from it.
#[derive(Clone, Default)]
pub struct Probe {
    polls: Rc<Cell<usize>>,
    drops: Rc<Cell<usize>>,
}

impl Probe {
    pub fn polls(&self) -> usize {
        self.polls.get()
    }

    pub fn drops(&self) -> usize {
        self.drops.get()
    }

    /// A future that is ready with `value` on its `pending_polls + 1`-th
    /// poll, waking its task each time it returns `Pending`.
    pub fn ready_after<T>(&self, pending_polls: usize, value: T) -> Delayed<T> {
        Delayed {
            probe: self.clone(),
            pending_left: pending_polls,
            value: Some(value),
        }
    }

    /// A future that never completes (and never asks to be woken).
    pub fn never<T>(&self) -> Delayed<T> {
        Delayed {
            probe: self.clone(),
            pending_left: usize::MAX,
            value: None,
        }
    }
}

/// The future built by [`Probe::ready_after`] and [`Probe::never`].
pub struct Delayed<T> {
    probe: Probe,
    pending_left: usize,
    value: Option<T>,
}

impl<T> Unpin for Delayed<T> {}

impl<T> Future for Delayed<T> {
    type Output = T;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        self.probe.polls.set(self.probe.polls.get() + 1);
        if self.pending_left == usize::MAX {
            return Poll::Pending;
        }
        if self.pending_left > 0 {
            self.pending_left -= 1;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        Poll::Ready(self.value.take().expect("polled after completion"))
    }
}

impl<T> Drop for Delayed<T> {
    fn drop(&mut self) {
        self.probe.drops.set(self.probe.drops.get() + 1);
    }
}

/// Returns `Pending` once (after waking its task), then `Ready(())`.
pub async fn yield_now() {
    let mut yielded = false;
    std::future::poll_fn(move |cx| {
        if yielded {
            Poll::Ready(())
        } else {
            yielded = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    })
    .await
}

/// A single-threaded unbounded channel whose `recv` is cancel-safe: a value
/// leaves the queue only in the poll that returns it.
pub struct Channel<T> {
    queue: RefCell<VecDeque<T>>,
    receiver: RefCell<Option<Waker>>,
}

impl<T> Channel<T> {
    pub fn new() -> Rc<Channel<T>> {
        Rc::new(Channel {
            queue: RefCell::new(VecDeque::new()),
            receiver: RefCell::new(None),
        })
    }

    pub fn send(&self, value: T) {
        self.queue.borrow_mut().push_back(value);
        if let Some(waker) = self.receiver.borrow_mut().take() {
            waker.wake();
        }
    }

    pub fn len(&self) -> usize {
        self.queue.borrow().len()
    }

    pub async fn recv(&self) -> T {
        std::future::poll_fn(|cx| match self.queue.borrow_mut().pop_front() {
            Some(value) => Poll::Ready(value),
            None => {
                *self.receiver.borrow_mut() = Some(cx.waker().clone());
                Poll::Pending
            }
        })
        .await
    }
}
