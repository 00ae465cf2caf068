//! `LocalSet` and `spawn_local`: tasks that are not `Send` and so must stay
//! on the thread that created them.
//!
//! A `LocalSet` is itself driven by some other executor (usually
//! `block_on` on a current-thread runtime): each time it is polled, it runs
//! a batch of its tasks. Wakes on its own thread while the set is being
//! polled go to a plain local queue; wakes from anywhere else (other
//! threads, or the owner thread outside a poll, such as a timer firing in
//! the driver while a [`LocalSet::enter`] guard is held) go to a locked
//! remote queue and wake the `LocalSet`'s own waker.

use super::list::OwnedTasks;
use super::{coop, Id, JoinHandle, Notified, Origin, Schedule, Task};
use crate::loom::sync::Mutex;
use crate::loom::thread::{self, ThreadId};
use crate::runtime::context::disallow_block_in_place;
use crate::util::AtomicWaker;
use pin_project_lite::pin_project;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::rc::Rc;
// `std`'s `Arc`: the scheduler handle of the set's tasks (see `crate::loom`).
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};

/// Tasks run per poll of the set before it yields to its executor.
const MAX_TASKS_PER_TICK: usize = 61;
/// Every this many tasks, the remote queue is checked first so that wakes
/// from other threads are not starved by local ones.
const REMOTE_FIRST_INTERVAL: u8 = 31;

/// A set of tasks that all run on the current thread.
///
/// ```
/// use std::rc::Rc;
/// use rt_core::task::LocalSet;
///
/// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// let local = LocalSet::new();
/// let shared = Rc::new(5); // not Send
/// let out = local.block_on(&rt, async move {
///     let s = shared.clone();
///     rt_core::task::spawn_local(async move { *s * 2 }).await.unwrap()
/// });
/// assert_eq!(out, 10);
/// ```
pub struct LocalSet {
    tick: Cell<u8>,
    context: Rc<Context>,
    _not_send: PhantomData<*const ()>,
}

struct Context {
    shared: Arc<Shared>,
    /// Tasks woken on the owner thread inside the set's context.
    queue: RefCell<VecDeque<Notified<Arc<Shared>>>>,
}

struct Shared {
    owner: ThreadId,
    owned: OwnedTasks<Arc<Shared>>,
    /// Tasks woken from other threads (or outside the context); `None` once
    /// the set is dropped.
    remote: Mutex<Option<VecDeque<Notified<Arc<Shared>>>>>,
    /// Whoever polls the set.
    waker: AtomicWaker,
}

crate::loom::thread_local! {
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
}

/// The set that `spawn_local` reaches on this thread.
struct Current {
    context: Rc<Context>,
    /// Whether the set is being polled right now. Only then may a wake skip
    /// the set's waker: the poll runs the local queue before it returns.
    /// Under a bare `enter` guard nobody is polling the set, and a task
    /// queued silently would wait forever.
    polling: bool,
}

/// Makes `context` the current local set until dropped.
struct EnterGuard(Option<Current>);

fn enter(context: &Rc<Context>, polling: bool) -> EnterGuard {
    let current = Current {
        context: context.clone(),
        polling,
    };
    EnterGuard(CURRENT.with(|c| c.borrow_mut().replace(current)))
}

impl Drop for EnterGuard {
    fn drop(&mut self) {
        let previous = self.0.take();
        let _ = CURRENT.try_with(|c| *c.borrow_mut() = previous);
    }
}

/// Spawns a `!Send` future onto the current [`LocalSet`].
///
/// # Panics
///
/// Outside a `LocalSet` (its `run_until`, `block_on`, poll, or `enter`) or
/// a `LocalRuntime` on its own thread.
#[track_caller]
pub fn spawn_local<F>(future: F) -> JoinHandle<F::Output>
where
    F: Future + 'static,
    F::Output: 'static,
{
    match spawn_local_named(future, None) {
        Some(join) => join,
        None if in_local_runtime() => panic!(
            "Local tasks can only be spawned on a LocalRuntime from the thread the runtime \
             was created on"
        ),
        None => panic!(
            "`spawn_local` called from outside of a `task::LocalSet` or `runtime::LocalRuntime`"
        ),
    }
}

/// Whether the current runtime is a `LocalRuntime` (entered, through a
/// handle, on a thread other than its own: on its own thread its set of
/// `!Send` tasks is current too).
fn in_local_runtime() -> bool {
    crate::runtime::context::with_current(|handle| handle.common().config.local).unwrap_or(false)
}

