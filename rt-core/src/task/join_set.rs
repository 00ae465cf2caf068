//! `JoinSet`: a collection of spawned tasks, joined in the order they
//! finish.
//!
//! The set owns one [`JoinHandle`] per task, kept in a slab. Each entry polls
//! its handle with a waker of its own; waking it pushes the entry's slot (and
//! the slot's generation, so that stale wakes of a reused slot are ignored)
//! onto a shared ready list and wakes whoever awaits the set. `join_next`
//! then polls only the entries on that list, so joining costs O(1)
//! amortised per finished task, however many tasks are still running.
//!
//! The ready list is a plain mutex-protected queue plus an
//! [`AtomicWaker`](crate::util::AtomicWaker): no new lock-free protocol.

use super::{coop, AbortHandle, Id, JoinError, JoinHandle, LocalSet};
use crate::loom::sync::Mutex;
use crate::runtime::Handle;
use crate::util::AtomicWaker;
use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
// `std`'s `Arc`: the entries' wakers (see `crate::loom`).
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

/// A set of tasks spawned on a runtime, awaited in completion order.
///
/// All tasks must have the same output type `T`. Dropping the set aborts
/// every task still in it; [`detach_all`](Self::detach_all) lets them run on
/// instead.
///
/// ```
/// use rt_core::task::JoinSet;
///
/// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// rt.block_on(async {
///     let mut set = JoinSet::new();
///     for i in 0..10u32 {
///         set.spawn(async move { i * 2 });
///     }
///     let mut total = 0;
///     while let Some(res) = set.join_next().await {
///         total += res.unwrap();
///     }
///     assert_eq!(total, 90);
///     assert!(set.is_empty());
/// });
/// ```
pub struct JoinSet<T> {
    /// One slot per task ever inserted; empty slots are reused.
    slots: Vec<Slot<T>>,
    /// Indices of empty slots.
    free: Vec<usize>,
    /// Number of occupied slots.
    len: usize,
    /// Ready entries already moved out of the shared list. Kept in the set,
    /// not in a `join_next` future, so that dropping that future loses
    /// nothing.
    ready: VecDeque<ReadyEntry>,
    shared: Arc<Shared>,
    /// Handle polls made so far, for the tests that check the joining cost.
    #[cfg(test)]
    handle_polls: usize,
}

struct Slot<T> {
    /// Bumped each time the slot is emptied, so that wakes meant for an
    /// earlier occupant are recognised and skipped.
    generation: u64,
    entry: Option<Entry<T>>,
}

struct Entry<T> {
    handle: JoinHandle<T>,
    waker: Waker,
}

#[derive(Clone, Copy)]
struct ReadyEntry {
    index: usize,
    generation: u64,
}

/// What entry wakers share with the set.
struct Shared {
    ready: Mutex<VecDeque<ReadyEntry>>,
    /// The task awaiting `join_next`.
    waker: AtomicWaker,
}

/// The waker an entry polls its `JoinHandle` with.
struct EntryWaker {
    shared: Arc<Shared>,
    entry: ReadyEntry,
}

impl Wake for EntryWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.shared.push_ready(self.entry);
        self.shared.waker.wake();
    }
}

impl Shared {
    fn push_ready(&self, entry: ReadyEntry) {
        self.ready
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_back(entry);
    }
}

impl<T> JoinSet<T> {
    /// An empty set.
    pub fn new() -> JoinSet<T> {
        JoinSet {
            slots: Vec::new(),
            free: Vec::new(),
            len: 0,
            ready: VecDeque::new(),
            shared: Arc::new(Shared {
                ready: Mutex::new(VecDeque::new()),
                waker: AtomicWaker::new(),
            }),
            #[cfg(test)]
            handle_polls: 0,
        }
    }

