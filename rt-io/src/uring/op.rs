//! `Op`: the future of one submitted operation. It holds the ring and its
//! slot's index; the slot holds the buffers. Dropping an `Op` before its
//! completion leaves the slot to the ring, which frees it when the kernel
//! is done (see `slots`).

use super::ring::{completion_result, take, Ring};
use super::slots::{forget_result, Orphan, Polled};
use std::future::Future;
use std::io;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// A submitted operation whose slot owns a `T`; resolves to the
/// completion's result and the `T` back.
pub(crate) struct Op<T> {
    ring: Arc<Ring>,
    index: usize,
    /// The slot was freed when the result was taken.
    done: bool,
    _owned: PhantomData<fn() -> T>,
}

impl<T: Send + 'static> Op<T> {
    /// Submits the entry `build` makes from `owned` (see [`Ring::submit`]).
    ///
    /// # Safety
    ///
    /// That of [`Ring::submit`]: the entry points only into `owned`, or at
    /// memory and fds that outlive the completion.
    pub(crate) unsafe fn submit(
        ring: &Arc<Ring>,
        owned: T,
        build: impl FnOnce(&mut T) -> io_uring::squeue::Entry,
    ) -> io::Result<Op<T>> {
        // SAFETY: the caller's contract.
        unsafe { Op::submit_with_orphan(ring, owned, forget_result, build) }
    }

    /// [`submit`](Self::submit) without entering the kernel: the next
    /// submission enters both.
    ///
    /// # Safety
    ///
    /// That of [`submit`](Self::submit).
    pub(crate) unsafe fn submit_later(
        ring: &Arc<Ring>,
        owned: T,
        build: impl FnOnce(&mut T) -> io_uring::squeue::Entry,
    ) -> io::Result<Op<T>> {
        // SAFETY: the caller's contract is the ring's.
        let index = unsafe { ring.submit(owned, forget_result, build, false) }?;
        Ok(Op::new(ring, index))
    }

    /// [`submit`](Self::submit), handing the result to `orphan` if this
    /// future is dropped before the completion.
    ///
    /// # Safety
    ///
    /// That of [`submit`](Self::submit).
    pub(crate) unsafe fn submit_with_orphan(
        ring: &Arc<Ring>,
        owned: T,
        orphan: Orphan,
        build: impl FnOnce(&mut T) -> io_uring::squeue::Entry,
    ) -> io::Result<Op<T>> {
        // SAFETY: the caller's contract is the ring's.
        let index = unsafe { ring.submit(owned, orphan, build, true) }?;
        Ok(Op::new(ring, index))
    }

    fn new(ring: &Arc<Ring>, index: usize) -> Op<T> {
        Op {
            ring: ring.clone(),
            index,
            done: false,
            _owned: PhantomData,
        }
    }
}

impl<T: Send + 'static> Future for Op<T> {
    type Output = (io::Result<u32>, T);

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        assert!(
            !self.done,
            "an io_uring operation polled after it completed"
        );
        match self.ring.poll(self.index, cx.waker()) {
            Polled::Pending => Poll::Pending,
            Polled::Ready(result, owned) => {
                self.done = true;
                Poll::Ready((completion_result(result), take(owned)))
            }
        }
    }
}

impl<T> Drop for Op<T> {
    fn drop(&mut self) {
        if !self.done {
            self.ring.abandon(self.index);
        }
    }
}
