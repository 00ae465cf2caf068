//! Delivering a Unix signal synchronously, for the signal tests.

use rt_io::signal::unix::SignalKind;
use std::os::raw::c_int;

extern "C" {
    fn raise(signum: c_int) -> c_int;
}

/// Delivers `kind` to this thread; its handler has run when this returns,
/// so the test knows exactly which deliveries came before its next poll.
///
/// The caller must have installed a handler for `kind` first (by creating
/// an `rt_io::signal::unix::Signal` for it); otherwise the signal's default
/// action applies, which for most signals ends the process.
pub fn raise_now(kind: SignalKind) {
    // SAFETY: `raise` only sends a signal to the calling thread and has no
    // memory-safety preconditions; the documented contract above keeps
    // the default action from applying.
    let rc = unsafe { raise(kind.as_raw_value()) };
    assert_eq!(rc, 0, "raise failed");
}
