//! Helpers shared by the behaviour tests: a runtime to block on, a waker
//! that counts its wakes, and streams whose every answer the test scripts.

#![allow(dead_code)]

use std::cell::Cell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use rt_stream::Stream;

/// Runs `future` to completion on a fresh current-thread runtime.
pub fn block_on<F: Future>(future: F) -> F::Output {
    rt_core::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime builds")
        .block_on(future)
}

/// Installs a generator seeded with `seed` on this thread, so that the
/// random choices made by `StreamMap` repeat run after run.
pub fn seed_thread_rng(seed: u64) {
    use rt_core::util::rng::{replace_thread_rng, FastRand};
    replace_thread_rng(Some(FastRand::from_seed(seed)));
}

/// A waker that counts how often it was woken.
#[derive(Default)]
pub struct CountingWaker {
    wakes: AtomicUsize,
}

impl CountingWaker {
    pub fn new() -> (Arc<CountingWaker>, Waker) {
        let counter = Arc::new(CountingWaker::default());
        let waker = Waker::from(Arc::clone(&counter));
        (counter, waker)
    }

    pub fn wakes(&self) -> usize {
        self.wakes.load(Ordering::SeqCst)
    }
}

impl Wake for CountingWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.wakes.fetch_add(1, Ordering::SeqCst);
    }
}

/// Polls `stream` once with a waker nobody looks at.
pub fn poll_once<S: Stream + Unpin + ?Sized>(stream: &mut S) -> Poll<Option<S::Item>> {
    let (_, waker) = CountingWaker::new();
    let mut cx = Context::from_waker(&waker);
    Pin::new(stream).poll_next(&mut cx)
}

/// Polls `future` once with a waker nobody looks at.
pub fn poll_future<F: Future + Unpin>(future: &mut F) -> Poll<F::Output> {
    let (_, waker) = CountingWaker::new();
    let mut cx = Context::from_waker(&waker);
    Pin::new(future).poll(&mut cx)
}

/// Shared view of a [`Scripted`] stream: how often it was polled and the
/// waker it holds.
#[derive(Clone, Default)]
pub struct Probe {
    polls: Rc<Cell<usize>>,
    waker: Rc<Cell<Option<Waker>>>,
}

impl Probe {
    pub fn polls(&self) -> usize {
        self.polls.get()
    }

    /// Wakes the waker the stream stored on its last `Pending`; `false` if
    /// it held none.
    pub fn wake(&self) -> bool {
        match self.waker.take() {
            Some(waker) => {
                waker.wake();
                true
            }
            None => false,
        }
    }
}

/// A stream that gives the scripted answers in order, then `None`; it
/// panics if polled again after it has answered `None`, which catches
/// adapters that poll a finished stream.
pub struct Scripted<T> {
    steps: VecDeque<Poll<Option<T>>>,
    ended: bool,
    probe: Probe,
    hint: (usize, Option<usize>),
}

impl<T> Scripted<T> {
    pub fn new(steps: impl IntoIterator<Item = Poll<Option<T>>>) -> (Scripted<T>, Probe) {
        let probe = Probe::default();
        let stream = Scripted {
            steps: steps.into_iter().collect(),
            ended: false,
            probe: probe.clone(),
            hint: (0, None),
        };
        (stream, probe)
    }

    /// Ready items only.
    pub fn items(items: impl IntoIterator<Item = T>) -> (Scripted<T>, Probe) {
        Scripted::new(items.into_iter().map(|item| Poll::Ready(Some(item))))
    }

    pub fn with_hint(mut self, hint: (usize, Option<usize>)) -> Self {
        self.hint = hint;
        self
    }
}

impl<T> Unpin for Scripted<T> {}

impl<T> Stream for Scripted<T> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        assert!(!self.ended, "stream polled after it ended");
        self.probe.polls.set(self.probe.polls.get() + 1);
        match self.steps.pop_front() {
            Some(Poll::Pending) => {
                self.probe.waker.set(Some(cx.waker().clone()));
                Poll::Pending
            }
            Some(Poll::Ready(Some(item))) => Poll::Ready(Some(item)),
            Some(Poll::Ready(None)) | None => {
                self.ended = true;
                Poll::Ready(None)
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.hint
    }
}

/// A stream that yields `value` forever, always ready.
pub struct Always<T: Clone>(pub T);

impl<T: Clone> Unpin for Always<T> {}

impl<T: Clone> Stream for Always<T> {
    type Item = T;

    fn poll_next(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<T>> {
        Poll::Ready(Some(self.0.clone()))
    }
}
