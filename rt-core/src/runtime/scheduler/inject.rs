//! The injection queue: tasks scheduled from outside a worker (another
//! thread, a waker fired by a driver on another thread), and a full local
//! queue's overflow. An intrusive FIFO through the tasks' `queue_next`
//! links, behind one lock, so that pushing never allocates and a task is
//! never freed by a thread other than the one that would free it anyway.
//! `len` is mirrored in an atomic so that the hot paths can skip the lock
//! when the queue is empty.
//!
//! Batches move as chains: a batch pushed is linked before the lock is
//! taken and spliced on under it; a batch taken is cut off under the lock
//! and handed out after it is released.

use crate::loom::sync::atomic::{AtomicUsize, Ordering};
use crate::loom::sync::Mutex;
use crate::task::{Header, Notified};
use std::marker::PhantomData;
use std::ptr::NonNull;

pub(crate) struct Inject<S: 'static> {
    synced: Mutex<Synced>,
    len: AtomicUsize,
    _scheduler: PhantomData<S>,
}

struct Synced {
    head: Option<NonNull<Header>>,
    tail: Option<NonNull<Header>>,
    closed: bool,
}

// SAFETY: the raw pointers are owned `Notified` references, which are Send.
unsafe impl Send for Synced {}

/// Tasks linked through `queue_next`, owned by whoever holds the chain (not
/// by the queue).
struct Chain {
    head: NonNull<Header>,
    tail: NonNull<Header>,
    len: usize,
}

impl Chain {
    /// A chain of the one task `ptr`, which must be in no queue.
    ///
    /// # Safety
    ///
    /// `ptr` must be a reference from `Notified::into_raw` that no queue
    /// holds, so that its link is the caller's.
    unsafe fn one(ptr: NonNull<Header>) -> Chain {
        // SAFETY: per the caller's contract.
        unsafe { ptr.as_ref().set_queue_next(None) };
        Chain {
            head: ptr,
            tail: ptr,
            len: 1,
        }
    }
}

impl<S: 'static> Inject<S> {
    pub(crate) fn new() -> Inject<S> {
        Inject {
            synced: Mutex::new(Synced {
                head: None,
                tail: None,
                closed: false,
            }),
            len: AtomicUsize::new(0),
            _scheduler: PhantomData,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(crate) fn len(&self) -> usize {
        self.len.load(Ordering::Acquire)
    }

    /// Closes the queue; later pushes drop their task. Returns whether this
    /// call closed it.
    pub(crate) fn close(&self) -> bool {
        let mut synced = self.synced.lock().unwrap_or_else(|e| e.into_inner());
        !std::mem::replace(&mut synced.closed, true)
    }

    /// Appends a task; a closed queue drops it (its owner already cancelled
    /// every task, so nothing is lost).
    pub(crate) fn push(&self, task: Notified<S>) {
        // SAFETY: the reference was just handed over by `into_raw`, so the
        // task is in no queue and its link is ours.
        self.push_chain(unsafe { Chain::one(task.into_raw()) });
    }

    /// Appends `tasks` in order, under one lock.
    #[cfg(feature = "rt-multi-thread")]
    pub(crate) fn push_batch(&self, tasks: impl Iterator<Item = Notified<S>>) {
        let mut chain: Option<Chain> = None;
        for task in tasks {
            let ptr = task.into_raw();
            // SAFETY: the chain being built is ours alone until it is
            // spliced on below; `ptr` and the chain's tail are in no queue.
            unsafe {
                match &mut chain {
                    Some(chain) => {
                        ptr.as_ref().set_queue_next(None);
                        chain.tail.as_ref().set_queue_next(Some(ptr));
                        chain.tail = ptr;
                        chain.len += 1;
                    }
                    None => chain = Some(Chain::one(ptr)),
                }
            }
        }
        if let Some(chain) = chain {
            self.push_chain(chain);
        }
    }

    fn push_chain(&self, chain: Chain) {
        let mut synced = self.synced.lock().unwrap_or_else(|e| e.into_inner());
        if synced.closed {
            drop(synced);
            // SAFETY: the chain's tasks are owned references from
            // `into_raw`, linked by us.
            unsafe { for_each_task::<S>(Some(chain.head), drop) };
            return;
        }
        // SAFETY: we hold the lock, which owns the queued tasks' links; the
        // tail is a queued task.
        unsafe {
            match synced.tail {
                Some(tail) => tail.as_ref().set_queue_next(Some(chain.head)),
                None => synced.head = Some(chain.head),
            }
        }
        synced.tail = Some(chain.tail);
        // Written only under the lock, so load-then-store cannot lose a
        // count; the atomic is for readers that do not take the lock.
        self.len.store(
            self.len.load(Ordering::Relaxed) + chain.len,
            Ordering::Release,
        );
    }

    /// Takes the oldest task.
    pub(crate) fn pop(&self) -> Option<Notified<S>> {
        let chain = self.pop_chain(1)?;
        // SAFETY: the pointer came from `Notified::into_raw` when pushed,
        // and `pop_chain` cut it loose from the queue.
        Some(unsafe { Notified::from_raw(chain.head) })
    }

    /// Takes up to `n` of the oldest tasks: the first is returned, the rest
    /// go to `rest` in order, after the lock is released.
    #[cfg(feature = "rt-multi-thread")]
    pub(crate) fn pop_batch(
        &self,
        n: usize,
        rest: impl FnMut(Notified<S>),
    ) -> Option<Notified<S>> {
        let chain = self.pop_chain(n)?;
        // SAFETY: the chain was cut loose from the queue, so its links are
        // ours; each pointer came from `Notified::into_raw`.
        unsafe {
            let after_first = chain.head.as_ref().queue_next();
            chain.head.as_ref().set_queue_next(None);
            for_each_task(after_first, rest);
            Some(Notified::from_raw(chain.head))
        }
    }

    /// Cuts up to `n` tasks off the front.
    fn pop_chain(&self, n: usize) -> Option<Chain> {
        if n == 0 || self.is_empty() {
            return None;
        }
        let mut synced = self.synced.lock().unwrap_or_else(|e| e.into_inner());
        let head = synced.head?;
        let mut tail = head;
        let mut len = 1;
        // SAFETY: we hold the lock; every pointer reached is a queued task.
        unsafe {
            while len < n {
                match tail.as_ref().queue_next() {
                    Some(next) => {
                        tail = next;
                        len += 1;
                    }
                    None => break,
                }
            }
            synced.head = tail.as_ref().queue_next();
            tail.as_ref().set_queue_next(None);
        }
        if synced.head.is_none() {
            synced.tail = None;
        }
        self.len
            .store(self.len.load(Ordering::Relaxed) - len, Ordering::Release);
        Some(Chain { head, tail, len })
    }
}

/// Hands the tasks of the chain starting at `next` to `f` in order, each
/// unlinked first.
///
/// # Safety
///
/// The chain must be ours (in no queue), made of references from
/// `Notified::<S>::into_raw`.
unsafe fn for_each_task<S: 'static>(
    mut next: Option<NonNull<Header>>,
    mut f: impl FnMut(Notified<S>),
) {
    while let Some(ptr) = next {
        // SAFETY: per the caller's contract.
        unsafe {
            next = ptr.as_ref().queue_next();
            ptr.as_ref().set_queue_next(None);
            f(Notified::from_raw(ptr));
        }
    }
}

