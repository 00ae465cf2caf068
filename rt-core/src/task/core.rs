//! The task cell: the one allocation behind every task.
//!
//! ```text
//! Cell<F, S>  (#[repr(C)]; padded where several threads poll the
//!              scheduler's tasks)
//! ├─ Header   hot, touched by every wake and poll: state word, run-queue
//! │           link, vtable, owner id, task id, poll count and time
//! ├─ Core     the scheduler handle and the stage: Running(future) →
//! │           Finished(output) → Consumed; the output replaces the future
//! │           in place
//! └─ Trailer  cold: owned-list links, join waker, spawn location, name
//! ```
//!
//! The header sits at offset zero, so a `NonNull<Header>` is the task
//! pointer every handle and waker carries; the vtable recovers the typed
//! cell from it.
//!
//! The cell's layout is chosen per scheduler, not per type
//! (`Schedule::pads_tasks`): a multi-thread scheduler with more than one
//! worker gets cells padded to a multiple of `CACHE_PAIR` bytes, so that
//! two workers polling neighbouring tasks do not write to one cache line;
//! every other scheduler gets the type's natural layout.
//!
//! The padding is of size, not alignment. The fields that every poll and
//! wake write (the state word, the run-queue link, the poll count and
//! time) lie in the header's first 48 bytes; a padded cell's neighbour
//! starts at least `CACHE_PAIR` bytes after it, so at least 80 bytes lie
//! between the two cells' such fields, more than a 64-byte line. The
//! future, which its poll writes too, may share a line with the next
//! cell's header, depending on where the allocator puts the two. The cell
//! is not aligned as well: glibc serves an over-aligned allocation through
//! a path that splits off and frees the slack on every call, which costs a
//! spawn more than the shared line it would save.

use super::error::JoinError;
use super::id::Id;
use super::origin::Origin;
use super::raw::Vtable;
use super::state::State;
use super::Schedule;
use crate::loom::cell::UnsafeCell;
use crate::loom::sync::atomic::{AtomicU32, Ordering};
use crate::util::linked_list;
use std::alloc::Layout;
use std::future::Future;
use std::num::NonZeroU64;
use std::pin::Pin;
use std::ptr::NonNull;
use std::task::{Context, Poll, Waker};

/// Bytes of the prefetched pair of cache lines that a padded cell owns
/// alone (x86_64's adjacent-line prefetch pairs 64-byte lines; aarch64's
/// lines are up to 128 bytes).
pub(super) const CACHE_PAIR: usize = 128;

/// The whole task allocation.
#[repr(C)]
pub(super) struct Cell<F: Future, S> {
    pub(super) header: Header,
    pub(super) core: Core<F, S>,
    pub(super) trailer: Trailer,
}

/// The hot part every handle can reach without knowing the future's type.
#[repr(C)]
pub(crate) struct Header {
    pub(super) state: State,
    /// Link for intrusive run queues (the injector). Only the queue that
    /// holds the task's `Notified` touches it, under the queue's lock.
    pub(super) queue_next: UnsafeCell<Option<NonNull<Header>>>,
    pub(super) vtable: &'static Vtable,
    /// Id of the owned-task list the task is bound to; written once before
    /// the task is shared, then read-only.
    pub(super) owner_id: UnsafeCell<Option<NonZeroU64>>,
    pub(super) id: Id,
    /// Polls so far, modulo 2^32. Written only by the holder of `RUNNING`
    /// (so a load and a store suffice); read by task dumps, which only need
    /// a recent value. In the header, beside the state word a poll writes
    /// anyway, rather than on a line of its own at the cell's end.
    pub(super) polls: AtomicU32,
    /// When the last measured poll ended, as `dump::clock_millis` (never
    /// 0); 0 until one was measured. Written like `polls`.
    pub(super) last_poll: AtomicU32,
}

/// The scheduler handle and the future or its output.
#[repr(C)]
pub(super) struct Core<F: Future, S> {
    pub(super) scheduler: S,
    /// Only the holder of `RUNNING` (or the `JoinHandle`, after `COMPLETE`
    /// with join interest) touches the stage.
    pub(super) stage: UnsafeCell<Stage<F>>,
}

/// Cold fields.
pub(super) struct Trailer {
    /// Links in the owned-task list, guarded by that list's shard lock.
    pub(super) owned: linked_list::Pointers<Header>,
    /// The `JoinHandle`'s waker; ownership per the `JOIN_WAKER` protocol.
    pub(super) waker: UnsafeCell<Option<Waker>>,
    /// Where the task was spawned and the name given through
    /// `task::Builder`, for task dumps, panic reports and slow-poll reports;
    /// read-only after spawn. One word, which with the header's two poll
    /// counters keeps a task with a future of up to three words in 128
    /// bytes.
    pub(super) origin: Origin,
}

