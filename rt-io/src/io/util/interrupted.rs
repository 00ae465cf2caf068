//! Retrying `ErrorKind::Interrupted` inside the helpers that loop until
//! done, as std's do.
//!
//! An interrupted call did nothing: a signal arrived while it ran. std's
//! `read_exact`, `read_to_end`, `read_until` and `write_all` try again at
//! once instead of failing, and so do rt's (with `read_to_string`,
//! `read_line`, `lines`, `split`, `write_all_buf`, the integer readers and
//! writers, and `BufWriter`'s flush). Single calls (`read`, `write`,
//! `fill_buf`) hand the error to their caller, as std's do.

use std::io;
use std::task::Poll;

/// Whether `error` only says that the call was interrupted.
pub(crate) fn is_interrupted(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::Interrupted
}

/// Polls `op` until it returns anything but an `Interrupted` error.
#[inline]
pub(crate) fn poll_uninterrupted<T>(
    mut op: impl FnMut() -> Poll<io::Result<T>>,
) -> Poll<io::Result<T>> {
    loop {
        match op() {
            Poll::Ready(Err(e)) if is_interrupted(&e) => continue,
            other => return other,
        }
    }
}
