//! The watchdog: a plain thread that ends the process with a message naming
//! the step that was running when a run takes longer than it may, so that a
//! hang never stalls CI.

use std::sync::Mutex;
use std::time::Duration;

/// The step now running, named in the watchdog's message.
static STEP: Mutex<&str> = Mutex::new("start-up");

/// Records that `name` is the step now running.
pub fn step(name: &'static str) {
    *STEP.lock().unwrap_or_else(|e| e.into_inner()) = name;
}

/// Starts the watchdog: after `limit` the process exits with status 3.
pub fn start(what: &'static str, limit: Duration) {
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        let step = *STEP.lock().unwrap_or_else(|e| e.into_inner());
        eprintln!("ecosystem {what}: watchdog: still running after {limit:?}, in step `{step}`; giving up");
        std::process::exit(3);
    });
}
