//! The workload compiled against tokio.

use tokio as tk;

#[path = "sleepers.rs"]
pub mod sleepers;
