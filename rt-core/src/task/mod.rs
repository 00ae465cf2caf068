//! Tasks: the unit the schedulers run, and the handles that reach them.
//!
//! # Ownership rules
//!
//! A task is one allocation (see `core.rs`) shared by several handles, each
//! holding one reference in the state word's count:
//!
//! * `Task`: the owned-task list's reference. The list keeps the task alive
//!   until it completes or shutdown cancels it.
//! * `Notified`: a task in a run queue. At most one exists at a time: it is
//!   created by whoever sets `NOTIFIED` on an idle task.
//! * `JoinHandle`: may read the output; `JOIN_INTEREST` says it exists.
//! * `AbortHandle` and every `Waker`: one reference each.
//!
//! Who may touch what:
//!
//! * The future (the stage while `Running`) belongs to whoever set `RUNNING`:
//!   a worker polling it, or shutdown cancelling it. Nobody else reads it.
//! * After `COMPLETE`, the output belongs to the `JoinHandle` if
//!   `JOIN_INTEREST` is set, otherwise the completing thread drops it.
//! * The join waker slot follows the `JOIN_WAKER` protocol in `state.rs`.
//! * `queue_next` belongs to the run queue holding the `Notified`; the
//!   owned-list links to the list, under its shard lock.
//! * The header's poll counter and last-poll time are written only by the
//!   holder of `RUNNING` (relaxed load and store) and read by task dumps
//!   under the owned-list shard lock; the name and spawn location never
//!   change after spawn.
//!
//! The last reference to go frees the cell, whoever holds it.
//!
//! Only [`coop`] exists without the `rt` feature: resources spend the
//! budget whether or not this build can run a runtime.

pub mod coop;
pub mod trace;

