//! The public counting semaphore and its permits.

use crate::batch_semaphore as ll;
use crate::errors::{AcquireError, TryAcquireError};
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A counting semaphore: a pool of permits that tasks wait for
/// asynchronously.
///
/// Waiters are served strictly in the order they asked. A waiter that asks
/// for many permits at the front of the queue holds back smaller requests
/// behind it even when those could be served, so large requests never
/// starve.
///
/// Releasing a permit happens-before the acquisition that receives it, so a
/// semaphore can also hand data between tasks.
///
/// ```
/// use rt_sync::Semaphore;
///
/// # rt_sync::__doc::block_on(async {
/// let semaphore = Semaphore::new(2);
/// let a = semaphore.acquire().await.unwrap();
/// let b = semaphore.acquire().await.unwrap();
/// assert_eq!(semaphore.available_permits(), 0);
/// assert!(semaphore.try_acquire().is_err());
/// drop(a);
/// assert_eq!(semaphore.available_permits(), 1);
/// # drop(b);
/// # });
/// ```
pub struct Semaphore {
    ll: ll::Semaphore,
}

/// Permits borrowed from a [`Semaphore`]; they go back when this is dropped.
#[must_use = "dropping the permit releases it at once"]
pub struct SemaphorePermit<'a> {
    held: HeldPermits<&'a Semaphore>,
}

/// Permits taken from an `Arc<Semaphore>`; they go back when this is
/// dropped. Unlike [`SemaphorePermit`] it can outlive the borrow, e.g. move
/// into a spawned task.
#[must_use = "dropping the permit releases it at once"]
pub struct OwnedSemaphorePermit {
    held: HeldPermits<Arc<Semaphore>>,
}

impl Semaphore {
    /// The largest number of permits a semaphore can hold
    /// (`usize::MAX >> 3`).
    pub const MAX_PERMITS: usize = ll::MAX_PERMITS;

    /// A semaphore with `permits` permits.
    ///
    /// # Panics
    ///
    /// Panics if `permits` exceeds [`Semaphore::MAX_PERMITS`].
    pub fn new(permits: usize) -> Semaphore {
        Semaphore {
            ll: ll::Semaphore::new(permits),
        }
    }

    /// A semaphore with `permits` permits, usable in a `static`.
    ///
    /// ```
    /// static LIMIT: rt_sync::Semaphore = rt_sync::Semaphore::const_new(3);
    /// assert_eq!(LIMIT.available_permits(), 3);
    /// ```
    #[cfg(not(loom))]
    pub const fn const_new(permits: usize) -> Semaphore {
        Semaphore {
            ll: ll::Semaphore::const_new(permits),
        }
    }

    /// Permits available right now.
    pub fn available_permits(&self) -> usize {
        self.ll.available_permits()
    }

    /// Adds `n` permits, waking waiters that can now proceed.
    ///
    /// # Panics
    ///
    /// Panics if the total would exceed [`Semaphore::MAX_PERMITS`].
    pub fn add_permits(&self, n: usize) {
        self.ll.release(n);
    }

    /// Removes up to `n` of the permits available right now and returns how
    /// many were removed. It never waits and wakes nobody; permits held by
    /// others are not affected.
    pub fn forget_permits(&self, n: usize) -> usize {
        self.ll.forget_permits(n)
    }