    /// Number of tasks in the set (finished ones count until joined).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set holds no task.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a task's handle; returns an [`AbortHandle`] for it.
    fn insert(&mut self, handle: JoinHandle<T>) -> AbortHandle {
        let abort = handle.abort_handle();
        let index = match self.free.pop() {
            Some(index) => index,
            None => {
                self.slots.push(Slot {
                    generation: 0,
                    entry: None,
                });
                self.slots.len() - 1
            }
        };
        let slot = &mut self.slots[index];
        let ready = ReadyEntry {
            index,
            generation: slot.generation,
        };
        let waker = Waker::from(Arc::new(EntryWaker {
            shared: self.shared.clone(),
            entry: ready,
        }));
        slot.entry = Some(Entry { handle, waker });
        self.len += 1;
        // New entries start on the ready list: their handle has never been
        // polled, so no waker is registered with the task yet.
        self.ready.push_back(ready);
        abort
    }

    /// Spawns `task` on the current runtime and adds it to the set.
    ///
    /// # Panics
    ///
    /// Outside a runtime's context.
    #[track_caller]
    pub fn spawn<F>(&mut self, task: F) -> AbortHandle
    where
        F: Future<Output = T> + Send + 'static,
        T: Send + 'static,
    {
        self.insert(super::spawn(task))
    }

    /// Spawns `task` on the runtime of `handle` and adds it to the set.
    #[track_caller]
    pub fn spawn_on<F>(&mut self, task: F, handle: &Handle) -> AbortHandle
    where
        F: Future<Output = T> + Send + 'static,
        T: Send + 'static,
    {
        self.insert(handle.spawn(task))
    }

    /// Spawns the `!Send` future `task` on the current `LocalSet` (or
    /// `LocalRuntime`) and adds it to the set.
    ///
    /// ```
    /// use rt_core::task::{JoinSet, LocalSet};
    ///
    /// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
    /// LocalSet::new().block_on(&rt, async {
    ///     let mut set = JoinSet::new();
    ///     let shared = std::rc::Rc::new(4);
    ///     set.spawn_local(async move { *shared });
    ///     assert_eq!(set.join_next().await.unwrap().unwrap(), 4);
    /// });
    /// ```
    ///
    /// # Panics
    ///
    /// Outside a `LocalSet` or `LocalRuntime`, as `task::spawn_local` does.
    #[track_caller]
    pub fn spawn_local<F>(&mut self, task: F) -> AbortHandle
    where
        F: Future<Output = T> + 'static,
        T: 'static,
    {
        self.insert(super::spawn_local(task))
    }

    /// Spawns the `!Send` future `task` on `local_set` and adds it to the
    /// set. It runs when the `LocalSet` is next driven.
    #[track_caller]
    pub fn spawn_local_on<F>(&mut self, task: F, local_set: &LocalSet) -> AbortHandle
    where
        F: Future<Output = T> + 'static,
        T: 'static,
    {
        self.insert(local_set.spawn_local(task))
    }