/// What the core holds over the task's life.
pub(super) enum Stage<F: Future> {
    Running(F),
    Finished(Result<F::Output, JoinError>),
    Consumed,
}

// SAFETY: the header is shared between threads; every mutable field in it is
// an atomic or an UnsafeCell whose access rules are stated on the field.
unsafe impl Send for Header {}
// SAFETY: as above.
unsafe impl Sync for Header {}

impl<F: Future, S: Schedule> Cell<F, S> {
    /// The allocation of a cell: the natural one, or padded to a multiple
    /// of `CACHE_PAIR` bytes at the natural alignment (see the module
    /// docs).
    pub(super) fn layout(padded: bool) -> Layout {
        let natural = Layout::new::<Cell<F, S>>();
        if !padded {
            return natural;
        }
        Layout::from_size_align(natural.size().next_multiple_of(CACHE_PAIR), natural.align())
            .expect("a task cell's padded size overflows")
    }

    /// Allocates the cell for a new task and returns its header pointer.
    pub(super) fn allocate(
        future: F,
        scheduler: S,
        id: Id,
        vtable: &'static Vtable,
        origin: Origin,
    ) -> NonNull<Header> {
        let layout = Cell::<F, S>::layout(scheduler.pads_tasks());
        // SAFETY: the layout's size is not zero (the header alone is not).
        let ptr = unsafe { std::alloc::alloc(layout) }.cast::<Cell<F, S>>();
        let Some(ptr) = NonNull::new(ptr) else {
            std::alloc::handle_alloc_error(layout)
        };
        let cell = Cell {
            header: Header {
                state: State::new(),
                queue_next: UnsafeCell::new(None),
                vtable,
                owner_id: UnsafeCell::new(None),
                id,
                polls: AtomicU32::new(0),
                last_poll: AtomicU32::new(0),
            },
            core: Core {
                scheduler,
                stage: UnsafeCell::new(Stage::Running(future)),
            },
            trailer: Trailer {
                owned: linked_list::Pointers::new(),
                waker: UnsafeCell::new(None),
                origin,
            },
        };
        // SAFETY: `ptr` is a fresh allocation with at least the cell's size
        // and alignment, and nothing else refers to it yet.
        unsafe { ptr.as_ptr().write(cell) };
        // The header is the first field of a #[repr(C)] struct, so the cell
        // pointer is the header pointer.
        ptr.cast()
    }

    /// Drops the cell's fields and frees its allocation.
    ///
    /// # Safety
    ///
    /// `cell` came from `allocate` and nothing refers to it any more.
    pub(super) unsafe fn free(cell: NonNull<Cell<F, S>>) {
        // The scheduler answers as it did at allocation (`pads_tasks` is
        // fixed for its life); ask before the drop takes it away.
        // SAFETY: the cell is live until the drop below (caller).
        let layout = Cell::<F, S>::layout(unsafe { cell.as_ref() }.core.scheduler.pads_tasks());
        /// Frees the allocation when dropped, so that it is freed also
        /// when a field's destructor panics (as a `Box` would).
        struct Allocation(NonNull<u8>, Layout);
        impl Drop for Allocation {
            fn drop(&mut self) {
                // SAFETY: `allocate` allocated this pointer with this
                // layout, and only `free` makes an `Allocation`, once.
                unsafe { std::alloc::dealloc(self.0.as_ptr(), self.1) };
            }
        }
        let _allocation = Allocation(cell.cast(), layout);
        // SAFETY: nothing refers to the cell (caller), and its fields are
        // dropped exactly once, here; the memory is freed after.
        unsafe { std::ptr::drop_in_place(cell.as_ptr()) };
    }
}

impl<F: Future, S> Core<F, S> {
    /// Polls the future.
    ///
    /// # Safety
    ///
    /// The caller holds `RUNNING` and the stage is `Running`.
    pub(super) unsafe fn poll(&self, cx: &mut Context<'_>) -> Poll<F::Output> {
        self.stage.with_mut(|stage| {
            // SAFETY: RUNNING gives exclusive access to the stage.
            let stage = unsafe { &mut *stage };
            match stage {
                // SAFETY: the cell never moves while the task lives, so the
                // future is pinned.
                Stage::Running(future) => unsafe { Pin::new_unchecked(future) }.poll(cx),
                _ => unreachable!("polled a task whose future is gone"),
            }
        })
    }

