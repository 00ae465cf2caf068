//! Streams whose every answer the test scripts, to check what an adapter
//! does with each of them: how often it polls, whether it passes the waker
//! on, whether it polls a stream that has ended.

use futures_core::Stream;
use std::cell::Cell;
use std::collections::VecDeque;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// Shared view of a [`Scripted`] stream: how often it was polled and the
/// waker it holds.
#[derive(Clone, Default)]
pub struct Probe {
    polls: Rc<Cell<usize>>,
    waker: Rc<Cell<Option<Waker>>>,
}

impl Probe {
    /// How often the stream was polled.
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
///
/// ```
/// use std::task::Poll;
/// let (mut stream, probe) = rt_test::Scripted::new([Poll::Pending, Poll::Ready(Some(1))]);
/// assert!(rt_test::poll_next_once(&mut stream).is_pending());
/// assert!(probe.wake(), "a pending poll stores the waker");
/// assert_eq!(rt_test::poll_next_once(&mut stream), Poll::Ready(Some(1)));
/// assert_eq!(rt_test::poll_next_once(&mut stream), Poll::Ready(None));
/// assert_eq!(probe.polls(), 3);
/// ```
pub struct Scripted<T> {
    steps: VecDeque<Poll<Option<T>>>,
    ended: bool,
    probe: Probe,
    hint: (usize, Option<usize>),
}

impl<T> Scripted<T> {
    /// The stream that answers `steps`, and its probe.
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

    /// A stream of ready items only.
    pub fn items(items: impl IntoIterator<Item = T>) -> (Scripted<T>, Probe) {
        Scripted::new(items.into_iter().map(|item| Poll::Ready(Some(item))))
    }

    /// The stream, reporting `hint` as its size hint.
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

/// A stream that yields a clone of its value forever, always ready.
pub struct Always<T: Clone>(pub T);

impl<T: Clone> Unpin for Always<T> {}

impl<T: Clone> Stream for Always<T> {
    type Item = T;

    fn poll_next(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<T>> {
        Poll::Ready(Some(self.0.clone()))
    }
}
