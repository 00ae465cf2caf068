//! Errors of the lock-like primitives (semaphore, mutex, rwlock).

use std::fmt;

/// Returned by [`Semaphore::acquire`](crate::Semaphore::acquire) and its
/// siblings when the semaphore has been closed.
#[derive(Debug, PartialEq, Eq)]
pub struct AcquireError(pub(crate) ());

impl AcquireError {
    pub(crate) fn closed() -> AcquireError {
        AcquireError(())
    }
}

impl fmt::Display for AcquireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("semaphore closed")
    }
}

impl std::error::Error for AcquireError {}

/// Returned by [`Semaphore::try_acquire`](crate::Semaphore::try_acquire)
/// and its siblings.
#[derive(Debug, PartialEq, Eq)]
pub enum TryAcquireError {
    /// The semaphore has been closed and hands out no more permits.
    Closed,
    /// Not enough permits are available right now.
    NoPermits,
}

impl TryAcquireError {
    /// Whether the semaphore was closed.
    pub fn is_closed(&self) -> bool {
        matches!(self, TryAcquireError::Closed)
    }

    /// Whether there were not enough permits.
    pub fn is_no_permits(&self) -> bool {
        matches!(self, TryAcquireError::NoPermits)
    }
}

impl fmt::Display for TryAcquireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TryAcquireError::Closed => f.write_str("semaphore closed"),
            TryAcquireError::NoPermits => f.write_str("no permits available"),
        }
    }
}

impl std::error::Error for TryAcquireError {}

impl From<crate::batch_semaphore::TryAcquireError> for TryAcquireError {
    fn from(e: crate::batch_semaphore::TryAcquireError) -> Self {
        match e {
            crate::batch_semaphore::TryAcquireError::Closed => TryAcquireError::Closed,
            crate::batch_semaphore::TryAcquireError::NoPermits => TryAcquireError::NoPermits,
        }
    }
}

/// Returned by `try_lock`, `try_read` and `try_write` when the lock is held
/// in a conflicting way (or others are queued for it).
#[derive(Debug)]
pub struct TryLockError(pub(crate) ());

impl fmt::Display for TryLockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("operation would block")
    }
}

impl std::error::Error for TryLockError {}
