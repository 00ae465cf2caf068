//! The schedulers, behind one `Handle` enum so that the rest of the runtime
//! does not care which flavor it talks to.

pub(crate) mod current_thread;
pub(crate) mod inject;
pub(crate) mod multi_thread;

use super::blocking::Spawner;
use super::config::Config;
use super::driver::{DriverHandles, Unpark};
use crate::task::{Id, JoinHandle};
use crate::util::rng::SeedGenerator;
use std::future::Future;
use std::sync::Arc;

/// A cloneable reference to a running scheduler.
#[derive(Clone)]
pub(crate) enum Handle {
    CurrentThread(Arc<current_thread::Handle>),
    MultiThread(Arc<multi_thread::Handle>),
}

/// What a thread driving a scheduler keeps in its thread-local context.
pub(crate) enum Context {
    CurrentThread(current_thread::Context),
    MultiThread(multi_thread::Context),
}

/// What every flavor shares: the driver's handles, the blocking pool, the
/// configuration.
pub(crate) struct Common {
    pub(crate) unpark: Arc<dyn Unpark>,
    pub(crate) driver_handles: DriverHandles,
    pub(crate) blocking: Spawner,
    pub(crate) seed_generator: SeedGenerator,
    pub(crate) config: Config,
}

impl Handle {
    pub(crate) fn common(&self) -> &Common {
        match self {
            Handle::CurrentThread(h) => &h.common,
            Handle::MultiThread(h) => &h.common,
        }
    }

    pub(crate) fn seed_generator(&self) -> &SeedGenerator {
        &self.common().seed_generator
    }

    #[track_caller]
    pub(crate) fn spawn<F>(&self, future: F, id: Id) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        match self {
            Handle::CurrentThread(h) => current_thread::Handle::spawn(h, future, id),
            Handle::MultiThread(h) => multi_thread::Handle::spawn(h, future, id),
        }
    }

    #[track_caller]
    pub(crate) fn spawn_blocking<F, R>(&self, func: F) -> JoinHandle<R>
    where
        F: FnOnce() -> R + Send + 'static,
        R: Send + 'static,
    {
        self.common().blocking.spawn_blocking(self, func)
    }
}
