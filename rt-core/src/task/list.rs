//! The owned-task list: every live task of a scheduler, so that shutdown can
//! cancel and drop each future exactly once.
//!
//! The list is sharded by task id, each shard an intrusive list under its own
//! lock, so that spawning and completing on different workers rarely touch
//! the same lock. `closed` is set before the shards are drained and read
//! under each shard's lock when binding, so no task slips in after shutdown.
//!
//! Nothing else is shared between the shards: each lies on its own cache
//! lines and counts its own tasks. Consecutive ids fall in consecutive
//! shards, so with shards packed together (two or three to a line) and
//! one count for all, a thread spawning onto busy workers and the workers
//! completing the tasks it spawned moved the same lines between their
//! CPUs on every task, though they took different locks.

use super::core::{Header, Trailer};
use super::dump::Held;
use super::{new_task, JoinHandle, LocalNotified, Notified, Origin, Schedule, Task};
use crate::loom::sync::atomic::{AtomicBool, Ordering};
use crate::loom::sync::Mutex;
use crate::util::linked_list::{Link, LinkedList, Pointers};
use std::future::Future;
use std::marker::PhantomData;
use std::num::NonZeroU64;
use std::ptr::NonNull;

/// The live tasks of one scheduler.
pub(crate) struct OwnedTasks<S: 'static> {
    shards: Box<[Shard<S>]>,
    mask: usize,
    id: NonZeroU64,
    closed: AtomicBool,
}

/// One shard, aligned to two cache lines (the pair that x86 prefetches
/// together) so that no other shard's lock shares them.
#[repr(align(128))]
struct Shard<S: 'static> {
    tasks: Mutex<ShardTasks<S>>,
}

/// A shard's tasks and how many there are.
struct ShardTasks<S: 'static> {
    list: LinkedList<OwnedLink<S>>,
    len: usize,
}

impl<S: 'static> Shard<S> {
    fn new() -> Shard<S> {
        Shard {
            tasks: Mutex::new(ShardTasks {
                list: LinkedList::new(),
                len: 0,
            }),
        }
    }

    /// Locks the shard. A panic never leaves the list half-linked (the
    /// list's steps do not call out), so a poisoned lock is taken as is.
    fn lock(&self) -> crate::loom::sync::MutexGuard<'_, ShardTasks<S>> {
        self.tasks.lock().unwrap_or_else(|e| e.into_inner())
    }
}

pub(crate) struct OwnedLink<S>(PhantomData<S>);

// SAFETY: a task is linked by its trailer's `owned` pointers, which live as
// long as the cell; the list holds the `Task` reference while linked.
unsafe impl<S: 'static> Link for OwnedLink<S> {
    type Handle = Task<S>;
    type Target = Header;

    fn as_raw(task: &Task<S>) -> NonNull<Header> {
        task.header_ptr()
    }

    unsafe fn from_raw(ptr: NonNull<Header>) -> Task<S> {
        // SAFETY: the pointer came from `as_raw` of a Task the list owned.
        unsafe { Task::from_raw(ptr) }
    }

    unsafe fn pointers(target: NonNull<Header>) -> NonNull<Pointers<Header>> {
        // SAFETY: `target` is live; the trailer outlives the link.
        unsafe {
            let trailer: NonNull<Trailer> = Header::trailer(target);
            NonNull::from(&trailer.as_ref().owned)
        }
    }
}

fn next_owner_id() -> NonZeroU64 {
    static NEXT: crate::loom::counter::Counter = crate::loom::counter::Counter::new(1);
    NonZeroU64::new(NEXT.next()).expect("owner ids exhausted")
}

impl<S: Schedule> OwnedTasks<S> {
    /// A list with at least `shards` shards (rounded up to a power of two).
    pub(crate) fn new(shards: usize) -> OwnedTasks<S> {
        let shards = shards.max(1).next_power_of_two();
        OwnedTasks {
            shards: (0..shards).map(|_| Shard::new()).collect(),
            mask: shards - 1,
            id: next_owner_id(),
            closed: AtomicBool::new(false),
        }
    }

