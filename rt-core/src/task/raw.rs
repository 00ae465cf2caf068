//! `RawTask`: an untyped pointer to a task cell plus the vtable calls that
//! recover the types. Every handle (`Task`, `Notified`, `JoinHandle`,
//! `AbortHandle`, `Waker`) is a `RawTask` with a rule about which reference
//! it holds.

use super::core::{Cell, Core, Header, Trailer};
use super::harness::Harness;
use super::id::Id;
use super::origin::Origin;
use super::state::{Snapshot, State};
use super::trace::{Collector, TraceMode};
use super::Schedule;
use std::future::Future;
use std::mem::offset_of;
use std::panic::Location;
use std::ptr::NonNull;
use std::task::{Poll, Waker};

/// Type-erased entry points into a task's harness.
pub(crate) struct Vtable {
    /// Polls the task (the caller's `Notified` reference is consumed).
    pub(super) poll: unsafe fn(NonNull<Header>),
    /// Submits the task to its scheduler (a `Notified` reference is passed).
    pub(super) schedule: unsafe fn(NonNull<Header>),
    /// Frees the cell.
    pub(super) dealloc: unsafe fn(NonNull<Header>),
    /// Moves the output into `*dst` (a `Poll<Result<T, JoinError>>`) if
    /// ready, otherwise registers the waker.
    pub(super) try_read_output: unsafe fn(NonNull<Header>, *mut (), &Waker),
    /// The `JoinHandle`'s drop when the fast path failed.
    pub(super) drop_join_handle_slow: unsafe fn(NonNull<Header>),
    /// Cancels the task from its owner (runtime shutdown).
    pub(super) shutdown: unsafe fn(NonNull<Header>),
    /// The type name of the task's future, for task dumps.
    pub(super) future_type: fn() -> &'static str,
    /// Byte offset of the trailer in the cell.
    pub(super) trailer_offset: usize,
    /// Byte offset of the scheduler in the cell.
    pub(super) scheduler_offset: usize,
}

/// The vtable for one future and scheduler type.
fn vtable<F: Future, S: Schedule>() -> &'static Vtable {
    &Vtable {
        poll: poll::<F, S>,
        schedule: schedule::<S>,
        dealloc: dealloc::<F, S>,
        try_read_output: try_read_output::<F, S>,
        drop_join_handle_slow: drop_join_handle_slow::<F, S>,
        shutdown: shutdown::<F, S>,
        future_type: std::any::type_name::<F>,
        trailer_offset: offset_of!(Cell<F, S>, trailer),
        scheduler_offset: offset_of!(Cell<F, S>, core) + offset_of!(Core<F, S>, scheduler),
    }
}

/// A pointer to a task cell; what it owns depends on the wrapper.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawTask {
    ptr: NonNull<Header>,
}

impl RawTask {
    pub(super) fn new<F: Future, S: Schedule>(
        future: F,
        scheduler: S,
        id: Id,
        origin: Origin,
    ) -> RawTask {
        RawTask {
            ptr: Cell::allocate(future, scheduler, id, vtable::<F, S>(), origin),
        }
    }

    /// # Safety
    ///
    /// `ptr` must point at a live task header.
    #[inline]
    pub(super) unsafe fn from_raw(ptr: NonNull<Header>) -> RawTask {
        RawTask { ptr }
    }

    #[inline]
    pub(crate) fn header_ptr(self) -> NonNull<Header> {
        self.ptr
    }

    #[inline]
    pub(crate) fn header(&self) -> &Header {
        // SAFETY: a RawTask is only built for a live cell, and the holder's
        // reference keeps it alive.
        unsafe { self.ptr.as_ref() }
    }

    #[inline]
    pub(super) fn state(&self) -> &State {
        &self.header().state
    }

    pub(super) fn trailer(&self) -> &Trailer {
        // SAFETY: the cell is live (see `header`).
        unsafe { Header::trailer(self.ptr).as_ref() }
    }

    /// Where the task was spawned.
    pub(crate) fn spawn_location(&self) -> &'static Location<'static> {
        self.trailer().origin.location()
    }

    pub(crate) fn id(&self) -> Id {
        self.header().id
    }

    #[inline]
    pub(super) fn poll(self) {
        // SAFETY: the vtable matches the cell; the caller passes a Notified
        // reference.
        unsafe { (self.header().vtable.poll)(self.ptr) }
    }

    #[inline]
    pub(super) fn schedule(self) {
        // SAFETY: as in `poll`.
        unsafe { (self.header().vtable.schedule)(self.ptr) }
    }

    pub(super) fn dealloc(self) {
        // SAFETY: the caller dropped the last reference.
        unsafe { (self.header().vtable.dealloc)(self.ptr) }
    }

