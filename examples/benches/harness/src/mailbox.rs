//! A runtime-agnostic single-consumer queue for the benchmarks.
//!
//! Workloads that pass messages between tasks (ping-pong, the end of a
//! spawn chain) must use the same channel on rt and on tokio, or the
//! comparison would measure two channel implementations instead of two
//! schedulers. This one is deliberately plain: a mutex around a queue and
//! the receiver's waker. Its cost is the same on both runtimes; only the
//! wake-up path through each scheduler differs.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

/// An unbounded queue with any number of senders and one receiving task at
/// a time. Clones share the queue.
///
/// ```
/// use bench_harness::mailbox::Mailbox;
///
/// let rt = rt::runtime::Builder::new_current_thread().build().unwrap();
/// let inbox = Mailbox::new();
/// let sender = inbox.clone();
/// rt.block_on(async move {
///     rt::spawn(async move { sender.send(7) });
///     assert_eq!(inbox.recv().await, 7);
/// });
/// ```
#[derive(Debug)]
pub struct Mailbox<T> {
    shared: Arc<Mutex<Shared<T>>>,
}

#[derive(Debug)]
struct Shared<T> {
    queue: VecDeque<T>,
    /// The waker of the task blocked in `recv`, if one is.
    receiver: Option<Waker>,
}

impl<T> Clone for Mailbox<T> {
    fn clone(&self) -> Self {
        Mailbox {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<T> Default for Mailbox<T> {
    fn default() -> Self {
        Mailbox::new()
    }
}

impl<T> Mailbox<T> {
    /// An empty mailbox.
    pub fn new() -> Mailbox<T> {
        Mailbox {
            shared: Arc::new(Mutex::new(Shared {
                queue: VecDeque::new(),
                receiver: None,
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Shared<T>> {
        // A panic while holding the lock leaves the queue consistent (every
        // critical section is a single push, pop or waker swap), so a
        // poisoned lock is still usable.
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `value` and wakes the receiver if it is waiting. The waker is
    /// called after the lock is released so the woken task never contends
    /// with its waker for it.
    pub fn send(&self, value: T) {
        let waiting = {
            let mut shared = self.lock();
            shared.queue.push_back(value);
            shared.receiver.take()
        };
        if let Some(waker) = waiting {
            waker.wake();
        }
    }

    /// The next value, if one is queued now.
    pub fn try_recv(&self) -> Option<T> {
        self.lock().queue.pop_front()
    }

    /// Waits for the next value. Only one task should wait at a time; a
    /// second waiter replaces the first one's waker.
    pub fn recv(&self) -> Recv<'_, T> {
        Recv { mailbox: self }
    }
}

/// The future returned by [`Mailbox::recv`].
#[derive(Debug)]
#[must_use = "futures do nothing unless polled"]
pub struct Recv<'a, T> {
    mailbox: &'a Mailbox<T>,
}

impl<T> Future for Recv<'_, T> {
    type Output = T;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        let mut shared = self.mailbox.lock();
        if let Some(value) = shared.queue.pop_front() {
            return Poll::Ready(value);
        }
        match &mut shared.receiver {
            Some(waker) if waker.will_wake(cx.waker()) => {}
            slot => *slot = Some(cx.waker().clone()),
        }
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_arrive_in_order() {
        let inbox = Mailbox::new();
        inbox.send(1);
        inbox.send(2);
        assert_eq!(inbox.try_recv(), Some(1));
        assert_eq!(inbox.try_recv(), Some(2));
        assert_eq!(inbox.try_recv(), None);
    }

    #[test]
    fn a_waiting_receiver_is_woken_from_another_thread() {
        let rt = rt::runtime::Builder::new_current_thread().build().unwrap();
        let inbox = Mailbox::new();
        let sender = inbox.clone();
        let total = rt.block_on(async move {
            let thread = std::thread::spawn(move || {
                for i in 1..=100u32 {
                    sender.send(i);
                }
            });
            let mut total = 0;
            for _ in 0..100 {
                total += inbox.recv().await;
            }
            thread.join().unwrap();
            total
        });
        assert_eq!(total, 5050);
    }

    #[test]
    fn ping_pong_between_two_tasks_on_a_multi_thread_runtime() {
        let rt = rt::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .unwrap();
        let (a, b) = (Mailbox::new(), Mailbox::new());
        let (a2, b2) = (a.clone(), b.clone());
        rt.block_on(async move {
            let echo = rt::spawn(async move {
                for _ in 0..1000 {
                    let v: u32 = b2.recv().await;
                    a2.send(v + 1);
                }
            });
            let mut v = 0;
            for _ in 0..1000 {
                b.send(v);
                v = a.recv().await;
            }
            echo.await.unwrap();
            assert_eq!(v, 1000);
        });
    }
}
