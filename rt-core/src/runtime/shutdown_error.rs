//! The error an I/O resource returns once its runtime has shut down, and
//! the check that recognises it.
//!
//! The error is built here, not in the driver crate that returns it, so
//! that [`is_rt_shutdown_err`] recognises it by type rather than by text.

use std::error::Error;
use std::fmt;
use std::io;

/// The payload of the shutdown error; private, so only [`shutdown_error`]
/// makes one.
#[derive(Debug)]
struct RuntimeShutdown;

impl fmt::Display for RuntimeShutdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("An rt context was found, but it is being shutdown.")
    }
}

impl Error for RuntimeShutdown {}

/// The error an operation on a resource gets once the runtime that drives
/// it has shut down (kind `Other`). Driver crates return it; see
/// [`is_rt_shutdown_err`].
pub fn shutdown_error() -> io::Error {
    io::Error::other(RuntimeShutdown)
}

/// Whether `err` is the error a resource returns because its runtime has
/// shut down (as opposed to an error from the OS).
///
/// ```
/// use rt_core::runtime::{is_rt_shutdown_err, shutdown_error};
///
/// assert!(is_rt_shutdown_err(&shutdown_error()));
/// let other = std::io::Error::other("An rt context was found, but it is being shutdown.");
/// assert!(!is_rt_shutdown_err(&other));
/// ```
pub fn is_rt_shutdown_err(err: &io::Error) -> bool {
    err.kind() == io::ErrorKind::Other
        && err
            .get_ref()
            .is_some_and(|inner| inner.is::<RuntimeShutdown>())
}
