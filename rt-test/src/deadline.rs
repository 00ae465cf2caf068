//! Bounding a regression test whose failure mode is a hang.

use std::sync::mpsc;
use std::time::Duration;

/// How long a regression test may take before its hang counts as a failure.
/// Generous: the test bodies finish in milliseconds; a loaded machine must
/// not turn a slow pass into a failure.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// Runs `body` on its own thread and returns its result, or panics with
/// `what` if it has not finished within [`DEADLINE`]. A hang therefore fails
/// the test instead of stalling the whole run (the stuck thread is left
/// behind; the process exits when the test binary does).
pub fn within<T: Send + 'static>(what: &str, body: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let _ = tx.send(body());
    });
    match rx.recv_timeout(DEADLINE) {
        Ok(out) => out,
        // The body panicked: surface its own message.
        Err(mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("the body returned without sending"),
        },
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("hung: {what}"),
    }
}
