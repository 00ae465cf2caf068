//! `task::Builder`: spawning with options (today, a name shown in task
//! dumps and slow-poll reports).

use super::local::spawn_local_named;
use super::{Id, JoinHandle, LocalSet, Origin};
use crate::runtime::{context, Handle};
use std::future::Future;
use std::io;
use std::panic::Location;

/// Spawns a task with a name.
///
/// The name appears in [`Handle::dump`] and in slow-poll reports. The spawn
/// methods return `io::Result` so that options that can fail may be added
/// later; today they fail only as the plain `spawn` functions panic
/// (outside a runtime, or outside a `LocalSet` for `spawn_local`), which
/// they report as an error instead.
///
/// ```
/// use rt_core::task;
///
/// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// rt.block_on(async {
///     let handle = task::Builder::new()
///         .name("worker")
///         .spawn(async { 7 })
///         .unwrap();
///     assert_eq!(handle.await.unwrap(), 7);
/// });
/// ```
#[derive(Debug, Default, Clone)]
pub struct Builder<'a> {
    name: Option<&'a str>,
}

impl<'a> Builder<'a> {
    /// A builder with no options set.
    pub fn new() -> Builder<'a> {
        Builder { name: None }
    }

    /// Names the task.
    pub fn name(&self, name: &'a str) -> Builder<'a> {
        Builder { name: Some(name) }
    }

    fn owned_name(&self) -> Option<Box<str>> {
        self.name.map(Box::from)
    }

    /// The origin of a task spawned at `location` with this builder's name.
    fn origin(&self, location: &'static Location<'static>) -> Origin {
        Origin::new(location, self.owned_name())
    }

    /// Spawns `future` onto the current runtime, like [`spawn`](super::spawn).
    ///
    /// # Errors
    ///
    /// Outside a runtime.
    #[track_caller]
    pub fn spawn<F>(self, future: F) -> io::Result<JoinHandle<F::Output>>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let origin = self.origin(Location::caller());
        context::with_current(|h| h.spawn_with_origin(future, Id::next(), origin))
            .map_err(|e| io::Error::other(e.to_string()))
    }

    /// Spawns `future` onto the runtime of `handle`.
    ///
    /// # Errors
    ///
    /// None today; the `Result` leaves room for options that can fail.
    #[track_caller]
    pub fn spawn_on<F>(self, future: F, handle: &Handle) -> io::Result<JoinHandle<F::Output>>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        Ok(handle
            .inner
            .spawn_with_origin(future, Id::next(), self.origin(Location::caller())))
    }

    /// Spawns a `!Send` future onto the current
    /// [`LocalSet`](super::LocalSet), like [`spawn_local`](super::spawn_local).
    ///
    /// # Errors
    ///
    /// Outside a `LocalSet`.
    #[track_caller]
    pub fn spawn_local<F>(self, future: F) -> io::Result<JoinHandle<F::Output>>
    where
        F: Future + 'static,
        F::Output: 'static,
    {
        spawn_local_named(future, self.owned_name()).ok_or_else(|| {
            io::Error::other("`spawn_local` called from outside of a `task::LocalSet`")
        })
    }

    /// Spawns a `!Send` future onto `local_set`, like
    /// [`LocalSet::spawn_local`].
    ///
    /// # Errors
    ///
    /// None today; the `Result` leaves room for options that can fail.
    #[track_caller]
    pub fn spawn_local_on<F>(
        self,
        future: F,
        local_set: &LocalSet,
    ) -> io::Result<JoinHandle<F::Output>>
    where
        F: Future + 'static,
        F::Output: 'static,
    {
        Ok(local_set.spawn_named(future, self.owned_name()))
    }

    /// Runs a blocking closure on the current runtime's blocking pool, like
    /// [`spawn_blocking`](super::spawn_blocking). Blocking tasks are not
    /// listed in task dumps, so the name is not kept.
    ///
    /// # Errors
    ///
    /// Outside a runtime.
    #[track_caller]
    pub fn spawn_blocking<Function, Output>(
        self,
        function: Function,
    ) -> io::Result<JoinHandle<Output>>
    where
        Function: FnOnce() -> Output + Send + 'static,
        Output: Send + 'static,
    {
        context::with_current(|h| h.spawn_blocking(function))
            .map_err(|e| io::Error::other(e.to_string()))
    }

    /// Runs a blocking closure on the blocking pool of `handle`'s runtime.
    ///
    /// # Errors
    ///
    /// None today; the `Result` leaves room for options that can fail.
    #[track_caller]
    pub fn spawn_blocking_on<Function, Output>(
        self,
        function: Function,
        handle: &Handle,
    ) -> io::Result<JoinHandle<Output>>
    where
        Function: FnOnce() -> Output + Send + 'static,
        Output: Send + 'static,
    {
        Ok(handle.spawn_blocking(function))
    }
}