    /// Runs `f` on the current runtime's blocking pool and adds it to the
    /// set. Aborting it has no effect once the closure started.
    ///
    /// # Panics
    ///
    /// Outside a runtime's context.
    #[track_caller]
    pub fn spawn_blocking<F>(&mut self, f: F) -> AbortHandle
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.insert(super::spawn_blocking(f))
    }

    /// Runs `f` on the blocking pool of `handle`'s runtime and adds it to
    /// the set.
    #[track_caller]
    pub fn spawn_blocking_on<F>(&mut self, f: F, handle: &Handle) -> AbortHandle
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.insert(handle.spawn_blocking(f))
    }

    /// Waits for one of the tasks to finish and returns its output, or
    /// `None` when the set is empty.
    ///
    /// # Cancel safety
    ///
    /// This method is cancel safe: an output is taken out of a task only in
    /// the same poll that returns it, so if the future is dropped before it
    /// completes (say in a `select!`), no output is lost and the task stays
    /// in the set for the next call.
    pub async fn join_next(&mut self) -> Option<Result<T, JoinError>> {
        std::future::poll_fn(|cx| self.poll_join_next(cx)).await
    }

    /// Like [`join_next`](Self::join_next), also returning the id of the
    /// task that finished (on success as well as in the error).
    ///
    /// # Cancel safety
    ///
    /// Cancel safe, as `join_next`.
    pub async fn join_next_with_id(&mut self) -> Option<Result<(Id, T), JoinError>> {
        std::future::poll_fn(|cx| self.poll_join_next_with_id(cx)).await
    }

    /// Polls for one finished task: `Ready(None)` when the set is empty,
    /// `Pending` (with `cx` woken later) while no task has finished.
    pub fn poll_join_next(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<T, JoinError>>> {
        self.poll_join_next_with_id(cx)
            .map(|res| res.map(|res| res.map(|(_, output)| output)))
    }

    /// Like [`poll_join_next`](Self::poll_join_next), with the task's id.
    pub fn poll_join_next_with_id(
        &mut self,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<(Id, T), JoinError>>> {
        std::task::ready!(super::trace::trace_leaf());
        if self.len == 0 {
            return Poll::Ready(None);
        }
        // Out of budget: every handle would refuse anyway.
        std::task::ready!(coop::poll_budget_available(cx));
        // Register first, so that a wake arriving while we scan the ready
        // list is not lost.
        self.shared.waker.register_by_ref(cx.waker());
        match self.poll_ready_entries() {
            Some(res) => Poll::Ready(Some(res)),
            None => Poll::Pending,
        }
    }

    /// Returns the output of a task that has already finished, without
    /// waiting; `None` if no task has finished (or the set is empty).
    pub fn try_join_next(&mut self) -> Option<Result<T, JoinError>> {
        self.try_join_next_with_id()
            .map(|res| res.map(|(_, output)| output))
    }

    /// Like [`try_join_next`](Self::try_join_next), with the task's id.
    pub fn try_join_next_with_id(&mut self) -> Option<Result<(Id, T), JoinError>> {
        if self.len == 0 {
            return None;
        }
        // Not async, so it cannot yield: a spent budget would only hide
        // finished tasks. Checked without one, as tokio's does.
        coop::with_budget_value(None, || self.poll_ready_entries())
    }

    /// Polls the entries that were woken since the last call, at most as
    /// many as were queued when the call began: an entry that wakes itself
    /// while polled (a spent coop budget) is retried on the next call
    /// rather than looped on.
    fn poll_ready_entries(&mut self) -> Option<Result<(Id, T), JoinError>> {
        {
            // Every wake that happened before this point is in the snapshot;
            // later ones wake the registered waker. Each entry is moved once,
            // so taking the shared list costs O(1) amortised per wake.
            let mut shared = self.shared.ready.lock().unwrap_or_else(|e| e.into_inner());
            if self.ready.is_empty() {
                std::mem::swap(&mut *shared, &mut self.ready);
            } else {
                self.ready.append(&mut shared);
            }
        }
        let mut remaining = self.ready.len();
        while remaining > 0 {
            remaining -= 1;
            let Some(ready) = self.ready.pop_front() else {
                break;
            };
            let Some(slot) = self.slots.get_mut(ready.index) else {
                continue;
            };
            if slot.generation != ready.generation {
                continue;
            }
            let Some(entry) = slot.entry.as_mut() else {
                continue;
            };
            #[cfg(test)]
            {
                self.handle_polls += 1;
            }
            let mut cx = Context::from_waker(&entry.waker);
            let Poll::Ready(res) = Pin::new(&mut entry.handle).poll(&mut cx) else {
                if !coop::has_budget_remaining() {
                    break;
                }
                continue;
            };
            let entry = self.remove(ready.index);
            let id = entry.handle.id();
            return Some(res.map(|output| (id, output)));
        }
        None
    }

    /// Empties an occupied slot and returns its entry.
    fn remove(&mut self, index: usize) -> Entry<T> {
        let slot = &mut self.slots[index];
        let entry = slot.entry.take().expect("removing an empty JoinSet slot");
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(index);
        self.len -= 1;
        entry
    }

    /// Aborts every task in the set; they stay in it until joined, and
    /// those that had not finished yield a cancelled [`JoinError`].
    pub fn abort_all(&mut self) {
        for slot in &self.slots {
            if let Some(entry) = &slot.entry {
                entry.handle.abort();
            }
        }
    }

    /// Removes every task from the set without aborting them: they keep
    /// running in the background.
    pub fn detach_all(&mut self) {
        for index in 0..self.slots.len() {
            if self.slots[index].entry.is_some() {
                drop(self.remove(index));
            }
        }
        self.ready.clear();
        self.shared
            .ready
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// Aborts every task and waits for all of them to finish, discarding
    /// their outputs; the set is then empty.
    pub async fn shutdown(&mut self) {
        self.abort_all();
        while self.join_next().await.is_some() {}
    }

    /// Waits for every task and returns their outputs in completion order.
    ///
    /// # Panics
    ///
    /// If a task panicked, its panic is resumed here (after the remaining
    /// tasks are aborted by dropping the set); if a task was cancelled,
    /// this panics with the [`JoinError`]'s message.
    ///
    /// ```
    /// use rt_core::task::JoinSet;
    ///
    /// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
    /// let mut out = rt.block_on(async {
    ///     let mut set = JoinSet::new();
    ///     for i in 0..4u8 {
    ///         set.spawn(async move { i });
    ///     }
    ///     set.join_all().await
    /// });
    /// out.sort();
    /// assert_eq!(out, [0, 1, 2, 3]);
    /// ```
    pub async fn join_all(mut self) -> Vec<T> {
        let mut outputs = Vec::with_capacity(self.len);
        while let Some(res) = self.join_next().await {
            match res {
                Ok(output) => outputs.push(output),
                Err(err) if err.is_panic() => {
                    drop(self);
                    std::panic::resume_unwind(err.into_panic());
                }
                Err(err) => panic!("{err}"),
            }
        }
        outputs
    }
}

impl<T> Default for JoinSet<T> {
    fn default() -> JoinSet<T> {
        JoinSet::new()
    }
}

impl<T> Drop for JoinSet<T> {
    fn drop(&mut self) {
        self.abort_all();
        // Entry wakers may outlive the set (a blocking task still running);
        // do not let them keep the awaiting task's waker alive meanwhile.
        drop(self.shared.waker.take_waker());
    }
}

impl<T> fmt::Debug for JoinSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JoinSet").field("len", &self.len).finish()
    }
}

