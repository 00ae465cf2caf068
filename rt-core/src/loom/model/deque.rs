//! crossbeam-deque's injector and worker deque, as locked queues.
//!
//! crossbeam's atomics are invisible to loom: a task handed over
//! through its injector would carry no happens-before edge, and
//! loom would report the task's first access on the other side as
//! a data race. These keep crossbeam's API and the guarantees the
//! scheduler relies on (a push is seen by every later `is_empty`
//! and happens before the steal that takes it); crossbeam's own
//! lock-free algorithm is not what the models check.

use crate::loom::sync::Mutex;
use std::cell::RefCell;
use std::collections::VecDeque;

/// The result of a steal; under loom never `Retry`.
#[derive(Debug)]
pub enum Steal<T> {
    /// Nothing to steal.
    Empty,
    /// A task.
    Success(T),
    /// Lost a race; try again.
    Retry,
}

/// A FIFO queue that any thread pushes to and steals from.
#[derive(Debug)]
pub struct Injector<T>(Mutex<VecDeque<T>>);

impl<T> Default for Injector<T> {
    fn default() -> Self {
        Injector::new()
    }
}

impl<T> Injector<T> {
    /// An empty queue.
    pub fn new() -> Injector<T> {
        Injector(Mutex::new(VecDeque::new()))
    }

    fn queue(&self) -> crate::loom::sync::MutexGuard<'_, VecDeque<T>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Appends a task.
    pub fn push(&self, task: T) {
        self.queue().push_back(task);
    }

    /// Takes the oldest task.
    pub fn steal(&self) -> Steal<T> {
        match self.queue().pop_front() {
            Some(task) => Steal::Success(task),
            None => Steal::Empty,
        }
    }

    /// Takes up to `limit` tasks: returns the oldest and moves the
    /// rest into `dest`.
    pub fn steal_batch_with_limit_and_pop(&self, dest: &Worker<T>, limit: usize) -> Steal<T> {
        let mut queue = self.queue();
        let Some(first) = queue.pop_front() else {
            return Steal::Empty;
        };
        let more = limit.saturating_sub(1).min(queue.len());
        dest.0.borrow_mut().extend(queue.drain(..more));
        Steal::Success(first)
    }

    /// Whether no task is queued.
    pub fn is_empty(&self) -> bool {
        self.queue().is_empty()
    }

    /// Tasks queued.
    pub fn len(&self) -> usize {
        self.queue().len()
    }
}

/// A deque its owner thread pops from (only the FIFO flavor).
#[derive(Debug)]
pub struct Worker<T>(RefCell<VecDeque<T>>);

impl<T> Worker<T> {
    /// An empty FIFO deque.
    pub fn new_fifo() -> Worker<T> {
        Worker(RefCell::new(VecDeque::new()))
    }

    /// Appends a task.
    pub fn push(&self, task: T) {
        self.0.borrow_mut().push_back(task);
    }

    /// Takes the oldest task.
    pub fn pop(&self) -> Option<T> {
        self.0.borrow_mut().pop_front()
    }
}