impl<S: 'static> Drop for Inject<S> {
    fn drop(&mut self) {
        while let Some(task) = self.pop() {
            drop(task);
        }
    }
}

#[cfg(all(test, not(loom), feature = "rt-multi-thread"))]
mod tests {
    use super::Inject;
    use crate::task::list::OwnedTasks;
    use crate::task::{Id, Notified, Origin, Schedule, Task};
    use std::sync::{Arc, Mutex};

    struct Sched(Arc<OwnedTasks<Sched>>);

    impl Schedule for Sched {
        fn release(&self, task: &Task<Self>) -> Option<Task<Self>> {
            self.0.remove(task)
        }

        fn schedule(&self, _: Notified<Self>) {}
    }

    /// Tasks that log their number when they run.
    fn tasks(
        owned: &Arc<OwnedTasks<Sched>>,
        ran: &Arc<Mutex<Vec<usize>>>,
        numbers: std::ops::Range<usize>,
    ) -> Vec<Notified<Sched>> {
        numbers
            .map(|n| {
                let ran = ran.clone();
                let origin = Origin::new(std::panic::Location::caller(), None);
                let future = async move { ran.lock().unwrap().push(n) };
                let (_join, notified) =
                    owned.bind(future, Sched(owned.clone()), Id::next(), origin);
                notified.expect("the list is open")
            })
            .collect()
    }

    #[test]
    fn batches_keep_their_order_and_a_closed_queue_drops_its_pushes() {
        let owned = Arc::new(OwnedTasks::new(1));
        let ran = Arc::new(Mutex::new(Vec::new()));
        let mut numbered = tasks(&owned, &ran, 0..8).into_iter();
        let inject = Inject::new();
        inject.push(numbered.next().unwrap());
        inject.push_batch(numbered.by_ref().take(4));
        inject.push_batch(std::iter::empty());
        inject.push(numbered.next().unwrap());
        assert_eq!(inject.len(), 6);

        let mut rest = Vec::new();
        let first = inject.pop_batch(4, |task| rest.push(task)).unwrap();
        assert_eq!((rest.len(), inject.len()), (3, 2));
        for task in std::iter::once(first).chain(rest) {
            owned.assert_owner(task).run();
        }
        assert_eq!(*ran.lock().unwrap(), [0, 1, 2, 3]);

        owned.assert_owner(inject.pop().unwrap()).run();
        let last = inject.pop_batch(10, |_| panic!("only one was left")).unwrap();
        owned.assert_owner(last).run();
        assert_eq!(*ran.lock().unwrap(), [0, 1, 2, 3, 4, 5]);
        assert!(inject.is_empty());
        assert!(inject.pop().is_none() && inject.pop_batch(3, drop).is_none());

        assert!(inject.close());
        assert!(!inject.close());
        inject.push(numbered.next().unwrap());
        inject.push_batch(numbered);
        assert!(inject.is_empty(), "a closed queue keeps nothing");
        // The two dropped tasks are still the list's: cancelled here.
        owned.close_and_shutdown_all();
        assert_eq!(owned.len(), 0);
        assert_eq!(ran.lock().unwrap().len(), 6);
    }
}