cfg_rt! {
    mod abort;
    mod builder;
    mod core;
    pub(crate) mod dump;
    mod error;
    mod harness;
    mod id;
    mod join;
    mod join_set;
    pub(crate) mod list;
    mod local;
    mod origin;
    mod raw;
    mod spawn;
    mod state;
    mod task_local;
    mod waker;

    pub use abort::AbortHandle;
    pub use builder::Builder;
    pub use coop::{consume_budget, unconstrained, Unconstrained};
    pub use dump::{Dump, TaskInfo, TaskState};
    pub use trace::{Frame, Trace};
    pub use error::JoinError;
    pub use id::{id, try_id, Id};
    pub use join::JoinHandle;
    pub use join_set::JoinSet;
    pub use local::{spawn_local, LocalEnterGuard, LocalSet};
    pub use spawn::{spawn, spawn_blocking, yield_now};
    #[cfg(feature = "rt-multi-thread")]
    pub use spawn::block_in_place;
    pub use task_local::{futures, AccessError, LocalKey, TaskLocalFuture};

    pub(crate) use self::core::Header;
    pub(crate) use self::origin::Origin;
    use raw::RawTask;
    use std::any::Any;
    use std::future::Future;
    use std::marker::PhantomData;
    use std::mem::ManuallyDrop;
    use std::panic::Location;
    use std::ptr::NonNull;

    /// A scheduler, as a task sees it.
    pub(crate) trait Schedule: Sync + Sized + 'static {
        /// The task completed: unlink it from the owned list and return the
        /// list's reference (if it was still linked).
        fn release(&self, task: &Task<Self>) -> Option<Task<Self>>;

        /// Queue a task that was woken.
        fn schedule(&self, task: Notified<Self>);

        /// Queue a task that woke itself during its own poll; schedulers may put
        /// it behind other work so that it cannot hog a worker.
        fn yield_now(&self, task: Notified<Self>) {
            self.schedule(task);
        }

        /// Task `id` panicked with `payload` (caught; the payload then goes to
        /// the task's output).
        fn unhandled_panic(&self, id: Id, payload: &(dyn Any + Send)) {
            let _ = (id, payload);
        }

        /// Whether several threads of this scheduler may poll its tasks at
        /// the same time, so that each task cell is padded to a multiple of
        /// `CACHE_PAIR` bytes: two workers polling neighbouring tasks then
        /// do not write to one cache line (`core.rs` says why padding the
        /// size is enough). With one polling thread there is nobody to
        /// share a line with, and the cell takes its natural size. The
        /// answer must not change over the scheduler's life: the cell is
        /// freed with the layout it was allocated with.
        fn pads_tasks(&self) -> bool {
            false
        }

        /// Whether polls of this scheduler's tasks are timed (slow-poll
        /// detection or the poll-time histogram is on). Off, a poll costs one
        /// counter increment and no clock reads.
        fn measures_polls(&self) -> bool {
            false
        }

        /// A timed poll ended (only called when `measures_polls` said so).
        fn after_poll(&self, poll: &crate::runtime::SlowPoll<'_>) {
            let _ = poll;
        }
    }

    /// The owned-list's reference to a task.
    pub(crate) struct Task<S: 'static> {
        raw: RawTask,
        _scheduler: PhantomData<S>,
    }

    /// A task in a run queue, ready to be polled.
    pub(crate) struct Notified<S: 'static>(Task<S>);

    /// A `Notified` checked to belong to the current thread's scheduler.
    pub(crate) struct LocalNotified<S: 'static> {
        task: Task<S>,
        _not_send: PhantomData<*const ()>,
    }

    /// A task that is in no owned list (blocking tasks): it holds both the
    /// `Task` and the `Notified` references.
    pub(crate) struct UnownedTask<S: 'static> {
        raw: RawTask,
        _scheduler: PhantomData<S>,
    }

    // SAFETY: tasks whose futures are not Send only enter lists through
    // `OwnedTasks::bind_local`, whose contract keeps them on one thread.
    unsafe impl<S> Send for Task<S> {}
    // SAFETY: as above.
    unsafe impl<S> Sync for Task<S> {}
    // SAFETY: as above.
    unsafe impl<S> Send for Notified<S> {}
    // SAFETY: as above.
    unsafe impl<S> Sync for Notified<S> {}
    // SAFETY: unowned tasks are built only from `Send` futures.
    unsafe impl<S> Send for UnownedTask<S> {}
    // SAFETY: as above.
    unsafe impl<S> Sync for UnownedTask<S> {}

    /// Allocates a task; the caller binds the `Task` to an owned list.
    fn new_task<F, S>(
        future: F,
        scheduler: S,
        id: Id,
        origin: Origin,
    ) -> (Task<S>, Notified<S>, JoinHandle<F::Output>)
    where
        F: Future + 'static,
        S: Schedule,
    {
        let raw = RawTask::new(future, scheduler, id, origin);
        let task = Task {
            raw,
            _scheduler: PhantomData,
        };
        let notified = Notified(Task {
            raw,
            _scheduler: PhantomData,
        });
        (task, notified, JoinHandle::new(raw))
    }

    /// Allocates a task that no owned list tracks (used by the blocking pool).
    #[track_caller]
    pub(crate) fn unowned<F, S>(
        future: F,
        scheduler: S,
        id: Id,
    ) -> (UnownedTask<S>, JoinHandle<F::Output>)
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
        S: Schedule,
    {
        let origin = Origin::new(Location::caller(), None);
        let (task, notified, join) = new_task(future, scheduler, id, origin);
        let unowned = UnownedTask {
            raw: task.raw,
            _scheduler: PhantomData,
        };
        std::mem::forget(task);
        std::mem::forget(notified);
        (unowned, join)
    }

    impl<S: 'static> Task<S> {
        /// # Safety
        ///
        /// `ptr` must be a live task header and the caller hands over one
        /// reference to the new `Task`.
        pub(crate) unsafe fn from_raw(ptr: NonNull<Header>) -> Task<S> {
            Task {
                // SAFETY: per the caller's contract.
                raw: unsafe { RawTask::from_raw(ptr) },
                _scheduler: PhantomData,
            }
        }

        pub(crate) fn header(&self) -> &Header {
            self.raw.header()
        }

        pub(crate) fn header_ptr(&self) -> NonNull<Header> {
            self.raw.header_ptr()
        }

        pub(crate) fn id(&self) -> Id {
            self.raw.id()
        }

        /// Cancels the task (owner's shutdown), consuming this reference.
        pub(crate) fn shutdown(self) {
            let me = ManuallyDrop::new(self);
            me.raw.shutdown();
        }
    }

    impl<S: 'static> Notified<S> {
        /// Hands the reference over as a raw pointer (for intrusive queues).
        pub(crate) fn into_raw(self) -> NonNull<Header> {
            let me = ManuallyDrop::new(self);
            me.0.header_ptr()
        }

        /// # Safety
        ///
        /// `ptr` must come from `into_raw` of a `Notified<S>`.
        pub(crate) unsafe fn from_raw(ptr: NonNull<Header>) -> Notified<S> {
            // SAFETY: per the caller's contract.
            Notified(unsafe { Task::from_raw(ptr) })
        }
    }

    impl<S: 'static> LocalNotified<S> {
        /// Polls the task, consuming the reference.
        pub(crate) fn run(self) {
            let me = ManuallyDrop::new(self);
            me.task.raw.poll();
        }
    }

    impl<S: Schedule> UnownedTask<S> {
        /// Runs the task to its next pause (a blocking task: to completion).
        pub(crate) fn run(self) {
            let me = ManuallyDrop::new(self);
            let raw = me.raw;
            // The poll consumes the Notified reference; we then drop the Task's.
            raw.poll();
            raw.drop_reference();
        }

        /// Cancels the task without running it.
        pub(crate) fn shutdown(self) {
            let me = ManuallyDrop::new(self);
            let raw = me.raw;
            raw.shutdown();
            raw.drop_reference();
        }
    }

    impl<S: 'static> Drop for Task<S> {
        fn drop(&mut self) {
            self.raw.drop_reference();
        }
    }

    impl<S: 'static> Drop for UnownedTask<S> {
        fn drop(&mut self) {
            if self.raw.state().ref_dec_twice() {
                self.raw.dealloc();
            }
        }
    }
}

#[cfg(all(test, loom, feature = "rt"))]
mod loom_models;
