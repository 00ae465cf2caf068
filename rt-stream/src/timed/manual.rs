//! Hand-driven timers for the tests of the time-based adapters: the test
//! decides when a delay expires or an interval ticks.

use core::pin::Pin;
use core::task::{Context, Poll, Waker};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use super::{Delay, Ticker};

#[derive(Default)]
struct State {
    armed_for: Option<Duration>,
    arms: usize,
    expired: bool,
    waker: Option<Waker>,
}

/// A [`Delay`] that expires when the test says so. Clones share state.
#[derive(Clone, Default)]
pub(crate) struct ManualDelay {
    state: Rc<RefCell<State>>,
}

impl ManualDelay {
    /// Expires the delay and wakes whoever waits on it.
    pub(crate) fn expire(&self) {
        let waker = {
            let mut state = self.state.borrow_mut();
            state.expired = true;
            state.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// The duration it was last armed with.
    pub(crate) fn armed_for(&self) -> Option<Duration> {
        self.state.borrow().armed_for
    }

    /// How many times it was armed.
    pub(crate) fn arms(&self) -> usize {
        self.state.borrow().arms
    }

    /// Whether a waker is parked on it.
    pub(crate) fn has_waiter(&self) -> bool {
        self.state.borrow().waker.is_some()
    }
}

impl Delay for ManualDelay {
    fn arm(self: Pin<&mut Self>, after: Duration) {
        let mut state = self.state.borrow_mut();
        state.armed_for = Some(after);
        state.arms += 1;
        state.expired = false;
    }

    fn poll_expired(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut state = self.state.borrow_mut();
        if state.expired {
            Poll::Ready(())
        } else {
            state.waker = Some(cx.waker().clone());
            Poll::Pending
        }
    }
}

/// A [`Ticker`] that ticks when the test says so. Clones share state.
#[derive(Clone, Default)]
pub(crate) struct ManualTicker {
    state: Rc<RefCell<(usize, usize)>>, // (ticks owed, resets)
}

impl ManualTicker {
    /// Makes one tick due.
    pub(crate) fn tick(&self) {
        self.state.borrow_mut().0 += 1;
    }

    /// How many times it was reset.
    pub(crate) fn resets(&self) -> usize {
        self.state.borrow().1
    }
}

impl Ticker for ManualTicker {
    fn poll_tick(&mut self, _cx: &mut Context<'_>) -> Poll<()> {
        let mut state = self.state.borrow_mut();
        if state.0 > 0 {
            state.0 -= 1;
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }

    fn reset(&mut self) {
        let mut state = self.state.borrow_mut();
        state.0 = 0;
        state.1 += 1;
    }
}

/// Polls `stream` once with a waker nobody looks at.
pub(crate) fn poll_once<S: futures_core::Stream + Unpin>(stream: &mut S) -> Poll<Option<S::Item>> {
    let waker = noop_waker();
    let mut cx = Context::from_waker(&waker);
    Pin::new(stream).poll_next(&mut cx)
}

fn noop_waker() -> Waker {
    struct Noop;
    impl std::task::Wake for Noop {
        fn wake(self: std::sync::Arc<Self>) {}
    }
    Waker::from(std::sync::Arc::new(Noop))
}

/// A stream giving the scripted answers in order, then `None`.
pub(crate) struct Script<T>(pub(crate) std::collections::VecDeque<Poll<Option<T>>>);

impl<T> Script<T> {
    pub(crate) fn new(steps: impl IntoIterator<Item = Poll<Option<T>>>) -> Script<T> {
        Script(steps.into_iter().collect())
    }
}

impl<T> Unpin for Script<T> {}

impl<T> futures_core::Stream for Script<T> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<T>> {
        self.0.pop_front().unwrap_or(Poll::Ready(None))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.len();
        (0, Some(n))
    }
}
