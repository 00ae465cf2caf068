//! `Ring`: the io_uring instance a runtime's I/O driver owns, shared with
//! every operation submitted to it.
//!
//! One lock guards the ring's queues and the [`Slots`] table together:
//! pushing a submission, entering the kernel and reaping completions happen
//! under it, from whichever thread submits or turns the driver. Wakers are
//! collected under the lock and woken after it is released.
//!
//! Submissions enter the kernel at once (`io_uring_enter` without waiting),
//! and the completions already posted are reaped right after: a buffered
//! read of a cached file or an `openat` that the dentry cache answers
//! completes inside that call, so its operation is ready on its first
//! poll, with no park. Every completion also signals an eventfd that the
//! reactor polls under a reserved token, so a parked driver wakes for the
//! ones the kernel finishes later (on its worker threads, or through task
//! work), and reaps them after its turn.

use super::probe;
use super::slots::{Orphan, Owned, Polled, Slots};
use io_uring::{squeue, IoUring};
use rt_core::loom::sync::atomic::{AtomicBool, Ordering};
use rt_core::loom::sync::{Mutex, MutexGuard};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::task::Waker;
use std::time::{Duration, Instant};

/// Submission queue entries of a runtime's ring.
pub(crate) const RING_ENTRIES: u32 = 256;

/// How long dropping the ring waits for the kernel to finish operations
/// whose buffers it may still write; past it their buffers are leaked.
const DRAIN_BOUND: Duration = Duration::from_secs(1);

/// The ring, its completion eventfd and the in-flight operations.
pub(crate) struct Ring {
    inner: Mutex<Inner>,
    /// Signalled by the kernel at every completion; the reactor polls it.
    eventfd: OwnedFd,
    is_shutdown: AtomicBool,
}

struct Inner {
    uring: IoUring,
    slots: Slots,
}

