//! `Barrier`: lets a fixed number of tasks wait until all have arrived.

use crate::locked::lock;
use crate::notify::Notify;
use rt_core::loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use rt_core::loom::sync::Mutex;
use std::fmt;
use std::pin::pin;

/// Makes `n` tasks wait for each other; the barrier is reusable, one
/// "generation" after another.
///
/// ```
/// use rt_sync::Barrier;
/// use std::sync::Arc;
///
/// let barrier = Arc::new(Barrier::new(3));
/// let threads: Vec<_> = (0..3)
///     .map(|_| {
///         let barrier = barrier.clone();
///         std::thread::spawn(move || rt_sync::__doc::block_on(barrier.wait()).is_leader())
///     })
///     .collect();
/// let leaders = threads
///     .into_iter()
///     .map(|t| t.join().unwrap())
///     .filter(|&leader| leader)
///     .count();
/// assert_eq!(leaders, 1);
/// ```
pub struct Barrier {
    state: Mutex<Generation>,
    /// Mirrors `Generation::id` for waiters checking without the lock.
    generation: AtomicUsize,
    released: Notify,
    n: usize,
}

struct Generation {
    id: usize,
    arrived: usize,
}

/// What [`Barrier::wait`] returns: exactly one task per generation is the
/// leader.
#[derive(Debug, Clone)]
pub struct BarrierWaitResult(bool);

impl BarrierWaitResult {
    /// Whether this task was the last to arrive (one per generation).
    pub fn is_leader(&self) -> bool {
        self.0
    }
}

impl Barrier {
    /// A barrier for `n` tasks (0 behaves like 1).
    pub fn new(n: usize) -> Barrier {
        Barrier {
            state: Mutex::new(Generation { id: 0, arrived: 0 }),
            generation: AtomicUsize::new(0),
            released: Notify::new(),
            n: n.max(1),
        }
    }

    /// Waits until `n` tasks have called `wait`; the last to arrive is
    /// released first and is the leader.
    ///
    /// # Cancel safety
    ///
    /// Not cancel-safe: arriving counts at once, so a task that is
    /// cancelled while waiting still counts towards its generation.
    pub async fn wait(&self) -> BarrierWaitResult {
        let generation = {
            let mut state = lock(&self.state);
            state.arrived += 1;
            if state.arrived == self.n {
                state.arrived = 0;
                state.id = state.id.wrapping_add(1);
                self.generation.store(state.id, SeqCst);
                drop(state);
                self.released.notify_waiters();
                return BarrierWaitResult(true);
            }
            state.id
        };
        loop {
            let mut notified = pin!(self.released.notified());
            notified.as_mut().enable();
            if self.generation.load(SeqCst) != generation {
                return BarrierWaitResult(false);
            }
            notified.await;
        }
    }
}

impl fmt::Debug for Barrier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Barrier").field("n", &self.n).finish()
    }
}
