//! The injection queue: tasks scheduled from outside a worker (another
//! thread, a waker fired by a driver on another thread). An intrusive FIFO
//! through the tasks' `queue_next` links, behind one lock, so pushing never
//! allocates. `len` is mirrored in an atomic so that the hot path can skip
//! the lock when the queue is empty.
//!
//! Batches move in one lock acquisition each way: a worker refilling its
//! local queue detaches a chain of up to `n` tasks (`pop_n`), and a full
//! local queue splices its overflow in as one chain (`push_batch`). A chain
//! outside the queue belongs to whoever holds it, like the `Notified`
//! references it is made of, so its links are read and written without the
//! lock.

use crate::loom::sync::atomic::{AtomicUsize, Ordering};
use crate::loom::sync::Mutex;
use crate::task::{Header, Notified};
use std::marker::PhantomData;
use std::ptr::NonNull;

pub(crate) struct Inject<S: 'static> {
    /// Read by every worker that looks for work, often many times per push:
    /// kept off the line of the lock and the list ends, so that those looks
    /// do not take that line away from a pusher in the middle of a push.
    len: OwnLine<AtomicUsize>,
    synced: OwnLine<Mutex<Synced>>,
    _scheduler: PhantomData<S>,
}

/// A value on cache lines of its own (128 bytes: adjacent-line prefetch
/// pairs 64-byte lines on x86).
#[repr(align(128))]
struct OwnLine<T>(T);

impl<T> std::ops::Deref for OwnLine<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

struct Synced {
    head: Option<NonNull<Header>>,
    tail: Option<NonNull<Header>>,
    closed: bool,
}

// SAFETY: the raw pointers are owned `Notified` references, which are Send.
unsafe impl Send for Synced {}

impl<S: 'static> Inject<S> {
    pub(crate) fn new() -> Inject<S> {
        Inject {
            synced: OwnLine(Mutex::new(Synced {
                head: None,
                tail: None,
                closed: false,
            })),
            len: OwnLine(AtomicUsize::new(0)),
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
        let mut synced = self.synced.lock().unwrap_or_else(|e| e.into_inner());
        if synced.closed {
            drop(synced);
            drop(task);
            return;
        }
        let ptr = task.into_raw();
        // SAFETY: we hold the lock, which owns every queued task's link.
        unsafe {
            ptr.as_ref().set_queue_next(None);
            match synced.tail {
                Some(tail) => tail.as_ref().set_queue_next(Some(ptr)),
                None => synced.head = Some(ptr),
            }
        }
        synced.tail = Some(ptr);
        self.len
            .store(self.len.load(Ordering::Relaxed) + 1, Ordering::Release);
    }

    /// Appends several tasks in order with one lock acquisition; a closed
    /// queue drops them.
    pub(crate) fn push_batch(&self, tasks: impl Iterator<Item = Notified<S>>) {
        let mut tasks = tasks.map(Notified::into_raw);
        let Some(first) = tasks.next() else {
            return;
        };
        // Link the chain before taking the lock.
        let mut last = first;
        let mut count = 1;
        for ptr in tasks {
            // SAFETY: `last` is in no queue: we hold its only queue
            // reference, so nobody else touches its link.
            unsafe { last.as_ref().set_queue_next(Some(ptr)) };
            last = ptr;
            count += 1;
        }
        // SAFETY: as above.
        unsafe { last.as_ref().set_queue_next(None) };
        let mut synced = self.synced.lock().unwrap_or_else(|e| e.into_inner());
        if synced.closed {
            drop(synced);
            drop(Chain::<S>::new(Some(first)));
            return;
        }
        // SAFETY: we hold the lock, which owns the queued tasks' links.
        unsafe {
            match synced.tail {
                Some(tail) => tail.as_ref().set_queue_next(Some(first)),
                None => synced.head = Some(first),
            }
        }
        synced.tail = Some(last);
        self.len
            .store(self.len.load(Ordering::Relaxed) + count, Ordering::Release);
    }

    /// Takes up to `n` of the oldest tasks with one lock acquisition; they
    /// come out of the returned iterator oldest first. Tasks the caller
    /// does not take from it are dropped with it.
    pub(crate) fn pop_n(&self, n: usize) -> Chain<S> {
        if n == 0 || self.is_empty() {
            return Chain::new(None);
        }
        let mut synced = self.synced.lock().unwrap_or_else(|e| e.into_inner());
        let Some(first) = synced.head else {
            return Chain::new(None);
        };
        let mut last = first;
        let mut count = 1;
        // SAFETY: we hold the lock, which owns the queued tasks' links;
        // after the cut the chain is ours alone.
        unsafe {
            while count < n {
                match last.as_ref().queue_next() {
                    Some(next) => {
                        last = next;
                        count += 1;
                    }
                    None => break,
                }
            }
            synced.head = last.as_ref().queue_next();
            if synced.head.is_none() {
                synced.tail = None;
            }
            last.as_ref().set_queue_next(None);
        }
        self.len
            .store(self.len.load(Ordering::Relaxed) - count, Ordering::Release);
        Chain::new(Some(first))
    }

    /// Takes the oldest task.
    pub(crate) fn pop(&self) -> Option<Notified<S>> {
        if self.is_empty() {
            return None;
        }
        let mut synced = self.synced.lock().unwrap_or_else(|e| e.into_inner());
        let head = synced.head?;
        // SAFETY: we hold the lock; `head` is a queued task.
        unsafe {
            synced.head = head.as_ref().queue_next();
            if synced.head.is_none() {
                synced.tail = None;
            }
            head.as_ref().set_queue_next(None);
        }
        self.len
            .store(self.len.load(Ordering::Relaxed) - 1, Ordering::Release);
        // SAFETY: the pointer came from `Notified::into_raw` in `push`.
        Some(unsafe { Notified::from_raw(head) })
    }
}

