//! `MaybeDone`: one slot of `join!` and `try_join!`, holding a future until
//! it finishes and then its output, in the same place. The futures of a
//! `join!` are pinned together as a tuple of these, so that the future the
//! macro expands to holds each future or its output, and one pointer.

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};

/// A future, then its output, then nothing once the output is taken.
#[derive(Debug)]
pub enum MaybeDone<F: Future> {
    /// Still running.
    Future(F),
    /// Finished; the output waits to be taken.
    Done(F::Output),
    /// The output was taken.
    Gone,
}

impl<F: Future> MaybeDone<F> {
    /// Polls the future if it still runs; ready once the output is there
    /// (or was taken).
    pub fn poll_done(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        // SAFETY: the future is pinned structurally: it is never moved
        // while in the slot, and leaves it only by being dropped in place by
        // `Pin::set` below. The output is not pinned (it is moved out by
        // `take_output`), and nothing here moves the future.
        let future = match unsafe { self.as_mut().get_unchecked_mut() } {
            // SAFETY: see above; the future stays where the pinned slot is.
            MaybeDone::Future(future) => unsafe { Pin::new_unchecked(future) },
            MaybeDone::Done(_) | MaybeDone::Gone => return Poll::Ready(()),
        };
        match future.poll(cx) {
            Poll::Ready(output) => {
                // Drops the finished future in place.
                self.set(MaybeDone::Done(output));
                Poll::Ready(())
            }
            Poll::Pending => Poll::Pending,
        }
    }

    /// The output, if the future finished and it was not taken yet.
    pub fn output(self: Pin<&mut Self>) -> Option<&F::Output> {
        match self.into_ref().get_ref() {
            MaybeDone::Done(output) => Some(output),
            MaybeDone::Future(_) | MaybeDone::Gone => None,
        }
    }

    /// Takes the output out, leaving the slot `Gone`; `None` if the future
    /// has not finished or the output was taken.
    pub fn take_output(self: Pin<&mut Self>) -> Option<F::Output> {
        // SAFETY: only a finished slot is touched, and it holds no future:
        // the output it holds is not pinned, so moving it out is allowed.
        let this = unsafe { self.get_unchecked_mut() };
        match this {
            MaybeDone::Done(_) => match core::mem::replace(this, MaybeDone::Gone) {
                MaybeDone::Done(output) => Some(output),
                MaybeDone::Future(_) | MaybeDone::Gone => None,
            },
            MaybeDone::Future(_) | MaybeDone::Gone => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::future::ready;

    #[test]
    fn a_slot_holds_the_future_then_its_output() {
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        let mut slot = core::pin::pin!(MaybeDone::Future(ready(7)));
        assert_eq!(slot.as_mut().output(), None);
        assert_eq!(slot.as_mut().poll_done(&mut cx), Poll::Ready(()));
        assert_eq!(slot.as_mut().output(), Some(&7));
        assert_eq!(slot.as_mut().take_output(), Some(7));
        assert_eq!(slot.as_mut().take_output(), None);
        assert_eq!(slot.as_mut().poll_done(&mut cx), Poll::Ready(()));
    }
}
