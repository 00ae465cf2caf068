//! Running one blocking file-system call on the runtime's blocking pool and
//! turning a failed pool task into an `io::Error`.

use std::io;

/// Runs `f` on the blocking pool and waits for its result.
///
/// A task that panicked or was cancelled (the runtime shut down) becomes an
/// `io::Error` of kind `Other`, so callers only ever see `io::Result`.
pub(crate) async fn asyncify<F, T>(f: F) -> io::Result<T>
where
    F: FnOnce() -> io::Result<T> + Send + 'static,
    T: Send + 'static,
{
    match rt_core::task::spawn_blocking(f).await {
        Ok(result) => result,
        Err(_) => Err(pool_failure()),
    }
}

/// The error reported when a blocking file operation did not finish (the
/// runtime shut down before it ran, or it panicked). Its text is tokio's,
/// word for word, since callers written for tokio compare it.
pub(crate) fn pool_failure() -> io::Error {
    io::Error::other("background task failed")
}