impl<S: 'static> Drop for Inject<S> {
    fn drop(&mut self) {
        while let Some(task) = self.pop() {
            drop(task);
        }
    }
}

/// Tasks detached from the queue, linked through `queue_next` and owned by
/// the holder of this value (one `Notified` reference each).
pub(crate) struct Chain<S: 'static> {
    next: Option<NonNull<Header>>,
    _scheduler: PhantomData<S>,
}

impl<S: 'static> Chain<S> {
    fn new(first: Option<NonNull<Header>>) -> Chain<S> {
        Chain {
            next: first,
            _scheduler: PhantomData,
        }
    }
}

impl<S: 'static> Iterator for Chain<S> {
    type Item = Notified<S>;

    fn next(&mut self) -> Option<Notified<S>> {
        let ptr = self.next?;
        // SAFETY: the chain owns `ptr`'s queue reference and link (it was
        // cut from the queue, or never entered it); the pointer came from
        // `Notified::into_raw`.
        unsafe {
            self.next = ptr.as_ref().queue_next();
            ptr.as_ref().set_queue_next(None);
            Some(Notified::from_raw(ptr))
        }
    }
}

impl<S: 'static> Drop for Chain<S> {
    fn drop(&mut self) {
        for task in self.by_ref() {
            drop(task);
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::task::list::OwnedTasks;
    use crate::task::{Id, Origin, Schedule, Task};
    use std::sync::Arc;

    /// A scheduler whose tasks live in one owned list and are never run.
    struct Owner(OwnedTasks<Arc<Owner>>);

    impl Schedule for Arc<Owner> {
        fn release(&self, task: &Task<Self>) -> Option<Task<Self>> {
            self.0.remove(task)
        }

        fn schedule(&self, _: Notified<Self>) {}
    }

    /// `n` fresh tasks with the header addresses that identify them.
    fn tasks(owner: &Arc<Owner>, n: usize) -> (Vec<Notified<Arc<Owner>>>, Vec<NonNull<Header>>) {
        let mut out = Vec::new();
        let mut ptrs = Vec::new();
        for _ in 0..n {
            let (join, notified) = owner.0.bind(
                std::future::ready(()),
                owner.clone(),
                Id::next(),
                Origin::new(std::panic::Location::caller(), None),
            );
            drop(join);
            let ptr = notified.expect("list is open").into_raw();
            ptrs.push(ptr);
            // SAFETY: `ptr` came from `into_raw` just above.
            out.push(unsafe { Notified::from_raw(ptr) });
        }
        (out, ptrs)
    }

    fn owner() -> Arc<Owner> {
        Arc::new(Owner(OwnedTasks::new(1)))
    }

    #[test]
    fn batches_keep_fifo_order_and_the_count() {
        let owner = owner();
        let inject = Inject::<Arc<Owner>>::new();
        let (mut batch, ptrs) = tasks(&owner, 7);
        let rest = batch.split_off(2);
        for task in batch {
            inject.push(task);
        }
        inject.push_batch(rest.into_iter());
        assert_eq!(inject.len(), 7);
        let first: Vec<_> = inject.pop_n(3).map(Notified::into_raw).collect();
        assert_eq!(first, ptrs[..3]);
        assert_eq!(inject.len(), 4);
        let more: Vec<_> = inject.pop_n(10).map(Notified::into_raw).collect();
        assert_eq!(more, ptrs[3..]);
        assert!(inject.is_empty());
        assert_eq!(inject.pop_n(4).count(), 0);
        for ptr in ptrs {
            // SAFETY: each reference was handed out by `into_raw` above.
            drop(unsafe { Notified::<Arc<Owner>>::from_raw(ptr) });
        }
        // Pushes after a batch emptied the queue start a new chain.
        let (batch, ptrs) = tasks(&owner, 2);
        inject.push_batch(batch.into_iter());
        assert_eq!(inject.pop().map(Notified::into_raw), Some(ptrs[0]));
        // SAFETY: as above.
        drop(unsafe { Notified::<Arc<Owner>>::from_raw(ptrs[0]) });
        drop(inject);
        owner.0.close_and_shutdown_all();
        assert!(owner.0.is_empty());
    }

    #[test]
    fn an_unfinished_batch_and_a_closed_queue_drop_their_tasks() {
        let owner = owner();
        let inject = Inject::<Arc<Owner>>::new();
        let (batch, _) = tasks(&owner, 5);
        inject.push_batch(batch.into_iter());
        let mut taken = inject.pop_n(4);
        drop(taken.next());
        // Three tasks still in the batch are dropped with it.
        drop(taken);
        assert_eq!(inject.len(), 1);
        assert!(inject.close());
        let (batch, _) = tasks(&owner, 3);
        inject.push_batch(batch.into_iter());
        assert_eq!(inject.len(), 1);
        drop(inject);
        owner.0.close_and_shutdown_all();
        assert!(owner.0.is_empty());
    }
}