impl<T, F> Extend<F> for JoinSet<T>
where
    F: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    /// Spawns each future on the current runtime.
    ///
    /// # Panics
    ///
    /// Outside a runtime's context.
    fn extend<I: IntoIterator<Item = F>>(&mut self, iter: I) {
        for future in iter {
            self.spawn(future);
        }
    }
}

impl<T, F> FromIterator<F> for JoinSet<T>
where
    F: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    /// Spawns each future on the current runtime.
    ///
    /// # Panics
    ///
    /// Outside a runtime's context.
    fn from_iter<I: IntoIterator<Item = F>>(iter: I) -> JoinSet<T> {
        let mut set = JoinSet::new();
        set.extend(iter);
        set
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::runtime::Builder;

    #[test]
    fn joining_polls_only_woken_entries() {
        let rt = Builder::new_current_thread().build().unwrap();
        rt.block_on(async {
            // Fewer under Miri, which interprets each spawn.
            let idle = if cfg!(miri) { 100 } else { 1000 };
            let mut set = JoinSet::new();
            for _ in 0..idle {
                set.spawn(std::future::pending::<u32>());
            }
            // The first call polls every new entry once, and finds none done.
            assert!(set.try_join_next().is_none());
            assert_eq!(set.handle_polls, idle);

            for round in 0..10u32 {
                set.spawn(async move {
                    crate::task::yield_now().await;
                    round
                });
                let before = set.handle_polls;
                assert_eq!(set.join_next().await.unwrap().unwrap(), round);
                // The new entry once on insertion, once when it finished.
                assert!(
                    set.handle_polls - before <= 2,
                    "{}",
                    set.handle_polls - before
                );
            }
            assert_eq!(set.len(), idle);
        });
    }

    #[test]
    fn stale_wakes_of_a_reused_slot_are_skipped() {
        let rt = Builder::new_current_thread().build().unwrap();
        rt.block_on(async {
            let mut set = JoinSet::new();
            set.spawn(async { 1 });
            assert_eq!(set.join_next().await.unwrap().unwrap(), 1);
            // Slot 0 now has generation 1; a wake for generation 0 is stale.
            set.shared.push_ready(ReadyEntry {
                index: 0,
                generation: 0,
            });
            set.spawn(std::future::pending::<u32>());
            let before = set.handle_polls;
            assert!(set.try_join_next().is_none());
            assert_eq!(
                set.handle_polls - before,
                1,
                "only the live entry is polled"
            );
        });
    }
}
