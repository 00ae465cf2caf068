//! loom's condition variable, with timed waits that end.

use super::mutex::MutexGuard;
use std::sync::atomic::Ordering::SeqCst;
use std::sync::LockResult;
use std::time::Duration;

/// `std::sync::Condvar` under loom; see the module's "Time under
/// loom" for what a timed wait does.
#[derive(Debug, Default)]
pub struct Condvar(loom::sync::Condvar);

/// Whether a timed wait ended by its timeout; under loom it always
/// does.
#[derive(Debug, Clone, Copy)]
pub struct WaitTimeoutResult(bool);

impl WaitTimeoutResult {
    /// Whether the wait timed out.
    pub fn timed_out(&self) -> bool {
        self.0
    }
}

impl Condvar {
    /// A condition variable nobody waits on.
    pub fn new() -> Condvar {
        Condvar(loom::sync::Condvar::new())
    }

    /// Blocks until notified. The lock is free meanwhile, so the
    /// guard's claim is given up for the wait.
    #[track_caller]
    pub fn wait<'a, T>(&self, mut guard: MutexGuard<'a, T>) -> LockResult<MutexGuard<'a, T>> {
        let inner = guard.inner.take().expect("guard taken by a condvar wait");
        let claims = guard.claims;
        claims.fetch_sub(1, SeqCst);
        let inner = self.0.wait(inner).unwrap_or_else(|e| e.into_inner());
        claims.fetch_add(1, SeqCst);
        guard.inner = Some(inner);
        Ok(guard)
    }

    /// Lets the other threads run, then returns as though `timeout`
    /// elapsed, with the virtual clock moved forward by it.
    pub fn wait_timeout<'a, T>(
        &self,
        guard: MutexGuard<'a, T>,
        timeout: Duration,
    ) -> LockResult<(MutexGuard<'a, T>, WaitTimeoutResult)> {
        loom::thread::yield_now();
        super::clock::advance(timeout);
        Ok((guard, WaitTimeoutResult(true)))
    }

    /// Wakes one waiter.
    #[track_caller]
    pub fn notify_one(&self) {
        self.0.notify_one();
    }

    /// Wakes every waiter.
    #[track_caller]
    pub fn notify_all(&self) {
        self.0.notify_all();
    }
}