    /// Waits for one permit.
    ///
    /// Fails only if the semaphore is closed.
    ///
    /// # Cancel safety
    ///
    /// Waiters are served in the order they asked. Dropping this future
    /// gives up its place in the queue (and returns anything it had been
    /// given), so cancelling and retrying moves the caller to the back.
    pub async fn acquire(&self) -> Result<SemaphorePermit<'_>, AcquireError> {
        self.acquire_many(1).await
    }

    /// Waits for `n` permits at once.
    ///
    /// # Cancel safety
    ///
    /// As for [`acquire`](Self::acquire): cancelling loses the place in the
    /// queue and returns permits assigned so far.
    pub async fn acquire_many(&self, n: u32) -> Result<SemaphorePermit<'_>, AcquireError> {
        self.ll
            .acquire(n as usize)
            .await
            .map_err(|_| AcquireError::closed())?;
        Ok(SemaphorePermit {
            held: HeldPermits::new(self, n),
        })
    }

    /// Takes one permit if one is available right now.
    pub fn try_acquire(&self) -> Result<SemaphorePermit<'_>, TryAcquireError> {
        self.try_acquire_many(1)
    }

    /// Takes `n` permits if they are available right now.
    pub fn try_acquire_many(&self, n: u32) -> Result<SemaphorePermit<'_>, TryAcquireError> {
        self.ll.try_acquire(n as usize)?;
        Ok(SemaphorePermit {
            held: HeldPermits::new(self, n),
        })
    }

    /// Waits for one permit from synchronous code, parking the thread.
    ///
    /// Fails only if the semaphore is closed. Must not be called from
    /// inside an asynchronous task.
    ///
    /// ```
    /// use rt_sync::Semaphore;
    ///
    /// let semaphore = Semaphore::new(1);
    /// let permit = semaphore.blocking_acquire().unwrap();
    /// assert_eq!(semaphore.available_permits(), 0);
    /// drop(permit);
    /// ```
    #[track_caller]
    pub fn blocking_acquire(&self) -> Result<SemaphorePermit<'_>, AcquireError> {
        rt_core::util::block_on(self.acquire())
    }

    /// Waits for `n` permits at once from synchronous code, parking the
    /// thread; as [`blocking_acquire`](Self::blocking_acquire).
    #[track_caller]
    pub fn blocking_acquire_many(&self, n: u32) -> Result<SemaphorePermit<'_>, AcquireError> {
        rt_core::util::block_on(self.acquire_many(n))
    }

    /// Waits for one permit from a shared semaphore, from synchronous code;
    /// as [`blocking_acquire`](Self::blocking_acquire).
    #[track_caller]
    pub fn blocking_acquire_owned(self: Arc<Self>) -> Result<OwnedSemaphorePermit, AcquireError> {
        rt_core::util::block_on(self.acquire_owned())
    }

    /// Waits for `n` permits from a shared semaphore, from synchronous
    /// code; as [`blocking_acquire`](Self::blocking_acquire).
    #[track_caller]
    pub fn blocking_acquire_many_owned(
        self: Arc<Self>,
        n: u32,
    ) -> Result<OwnedSemaphorePermit, AcquireError> {
        rt_core::util::block_on(self.acquire_many_owned(n))
    }

    /// Waits for one permit from a shared semaphore.
    ///
    /// # Cancel safety
    ///
    /// As for [`acquire`](Self::acquire).
    pub async fn acquire_owned(self: Arc<Self>) -> Result<OwnedSemaphorePermit, AcquireError> {
        self.acquire_many_owned(1).await
    }

    /// Waits for `n` permits from a shared semaphore.
    ///
    /// # Cancel safety
    ///
    /// As for [`acquire`](Self::acquire).
    pub async fn acquire_many_owned(
        self: Arc<Self>,
        n: u32,
    ) -> Result<OwnedSemaphorePermit, AcquireError> {
        self.ll
            .acquire(n as usize)
            .await
            .map_err(|_| AcquireError::closed())?;
        Ok(OwnedSemaphorePermit {
            held: HeldPermits::new(self, n),
        })
    }

    /// Takes one permit from a shared semaphore if one is available now.
    pub fn try_acquire_owned(self: Arc<Self>) -> Result<OwnedSemaphorePermit, TryAcquireError> {
        self.try_acquire_many_owned(1)
    }

    /// Takes `n` permits from a shared semaphore if they are available now.
    pub fn try_acquire_many_owned(
        self: Arc<Self>,
        n: u32,
    ) -> Result<OwnedSemaphorePermit, TryAcquireError> {
        self.ll.try_acquire(n as usize)?;
        Ok(OwnedSemaphorePermit {
            held: HeldPermits::new(self, n),
        })
    }

    /// Closes the semaphore: every waiter and every later acquisition fails.
    /// Permits already handed out stay valid and may still be returned.
    pub fn close(&self) {
        self.ll.close();
    }

    /// Whether [`close`](Self::close) was called.
    pub fn is_closed(&self) -> bool {
        self.ll.is_closed()
    }
}