/// `spawn_local` with a task name (for `task::Builder`); `None` outside a
/// `LocalSet`.
#[track_caller]
pub(super) fn spawn_local_named<F>(
    future: F,
    name: Option<Box<str>>,
) -> Option<JoinHandle<F::Output>>
where
    F: Future + 'static,
    F::Output: 'static,
{
    let context = CURRENT.with(|c| c.borrow().as_ref().map(|cur| cur.context.clone()));
    // Not `Option::map`: a closure would hide the caller's location.
    let context = context?;
    Some(context.spawn_named(future, name))
}

impl LocalSet {
    /// An empty set owned by the current thread.
    pub fn new() -> LocalSet {
        LocalSet {
            tick: Cell::new(0),
            context: Rc::new(Context {
                shared: Arc::new(Shared {
                    owner: thread::current().id(),
                    owned: OwnedTasks::new(1),
                    remote: Mutex::new(Some(VecDeque::new())),
                    waker: AtomicWaker::new(),
                }),
                queue: RefCell::new(VecDeque::new()),
            }),
            _not_send: PhantomData,
        }
    }

    /// Spawns a `!Send` task onto this set. It runs when the set is next
    /// driven.
    #[track_caller]
    pub fn spawn_local<F>(&self, future: F) -> JoinHandle<F::Output>
    where
        F: Future + 'static,
        F::Output: 'static,
    {
        self.context.spawn(future)
    }

    /// `spawn_local` with a task name (for `task::Builder`).
    #[track_caller]
    pub(super) fn spawn_named<F>(&self, future: F, name: Option<Box<str>>) -> JoinHandle<F::Output>
    where
        F: Future + 'static,
        F::Output: 'static,
    {
        self.context.spawn_named(future, name)
    }

    /// A snapshot of this set's live tasks, like
    /// [`Handle::dump`](crate::runtime::Handle::dump) for a runtime (whose
    /// dump does not include them), with where each idle task waits.
    ///
    /// ```
    /// let local = rt_core::task::LocalSet::new();
    /// local.spawn_local(async {});
    /// assert_eq!(local.dump().tasks().len(), 1);
    /// ```
    pub fn dump(&self) -> super::Dump {
        let now = std::time::Instant::now();
        let tasks = self.context.shared.owned.hold_all();
        super::Dump::take(tasks, now)
    }

    /// Makes this set current, so that [`spawn_local`] works, until the
    /// guard drops.
    pub fn enter(&self) -> LocalEnterGuard {
        LocalEnterGuard {
            _guard: enter(&self.context, false),
            _not_send: PhantomData,
        }
    }

    /// Runs `future` on `rt`, driving this set's tasks meanwhile.
    #[track_caller]
    pub fn block_on<F: Future>(&self, rt: &crate::runtime::Runtime, future: F) -> F::Output {
        rt.block_on(self.run_until(future))
    }

    /// Drives this set's tasks until `future` completes. Tasks left
    /// unfinished stay in the set.
    pub async fn run_until<F: Future>(&self, future: F) -> F::Output {
        RunUntil {
            future,
            local_set: self,
        }
        .await
    }

    /// Runs up to a batch of tasks; returns whether more are queued.
    fn tick(&self) -> bool {
        for _ in 0..MAX_TASKS_PER_TICK {
            let Some(task) = self.next_task() else {
                return false;
            };
            let task = self.context.shared.owned.assert_owner(task);
            coop::with_budget(coop::DEFAULT_BUDGET, || task.run());
        }
        true
    }

    fn next_task(&self) -> Option<Notified<Arc<Shared>>> {
        let tick = self.tick.get().wrapping_add(1);
        self.tick.set(tick);
        let remote = || {
            self.context
                .shared
                .remote
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_mut()
                .and_then(|q| q.pop_front())
        };
        if tick % REMOTE_FIRST_INTERVAL == 0 {
            remote().or_else(|| self.context.queue.borrow_mut().pop_front())
        } else {
            let local = self.context.queue.borrow_mut().pop_front();
            local.or_else(remote)
        }
    }

    fn has_queued(&self) -> bool {
        !self.context.queue.borrow().is_empty()
            || self
                .context
                .shared
                .remote
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_ref()
                .is_some_and(|q| !q.is_empty())
    }
}

impl Default for LocalSet {
    fn default() -> Self {
        LocalSet::new()
    }
}