    /// # Safety
    ///
    /// `dst` must be a `*mut Poll<Result<T, JoinError>>` for the task's
    /// output type `T`, and the caller must hold join interest.
    pub(super) unsafe fn try_read_output(self, dst: *mut (), waker: &Waker) {
        // SAFETY: per the caller's contract.
        unsafe { (self.header().vtable.try_read_output)(self.ptr, dst, waker) }
    }

    pub(super) fn drop_join_handle_slow(self) {
        // SAFETY: the caller is the JoinHandle giving up its reference.
        unsafe { (self.header().vtable.drop_join_handle_slow)(self.ptr) }
    }

    pub(super) fn shutdown(self) {
        // SAFETY: the caller gives up a `Task` reference.
        unsafe { (self.header().vtable.shutdown)(self.ptr) }
    }

    /// One trace poll for a task dump (see `trace.rs`); the caller holds a
    /// reference. When the task is idle, claims it like a poll (so that it
    /// owns the future, and a concurrent wake only sets `NOTIFIED`) and
    /// polls it through the ordinary poll entry in trace mode, which ends
    /// it like any poll: the state word is as before, except that a wake
    /// that came meanwhile is handed to the scheduler, once. Returns the
    /// stacks recorded and the future's type name, or the state word that
    /// kept the task from being claimed.
    ///
    /// The ordinary entry, because the future's poll must have one call
    /// site: a second copy would keep the compiler from inlining it and its
    /// panic guard into every poll.
    pub(super) fn trace(
        self,
        collector: &mut Collector,
    ) -> Result<(Vec<usize>, &'static str), Snapshot> {
        self.state().transition_to_trace()?;
        // We hold RUNNING: the poll below counts itself; a trace poll is
        // not one of the task's.
        self.header().uncount_poll();
        // Unwinding a captured stack stops at this frame: what is below is
        // the same for every task of the dump.
        let marker = 0u8;
        collector.set_stack_limit(std::hint::black_box(&marker) as *const u8 as usize);
        let mode = TraceMode::enter(collector, self.state());
        // With a spent coop budget: the trace poll spends none of the
        // dumping task's, and a resource that spends budget stops at
        // `poll_proceed`, which records it (see `coop::spent`).
        super::coop::with_budget_value(Some(0), || {
            // SAFETY: the vtable matches the cell; the claim's reference
            // (taken by `transition_to_trace`) is the poll's, and RUNNING
            // is ours.
            unsafe { (self.header().vtable.poll)(self.ptr) }
        });
        drop(mode);
        Ok((collector.take_current(), (self.header().vtable.future_type)()))
    }

    pub(super) fn drop_join_handle_fast(self) -> Result<(), ()> {
        self.state().drop_join_handle_fast()
    }

    #[inline]
    pub(super) fn ref_inc(self) {
        self.state().ref_inc();
    }

    /// Drops one reference, freeing the cell if it was the last.
    #[inline]
    pub(super) fn drop_reference(self) {
        if self.state().ref_dec() {
            self.dealloc();
        }
    }

    /// Remote abort (from `JoinHandle::abort` or `AbortHandle::abort`).
    pub(super) fn remote_abort(self) {
        if self.state().transition_to_notified_and_cancel() {
            // The new reference goes to the scheduler as a Notified.
            self.schedule();
        }
    }
}

// SAFETY: `RawTask` is a pointer to a `Sync` header; which thread may do what
// with it is decided by the handle types wrapping it.
unsafe impl Send for RawTask {}
// SAFETY: as above.
unsafe impl Sync for RawTask {}

unsafe fn poll<F: Future, S: Schedule>(ptr: NonNull<Header>) {
    // SAFETY: the vtable was built for `Cell<F, S>`.
    unsafe { Harness::<F, S>::from_raw(ptr) }.poll();
}

unsafe fn schedule<S: Schedule>(ptr: NonNull<Header>) {
    // SAFETY: the vtable of this cell stores where its scheduler lives, and
    // the caller's reference keeps the cell alive.
    let scheduler = unsafe {
        let offset = ptr.as_ref().vtable.scheduler_offset;
        &*ptr.as_ptr().cast::<u8>().add(offset).cast::<S>()
    };
    // SAFETY: the caller passes a Notified reference.
    scheduler.schedule(super::Notified(unsafe { super::Task::from_raw(ptr) }));
}

unsafe fn dealloc<F: Future, S: Schedule>(ptr: NonNull<Header>) {
    // SAFETY: the vtable was built for `Cell<F, S>`.
    unsafe { Harness::<F, S>::from_raw(ptr) }.dealloc();
}