impl Ring {
    /// Sets up a ring with the opcodes rt uses, or gives the reason the
    /// kernel refuses (see [`probe::setup`]).
    pub(crate) fn new(force_probe_failure: bool) -> io::Result<Ring> {
        let uring = probe::setup(RING_ENTRIES, force_probe_failure)?;
        // SAFETY: `eventfd` takes no pointers; a negative result is an
        // error, checked below.
        let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` was just returned by `eventfd` and nothing else owns
        // it.
        let eventfd = unsafe { OwnedFd::from_raw_fd(fd) };
        uring.submitter().register_eventfd(eventfd.as_raw_fd())?;
        Ok(Ring {
            inner: Mutex::new(Inner {
                uring,
                slots: Slots::default(),
            }),
            eventfd,
            is_shutdown: AtomicBool::new(false),
        })
    }

    /// The eventfd the kernel signals at each completion.
    pub(crate) fn eventfd(&self) -> RawFd {
        self.eventfd.as_raw_fd()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic under the lock leaves the queues consistent (each step
        // is one push or one reap), so a poisoned lock is still usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Hands `owned` to a slot, builds the submission from it in place
    /// (`build` takes the pointers the kernel will use), submits it and
    /// reaps what is already complete. Returns the slot's index. `orphan`
    /// receives the result if the operation's future is dropped first.
    /// With `enter_now` false the entry is only queued: the next submission
    /// (or the driver's next turn) enters it, so that operations submitted
    /// together cost one system call.
    ///
    /// # Safety
    ///
    /// The entry `build` returns may point only into `owned` (or into
    /// memory that lives as long as the process, such as a `static`), and
    /// at fds that stay open until the completion.
    pub(crate) unsafe fn submit<T: Send + 'static>(
        &self,
        owned: T,
        orphan: Orphan,
        build: impl FnOnce(&mut T) -> squeue::Entry,
        enter_now: bool,
    ) -> io::Result<usize> {
        if self.is_shutdown.load(Ordering::Acquire) {
            return Err(rt_core::runtime::shutdown_error());
        }
        let mut inner = self.lock();
        let (index, slot_data) = inner.slots.insert(Box::new(owned), orphan);
        let data = slot_data
            .downcast_mut::<T>()
            .expect("the slot holds what was just inserted");
        let entry = build(data).user_data(index as u64);
        let inner_ref = &mut *inner;
        let mut wakers = Vec::new();
        // A full queue holds entries the kernel has not taken: the last
        // entry failed with `EBUSY` because the completion queue is full.
        // Reaping makes room there and entering empties the queue; if the
        // kernel still refuses, wait for one completion. Each round frees
        // room, so the push succeeds: a saturated ring slows submitters
        // down instead of failing their operations.
        for round in 0.. {
            // SAFETY: the entry points into the slot's boxed data (the
            // caller's contract), which the table keeps, at a fixed
            // address, until the completion for `index` arrives, whatever
            // happens to the `Op`.
            if unsafe { inner_ref.uring.submission().push(&entry) }.is_ok() {
                break;
            }
            wakers.extend(reap(inner_ref));
            if round == 0 {
                enter(&mut inner_ref.uring);
            } else {
                enter_and_wait(&mut inner_ref.uring);
            }
            wakers.extend(reap(inner_ref));
        }
        if enter_now {
            enter(&mut inner_ref.uring);
            wakers.extend(reap(inner_ref));
        }
        drop(inner);
        wakers.into_iter().for_each(Waker::wake);
        Ok(index)
    }

    /// The future of operation `index` polls it: reaps what is complete,
    /// then reports its slot.
    pub(crate) fn poll(&self, index: usize, waker: &Waker) -> Polled {
        let mut inner = self.lock();
        let wakers = reap(&mut inner);
        let polled = inner.slots.poll(index, waker);
        drop(inner);
        wakers.into_iter().for_each(Waker::wake);
        polled
    }

    /// The future of operation `index` is dropped before it took its
    /// result: the table keeps the slot until the completion.
    pub(crate) fn abandon(&self, index: usize) {
        self.lock().slots.abandon(index);
    }

    /// The driver's turn: enters what is queued and not yet entered, reaps
    /// the completions and wakes their operations.
    pub(crate) fn turn(&self) {
        let mut inner = self.lock();
        if !inner.uring.submission().is_empty() {
            enter(&mut inner.uring);
        }
        let wakers = reap(&mut inner);
        drop(inner);
        wakers.into_iter().for_each(Waker::wake);
    }

    /// Runtime shutdown: new submissions fail; operations in flight keep
    /// their slots (the kernel finishes them) and are woken, so that a task
    /// polled once more finds its result or is dropped.
    pub(crate) fn shutdown(&self) {
        self.is_shutdown.store(true, Ordering::Release);
        let wakers = self.lock().slots.take_wakers();
        wakers.into_iter().for_each(Waker::wake);
    }
}

/// Enters queued submissions without waiting for any completion. A busy
/// completion queue (`EBUSY`) or a signal leaves them queued; the next
/// submission or driver turn enters them.
fn enter(uring: &mut IoUring) {
    match uring.submit() {
        Ok(_) => {}
        Err(e)
            if matches!(
                e.raw_os_error(),
                Some(libc::EBUSY | libc::EAGAIN | libc::EINTR)
            ) => {}
        Err(e) => panic!("io_uring_enter failed: {e}"),
    }
}

/// Enters queued submissions and waits for at least one completion; used
/// only when the queues are full, so that one is sure to come.
fn enter_and_wait(uring: &mut IoUring) {
    match uring.submit_and_wait(1) {
        Ok(_) => {}
        Err(e) if matches!(e.raw_os_error(), Some(libc::EBUSY | libc::EINTR)) => {}
        Err(e) => panic!("io_uring_enter failed: {e}"),
    }
}

/// Moves the posted completions into their slots; returns the wakers of
/// the operations that wait for them.
fn reap(inner: &mut Inner) -> Vec<Waker> {
    let Inner { uring, slots } = inner;
    let mut wakers = Vec::new();
    for cqe in uring.completion() {
        if let Some(waker) = slots.complete(cqe.user_data() as usize, cqe.result()) {
            wakers.push(waker);
        }
    }
    wakers
}

impl Drop for Ring {
    fn drop(&mut self) {
        // Every `Op` holds the ring, so what is left in flight here was
        // abandoned; the kernel may still write into its buffers. Wait for
        // it, bounded, and leak what does not finish in time rather than
        // free memory the kernel writes.
        let inner = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        let deadline = Instant::now() + DRAIN_BOUND;
        while inner.slots.in_flight() > 0 {
            if Instant::now() >= deadline {
                inner.slots.leak_in_flight();
                break;
            }
            let wait = io_uring::types::Timespec::new().nsec(10_000_000);
            let args = io_uring::types::SubmitArgs::new().timespec(&wait);
            // A timeout (`ETIME`) or a signal only ends this wait.
            let _ = inner.uring.submitter().submit_with_args(1, &args);
            drop(reap(inner));
        }
    }
}

impl std::fmt::Debug for Ring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ring")
            .field("is_shutdown", &self.is_shutdown.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

/// The result of a completion as an `io::Result`: a negative value is the
/// error number.
pub(crate) fn completion_result(result: i32) -> io::Result<u32> {
    if result < 0 {
        Err(io::Error::from_raw_os_error(-result))
    } else {
        Ok(result as u32)
    }
}

/// Owned data the completion hands back, as the type that was submitted.
pub(crate) fn take<T: 'static>(owned: Owned) -> T {
    *owned
        .downcast::<T>()
        .expect("an operation's slot holds the type it submitted")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uring::slots::forget_result;
    use io_uring::opcode;
    use std::task::Waker;

    /// More operations than the submission queue holds, queued without
    /// entering the kernel: the ring makes room instead of refusing any,
    /// and every one completes.
    #[test]
    fn a_full_submission_queue_makes_room_instead_of_failing() {
        let Ok(ring) = Ring::new(false) else {
            eprintln!("io_uring is not available here: test skipped");
            return;
        };
        let count = RING_ENTRIES as usize * 3;
        let indices: Vec<usize> = (0..count)
            .map(|_| {
                // SAFETY: a no-op points at no memory.
                unsafe { ring.submit((), forget_result, |_| opcode::Nop::new().build(), false) }
                    .expect("a saturated ring still takes the operation")
            })
            .collect();
        ring.turn();
        for index in indices {
            assert!(matches!(
                ring.poll(index, Waker::noop()),
                Polled::Ready(0, _)
            ));
        }
    }
}
