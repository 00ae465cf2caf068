//! Under loom each execution starts its counters afresh: loom
//! replays an execution's path, and numbers that pick a lock (task
//! ids choose the owned-list shard) must be the same on every run.

use std::sync::Mutex;

loom::lazy_static! {
    /// The numbers handed out so far in this execution, per counter
    /// (by address).
    static ref ISSUED: Mutex<Vec<(usize, u64)>> = Mutex::new(Vec::new());
}

/// A process-wide source of unique numbers, for a `static`.
#[derive(Debug)]
pub struct Counter {
    first: u64,
}

impl Counter {
    /// A counter whose first number is `first`.
    pub const fn new(first: u64) -> Counter {
        Counter { first }
    }

    /// The next number: unique within the execution.
    pub fn next(&self) -> u64 {
        let key = self as *const Counter as usize;
        let mut issued = ISSUED.lock().unwrap_or_else(|e| e.into_inner());
        let index = match issued.iter().position(|(k, _)| *k == key) {
            Some(index) => index,
            None => {
                issued.push((key, self.first));
                issued.len() - 1
            }
        };
        let n = issued[index].1;
        issued[index].1 += 1;
        n
    }
}