    /// Replaces the stage, dropping the old one (the future or the output).
    ///
    /// # Safety
    ///
    /// The caller has exclusive access to the stage.
    pub(super) unsafe fn set_stage(&self, stage: Stage<F>) {
        // SAFETY: exclusive access per the caller's contract.
        self.stage.with_mut(|slot| unsafe { *slot = stage });
    }

    /// Takes the output out, leaving `Consumed`.
    ///
    /// # Safety
    ///
    /// The caller has exclusive access to the stage and the task completed.
    pub(super) unsafe fn take_output(&self) -> Result<F::Output, JoinError> {
        // SAFETY: exclusive access per the caller's contract.
        self.stage.with_mut(|slot| {
            // SAFETY: exclusive access per the caller's contract.
            let stage = unsafe { &mut *slot };
            match std::mem::replace(stage, Stage::Consumed) {
                Stage::Finished(output) => output,
                _ => panic!("JoinHandle polled after completion"),
            }
        })
    }
}

impl Header {
    /// The id of the owned list this task belongs to.
    pub(super) fn owner_id(&self) -> Option<NonZeroU64> {
        // SAFETY: written once before the task is shared.
        self.owner_id.with(|id| unsafe { *id })
    }

    /// # Safety
    ///
    /// Only before the task is shared with other threads.
    pub(super) unsafe fn set_owner_id(&self, owner: NonZeroU64) {
        // SAFETY: not yet shared, per the caller's contract.
        self.owner_id.with_mut(|id| unsafe { *id = Some(owner) });
    }

    /// The next task in an intrusive run queue.
    ///
    /// # Safety
    ///
    /// The caller holds the lock of the queue the task is in.
    pub(crate) unsafe fn queue_next(&self) -> Option<NonNull<Header>> {
        // SAFETY: the queue's lock serialises access, per the contract.
        self.queue_next.with(|next| unsafe { *next })
    }

    /// # Safety
    ///
    /// As for `queue_next`.
    pub(crate) unsafe fn set_queue_next(&self, next: Option<NonNull<Header>>) {
        // SAFETY: as in `queue_next`.
        self.queue_next.with_mut(|slot| unsafe { *slot = next });
    }

    /// The trailer of the cell this header begins.
    ///
    /// # Safety
    ///
    /// `me` points at a live header.
    pub(super) unsafe fn trailer(me: NonNull<Header>) -> NonNull<Trailer> {
        // SAFETY: the vtable stores the trailer's offset within the cell.
        unsafe {
            let offset = me.as_ref().vtable.trailer_offset;
            NonNull::new_unchecked(me.as_ptr().cast::<u8>().add(offset).cast())
        }
    }

    /// Counts a poll. The caller holds `RUNNING`, so nobody else writes.
    #[inline]
    pub(super) fn count_poll(&self) {
        let polls = self.polls.load(Ordering::Relaxed);
        self.polls.store(polls.wrapping_add(1), Ordering::Relaxed);
    }

    /// Takes back the count of a poll that is about to be a dump's trace
    /// poll. The caller holds `RUNNING`.
    pub(super) fn uncount_poll(&self) {
        let polls = self.polls.load(Ordering::Relaxed);
        self.polls.store(polls.wrapping_sub(1), Ordering::Relaxed);
    }

    /// Records when a measured poll ended. The caller holds `RUNNING`.
    pub(super) fn set_last_poll(&self, millis: u32) {
        self.last_poll.store(millis.max(1), Ordering::Relaxed);
    }
}

impl Trailer {
    /// # Safety
    ///
    /// The caller owns the waker slot per the `JOIN_WAKER` protocol.
    pub(super) unsafe fn set_waker(&self, waker: Option<Waker>) {
        // SAFETY: ownership of the slot per the caller's contract.
        self.waker.with_mut(|slot| unsafe { *slot = waker });
    }

    /// # Safety
    ///
    /// The runtime side holds the slot (`JOIN_WAKER` set, task complete).
    pub(super) unsafe fn wake_join(&self) {
        // SAFETY: the slot is read-only shared while JOIN_WAKER is set.
        self.waker.with(|slot| match unsafe { &*slot } {
            Some(waker) => waker.wake_by_ref(),
            None => panic!("JOIN_WAKER set without a waker"),
        });
    }

    /// # Safety
    ///
    /// The caller may read the slot (it owns it or it is shared).
    pub(super) unsafe fn will_wake(&self, waker: &Waker) -> bool {
        self.waker.with(|slot| {
            // SAFETY: read access per the caller's contract.
            let current = unsafe { &*slot };
            current.as_ref().is_some_and(|w| w.will_wake(waker))
        })
    }
}
