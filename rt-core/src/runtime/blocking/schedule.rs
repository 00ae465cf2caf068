//! The scheduler of a blocking task: there is nothing to schedule, because
//! the closure never returns `Pending`, and nothing to release, because the
//! task is in no owned list.

use crate::task::{Notified, Schedule, Task};

pub(crate) struct BlockingSchedule;

impl Schedule for BlockingSchedule {
    fn release(&self, _task: &Task<Self>) -> Option<Task<Self>> {
        None
    }

    fn schedule(&self, _task: Notified<Self>) {
        unreachable!("a blocking task never yields, so it is never rescheduled");
    }
}