impl fmt::Debug for Semaphore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Semaphore")
            .field("ll_sem", &self.ll)
            .finish()
    }
}

impl<'a> SemaphorePermit<'a> {
    /// Consumes the permits without returning them: the semaphore ends up
    /// with fewer permits for good.
    pub fn forget(mut self) {
        self.held.forget();
    }

    /// Adds `other`'s permits to this one.
    ///
    /// # Panics
    ///
    /// Panics if the two permits come from different semaphores.
    #[track_caller]
    pub fn merge(&mut self, mut other: Self) {
        self.held.merge(&mut other.held);
    }

    /// Moves `n` of these permits into a new permit, or returns `None` if
    /// this one holds fewer than `n`.
    pub fn split(&mut self, n: usize) -> Option<Self> {
        self.held.split(n).map(|held| SemaphorePermit { held })
    }

    /// The semaphore these permits came from.
    pub fn semaphore(&self) -> &'a Semaphore {
        self.held.semaphore
    }

    /// How many permits this holds.
    pub fn num_permits(&self) -> usize {
        self.held.permits
    }
}

impl OwnedSemaphorePermit {
    /// Consumes the permits without returning them.
    pub fn forget(mut self) {
        self.held.forget();
    }

    /// Adds `other`'s permits to this one.
    ///
    /// # Panics
    ///
    /// Panics if the two permits come from different semaphores.
    #[track_caller]
    pub fn merge(&mut self, mut other: Self) {
        self.held.merge(&mut other.held);
    }

    /// Moves `n` of these permits into a new permit, or returns `None` if
    /// this one holds fewer than `n`.
    pub fn split(&mut self, n: usize) -> Option<Self> {
        self.held.split(n).map(|held| OwnedSemaphorePermit { held })
    }

    /// The semaphore these permits came from.
    pub fn semaphore(&self) -> &Arc<Semaphore> {
        &self.held.semaphore
    }

    /// How many permits this holds.
    pub fn num_permits(&self) -> usize {
        self.held.permits
    }
}

impl fmt::Debug for SemaphorePermit<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SemaphorePermit")
            .field("permits", &self.held.permits)
            .finish()
    }
}

impl fmt::Debug for OwnedSemaphorePermit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwnedSemaphorePermit")
            .field("permits", &self.held.permits)
            .finish()
    }
}

/// Permits held through a handle to their semaphore, a borrow or an `Arc`:
/// the counting both public permit types share. Dropping it gives the
/// permits back.
struct HeldPermits<H: Deref<Target = Semaphore>> {
    semaphore: H,
    /// A `usize`, not the `u32` one acquisition takes: merged permits may
    /// add up to more.
    permits: usize,
}

impl<H: Deref<Target = Semaphore> + Clone> HeldPermits<H> {
    fn new(semaphore: H, permits: u32) -> Self {
        HeldPermits {
            semaphore,
            permits: permits as usize,
        }
    }

    fn forget(&mut self) {
        self.permits = 0;
    }

    #[track_caller]
    fn merge(&mut self, other: &mut Self) {
        assert!(
            std::ptr::eq::<Semaphore>(&*self.semaphore, &*other.semaphore),
            "merging permits from different semaphores"
        );
        self.permits += other.permits;
        other.permits = 0;
    }

    fn split(&mut self, n: usize) -> Option<Self> {
        if n > self.permits {
            return None;
        }
        self.permits -= n;
        Some(HeldPermits {
            semaphore: self.semaphore.clone(),
            permits: n,
        })
    }
}

impl<H: Deref<Target = Semaphore>> Drop for HeldPermits<H> {
    fn drop(&mut self) {
        self.semaphore.add_permits(self.permits);
    }
}