    /// Creates a task owned by this list. Returns its `JoinHandle` and, unless
    /// the list is closed (then the task is cancelled at once), the
    /// `Notified` to queue. `origin` holds where the user spawned it (taken
    /// by the spawning function: `#[track_caller]` does not cross closures)
    /// and the task's name.
    pub(crate) fn bind<F>(
        &self,
        future: F,
        scheduler: S,
        id: super::Id,
        origin: Origin,
    ) -> (JoinHandle<F::Output>, Option<Notified<S>>)
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let (task, notified, join) = new_task(future, scheduler, id, origin);
        // SAFETY: the future is Send, so the task may run on any thread.
        let notified = unsafe { self.bind_inner(task, notified) };
        (join, notified)
    }

    /// As `bind`, for a future that is not `Send`.
    ///
    /// # Safety
    ///
    /// The tasks of this list must only be polled, cancelled and dropped on
    /// the thread that owns the list (the `LocalSet` rule).
    pub(crate) unsafe fn bind_local<F>(
        &self,
        future: F,
        scheduler: S,
        id: super::Id,
        origin: Origin,
    ) -> (JoinHandle<F::Output>, Option<Notified<S>>)
    where
        F: Future + 'static,
        F::Output: 'static,
    {
        let (task, notified, join) = new_task(future, scheduler, id, origin);
        // SAFETY: forwarded to the caller.
        let notified = unsafe { self.bind_inner(task, notified) };
        (join, notified)
    }

    /// # Safety
    ///
    /// The task may be touched from whichever thread the list's users run.
    unsafe fn bind_inner(&self, task: Task<S>, notified: Notified<S>) -> Option<Notified<S>> {
        // SAFETY: the task is not shared yet.
        unsafe { task.header().set_owner_id(self.id) };
        let mut shard = self.shard(&task).lock();
        if self.closed.load(Ordering::Acquire) {
            drop(shard);
            task.shutdown();
            drop(notified);
            return None;
        }
        shard.len += 1;
        shard.list.push_front(task);
        Some(notified)
    }

    fn shard(&self, task: &Task<S>) -> &Shard<S> {
        &self.shards[(task.id().as_u64() as usize) & self.mask]
    }

    /// Confirms that `notified` belongs to this list, which makes it safe to
    /// run on the list's thread(s).
    pub(crate) fn assert_owner(&self, notified: Notified<S>) -> LocalNotified<S> {
        assert_eq!(
            notified.0.header().owner_id(),
            Some(self.id),
            "task run by a scheduler that does not own it"
        );
        LocalNotified {
            task: notified.0,
            _not_send: PhantomData,
        }
    }

    /// Unlinks a completed task; returns the list's reference.
    pub(crate) fn remove(&self, task: &Task<S>) -> Option<Task<S>> {
        let owner = task.header().owner_id()?;
        assert_eq!(
            owner, self.id,
            "task released to a list that does not own it"
        );
        let mut shard = self.shard(task).lock();
        // SAFETY: the task is live (the caller holds a reference) and is in
        // this list or in none.
        let removed = unsafe { shard.list.remove(task.header_ptr()) };
        if removed.is_some() {
            shard.len -= 1;
        }
        removed
    }

    /// Closes the list and cancels every task in it. Tasks running on other
    /// threads are marked cancelled and finish on their own.
    pub(crate) fn close_and_shutdown_all(&self) {
        self.closed.store(true, Ordering::Release);
        for shard in self.shards.iter() {
            loop {
                // Take one task at a time and cancel it with the lock
                // released: a future's destructor may spawn or release.
                let task = {
                    let mut shard = shard.lock();
                    let task = shard.list.pop_back();
                    if task.is_some() {
                        shard.len -= 1;
                    }
                    task
                };
                match task {
                    Some(task) => task.shutdown(),
                    None => break,
                }
            }
        }
    }

    /// Whether no task is bound.
    pub(crate) fn is_empty(&self) -> bool {
        self.shards.iter().all(|shard| shard.lock().len == 0)
    }

    /// Takes a reference to every live task, one shard at a time under
    /// that shard's lock (which keeps each task linked, so alive, until
    /// its reference is taken), for a dump to read and trace-poll with
    /// the locks released.
    pub(crate) fn hold_all(&self) -> Vec<Held> {
        let mut held = Vec::with_capacity(self.len());
        for shard in self.shards.iter() {
            let shard = shard.lock();
            shard.list.for_each(|task| {
                // SAFETY: `task` is the cell pointer the list was given (a
                // `Task`'s, from the allocation), and the shard lock keeps
                // the task linked, so alive, while the reference is taken.
                held.push(unsafe { Held::new(task) })
            });
        }
        held
    }

    /// How many tasks are bound, summed one shard at a time (so, with
    /// tasks spawned and completing meanwhile, a figure that was true at no
    /// one instant, as any count read without stopping the runtime is).
    pub(crate) fn len(&self) -> usize {
        self.shards.iter().map(|shard| shard.lock().len).sum()
    }
}
