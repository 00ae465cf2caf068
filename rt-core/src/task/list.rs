//! The owned-task list: every live task of a scheduler, so that shutdown can
//! cancel and drop each future exactly once.
//!
//! The list is sharded by task id, each shard an intrusive list under its own
//! lock, so that spawning and completing on different workers rarely touch
//! the same lock. `closed` is set before the shards are drained and read
//! under each shard's lock when binding, so no task slips in after shutdown.

use super::core::{Header, Trailer};
use super::{new_task, JoinHandle, LocalNotified, Notified, Origin, Schedule, Task};
use crate::loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use crate::loom::sync::Mutex;
use crate::util::linked_list::{Link, LinkedList, Pointers};
use std::future::Future;
use std::marker::PhantomData;
use std::num::NonZeroU64;
use std::ptr::NonNull;

/// The live tasks of one scheduler.
pub(crate) struct OwnedTasks<S: 'static> {
    shards: Box<[Mutex<LinkedList<OwnedLink<S>>>]>,
    mask: usize,
    id: NonZeroU64,
    closed: AtomicBool,
    count: AtomicUsize,
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
            shards: (0..shards).map(|_| Mutex::new(LinkedList::new())).collect(),
            mask: shards - 1,
            id: next_owner_id(),
            closed: AtomicBool::new(false),
            count: AtomicUsize::new(0),
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
        let shard = self.shard(&task);
        let mut list = shard.lock().unwrap_or_else(|e| e.into_inner());
        if self.closed.load(Ordering::Acquire) {
            drop(list);
            task.shutdown();
            drop(notified);
            return None;
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        list.push_front(task);
        Some(notified)
    }

    fn shard(&self, task: &Task<S>) -> &Mutex<LinkedList<OwnedLink<S>>> {
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
        let mut list = self.shard(task).lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: the task is live (the caller holds a reference) and is in
        // this list or in none.
        let removed = unsafe { list.remove(task.header_ptr()) };
        if removed.is_some() {
            self.count.fetch_sub(1, Ordering::Relaxed);
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
                let task = shard.lock().unwrap_or_else(|e| e.into_inner()).pop_back();
                match task {
                    Some(task) => {
                        self.count.fetch_sub(1, Ordering::Relaxed);
                        task.shutdown();
                    }
                    None => break,
                }
            }
        }
    }

    /// Whether no task is bound.
    pub(crate) fn is_empty(&self) -> bool {
        self.count.load(Ordering::Acquire) == 0
    }

    /// Calls `f` with every live task, one shard at a time under that
    /// shard's lock (which keeps each task linked, so alive, during `f`).
    /// `f` must not spawn onto or release from this list.
    pub(crate) fn for_each(&self, mut f: impl FnMut(&Header)) {
        for shard in self.shards.iter() {
            let list = shard.lock().unwrap_or_else(|e| e.into_inner());
            list.for_each(|header| {
                // SAFETY: the list holds a reference to every linked task and
                // the shard lock keeps it linked for the duration of `f`.
                f(unsafe { header.as_ref() })
            });
        }
    }

    /// How many tasks are bound.
    pub(crate) fn len(&self) -> usize {
        self.count.load(Ordering::Relaxed)
    }
}
