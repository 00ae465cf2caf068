//! The workload compiled against rt.

use rt as tk;

#[path = "../runtime/workloads/far_sleep.rs"]
mod far_sleep;
#[path = "sleepers.rs"]
pub mod sleepers;