/// Completes once every task in the set has finished.
impl Future for LocalSet {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<()> {
        let _enter = enter(&self.context, true);
        let _no_blocking = disallow_block_in_place();
        self.context.shared.waker.register_by_ref(cx.waker());
        if self.tick() {
            // More work queued: come back after others had a turn.
            cx.waker().wake_by_ref();
            Poll::Pending
        } else if self.context.shared.owned.is_empty() && !self.has_queued() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

impl Drop for LocalSet {
    fn drop(&mut self) {
        // A set kept in a thread-local may outlive this thread's record of
        // the current set: its tasks are then dropped without entering it
        // (a `spawn_local` from a destructor panics as outside any set).
        let _enter = CURRENT
            .try_with(|_| ())
            .is_ok()
            .then(|| enter(&self.context, false));
        let _no_blocking = disallow_block_in_place();
        // Cancel every task here, on the owner thread, where their futures
        // may be dropped.
        self.context.shared.owned.close_and_shutdown_all();
        let local: Vec<_> = self.context.queue.borrow_mut().drain(..).collect();
        drop(local);
        let remote = self
            .context
            .shared
            .remote
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        drop(remote);
        debug_assert!(self.context.shared.owned.is_empty());
    }
}

impl fmt::Debug for LocalSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalSet").finish_non_exhaustive()
    }
}

/// Keeps a [`LocalSet`] current; see [`LocalSet::enter`].
#[must_use = "the set is only current while the guard is alive"]
pub struct LocalEnterGuard {
    _guard: EnterGuard,
    _not_send: PhantomData<*const ()>,
}

impl fmt::Debug for LocalEnterGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalEnterGuard").finish_non_exhaustive()
    }
}

pin_project! {
    struct RunUntil<'a, F> {
        local_set: &'a LocalSet,
        #[pin]
        future: F,
    }
}

impl<F: Future> Future for RunUntil<'_, F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<F::Output> {
        let me = self.project();
        let _enter = enter(&me.local_set.context, true);
        let _no_blocking = disallow_block_in_place();
        me.local_set
            .context
            .shared
            .waker
            .register_by_ref(cx.waker());
        let future = me.future;
        if let Poll::Ready(out) = coop::with_budget(coop::DEFAULT_BUDGET, || future.poll(cx)) {
            return Poll::Ready(out);
        }
        if me.local_set.tick() {
            cx.waker().wake_by_ref();
        }
        Poll::Pending
    }
}

impl Context {
    #[track_caller]
    fn spawn<F>(&self, future: F) -> JoinHandle<F::Output>
    where
        F: Future + 'static,
        F::Output: 'static,
    {
        self.spawn_named(future, None)
    }

    #[track_caller]
    pub(super) fn spawn_named<F>(&self, future: F, name: Option<Box<str>>) -> JoinHandle<F::Output>
    where
        F: Future + 'static,
        F::Output: 'static,
    {
        // SAFETY: the set's tasks are polled only by `tick` and cancelled
        // only by `Drop for LocalSet`, both on the owner thread (the set is
        // !Send), which is the contract of `bind_local`.
        let (join, notified) = unsafe {
            self.shared.owned.bind_local(
                future,
                self.shared.clone(),
                Id::next(),
                Origin::new(std::panic::Location::caller(), name),
            )
        };
        if let Some(notified) = notified {
            self.shared.schedule(notified);
        }
        join
    }
}

impl Schedule for Arc<Shared> {
    fn release(&self, task: &Task<Self>) -> Option<Task<Self>> {
        self.owned.remove(task)
    }

    fn schedule(&self, task: Notified<Self>) {
        let mut task = Some(task);
        if thread::current().id() == self.owner {
            let _ = CURRENT.try_with(|c| {
                if let Some(cur) = c.borrow().as_ref() {
                    if cur.polling && Arc::ptr_eq(&cur.context.shared, self) {
                        // Inside the set's poll: the poll runs the local
                        // queue before it returns, so no wake is needed.
                        cur.context.queue.borrow_mut().extend(task.take());
                    }
                }
            });
        }
        let Some(task) = task else {
            return;
        };
        let mut remote = self.remote.lock().unwrap_or_else(|e| e.into_inner());
        match remote.as_mut() {
            Some(queue) => queue.push_back(task),
            None => {
                // The set was dropped and its tasks cancelled; this is a
                // stale wake.
                drop(remote);
                drop(task);
                return;
            }
        }
        drop(remote);
        self.waker.wake();
    }
}
