//! loom's threads behind `std::thread`'s API, including the parts
//! loom lacks.

use std::io;

/// A modelled thread's handle.
#[derive(Debug)]
pub struct JoinHandle<T>(loom::thread::JoinHandle<T>);

impl<T> JoinHandle<T> {
    /// Waits for the thread and returns its result.
    #[track_caller]
    pub fn join(self) -> std::thread::Result<T> {
        self.0.join()
    }

    /// loom cannot tell without blocking, so a modelled thread is
    /// never known to have finished: callers that join only
    /// finished threads leave it detached, which loom runs to its
    /// end all the same.
    pub fn is_finished(&self) -> bool {
        false
    }

    /// The thread's handle.
    pub fn thread(&self) -> &loom::thread::Thread {
        self.0.thread()
    }
}

/// Starts a modelled thread.
#[track_caller]
pub fn spawn<F, T>(f: F) -> JoinHandle<T>
where
    F: FnOnce() -> T + 'static,
    T: 'static,
{
    JoinHandle(loom::thread::spawn(f))
}

/// `std::thread::Builder` for modelled threads.
#[derive(Debug)]
pub struct Builder(loom::thread::Builder);

impl Builder {
    /// A builder with no name and the default stack.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Builder {
        Builder(loom::thread::Builder::new())
    }

    /// Names the thread.
    pub fn name(self, name: String) -> Builder {
        Builder(self.0.name(name))
    }

    /// Sets the stack size.
    pub fn stack_size(self, size: usize) -> Builder {
        Builder(self.0.stack_size(size))
    }

    /// Starts the thread.
    #[track_caller]
    pub fn spawn<F, T>(self, f: F) -> io::Result<JoinHandle<T>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.0.spawn(f).map(JoinHandle)
    }
}
