//! A value that reports its drop, for tests of who drops a task's future
//! or output, and when.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Adds one to its counter when dropped.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use std::sync::Arc;
/// let drops = Arc::new(AtomicUsize::new(0));
/// drop(rt_test::DropCounter(drops.clone()));
/// assert_eq!(drops.load(Ordering::SeqCst), 1);
/// ```
#[derive(Debug)]
pub struct DropCounter(pub Arc<AtomicUsize>);

impl Drop for DropCounter {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}
