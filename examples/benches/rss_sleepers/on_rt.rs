//! The workload compiled against rt.

use rt as tk;

#[path = "sleepers.rs"]
pub mod sleepers;