unsafe fn try_read_output<F: Future, S: Schedule>(
    ptr: NonNull<Header>,
    dst: *mut (),
    waker: &Waker,
) {
    // SAFETY: the caller passes the matching output slot.
    let out = unsafe { &mut *(dst as *mut Poll<Result<F::Output, super::JoinError>>) };
    // SAFETY: the vtable was built for `Cell<F, S>`.
    unsafe { Harness::<F, S>::from_raw(ptr) }.try_read_output(out, waker);
}

unsafe fn drop_join_handle_slow<F: Future, S: Schedule>(ptr: NonNull<Header>) {
    // SAFETY: the vtable was built for `Cell<F, S>`.
    unsafe { Harness::<F, S>::from_raw(ptr) }.drop_join_handle_slow();
}

unsafe fn shutdown<F: Future, S: Schedule>(ptr: NonNull<Header>) {
    // SAFETY: the vtable was built for `Cell<F, S>`.
    unsafe { Harness::<F, S>::from_raw(ptr) }.shutdown();
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::core::CACHE_PAIR;
    use super::*;

    /// At most one word in the cell, like the runtimes' `Arc` handles; pads
    /// its tasks when told to, as a multi-thread scheduler with several
    /// workers does.
    struct Sched {
        pads: bool,
    }
    impl Schedule for Sched {
        fn release(&self, _: &super::super::Task<Self>) -> Option<super::super::Task<Self>> {
            None
        }
        fn schedule(&self, _: super::super::Notified<Self>) {}
        fn pads_tasks(&self) -> bool {
            self.pads
        }
    }

    /// A future holding an `Arc` and two more words, as a task that spawns
    /// the next link of a chain does.
    struct ThreeWords([usize; 3]);
    impl Future for ThreeWords {
        type Output = usize;
        fn poll(self: std::pin::Pin<&mut Self>, _: &mut std::task::Context<'_>) -> Poll<usize> {
            Poll::Ready(self.0.iter().sum())
        }
    }

    #[test]
    fn header_fits_one_cache_line() {
        assert!(std::mem::size_of::<Header>() <= 64);
    }

    /// The fields every poll and wake write lie in the header's first
    /// bytes, and a padded cell's neighbour starts `CACHE_PAIR` bytes on at
    /// least: two neighbours' such fields are then more than a 64-byte line
    /// apart, wherever the allocator puts them (see `core.rs`).
    #[test]
    fn what_a_poll_writes_lies_a_line_away_from_a_padded_neighbour() {
        use std::mem::{offset_of, size_of};
        const WRITTEN_BYTES: usize = 48;
        let ends = [
            offset_of!(Header, state) + size_of::<State>(),
            offset_of!(Header, queue_next) + size_of::<Option<NonNull<Header>>>(),
            offset_of!(Header, polls) + size_of::<u32>(),
            offset_of!(Header, last_poll) + size_of::<u32>(),
        ];
        assert!(ends.iter().all(|&end| end <= WRITTEN_BYTES), "{ends:?}");
        const { assert!(CACHE_PAIR - WRITTEN_BYTES > 64) };
    }

    #[test]
    fn a_padded_task_with_a_three_word_future_takes_one_cache_pair() {
        type Small = Cell<std::future::Ready<()>, Sched>;
        type Chained = Cell<ThreeWords, Sched>;
        for layout in [Small::layout(true), Chained::layout(true)] {
            assert_eq!(layout.size(), CACHE_PAIR);
            // Not over-aligned: glibc's aligned path is slow (`core.rs`).
            assert_eq!(layout.align(), std::mem::align_of::<usize>());
        }
    }

    #[test]
    fn an_unpadded_task_takes_its_natural_layout() {
        type Chained = Cell<ThreeWords, Sched>;
        let natural = Chained::layout(false);
        assert_eq!(natural, std::alloc::Layout::new::<Chained>());
        assert_eq!(natural.align(), std::mem::align_of::<usize>());
        assert!(natural.size() <= CACHE_PAIR, "{natural:?}");
    }

    #[test]
    fn cells_are_allocated_and_freed_with_their_schedulers_layout() {
        for pads in [false, true] {
            let scheduler = Sched { pads };
            let origin = Origin::new(std::panic::Location::caller(), None);
            let header = Cell::allocate(
                ThreeWords([1, 2, 3]),
                scheduler,
                Id::next(),
                vtable::<ThreeWords, Sched>(),
                origin,
            );
            // SAFETY: fresh from `allocate`; nothing else refers to it.
            unsafe { Cell::free(header.cast::<Cell<ThreeWords, Sched>>()) };
        }
    }
}
