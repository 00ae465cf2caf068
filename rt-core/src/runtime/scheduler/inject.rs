//! The injection queue: tasks scheduled from outside a worker (another
//! thread, a waker fired by a driver on another thread). An intrusive FIFO
//! through the tasks' `queue_next` links, behind one lock, so pushing never
//! allocates. `len` is mirrored in an atomic so that the hot path can skip
//! the lock when the queue is empty.

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
