//! The workloads compiled against tokio.

use tokio as tk;

#[path = "workloads/blocking.rs"]
pub mod blocking;
#[path = "workloads/build.rs"]
mod build;
#[path = "workloads/codec.rs"]
pub mod codec;
#[path = "workloads/echo_fleet.rs"]
pub mod echo_fleet;
#[path = "workloads/far_sleep.rs"]
mod far_sleep;
#[path = "workloads/fs.rs"]
pub mod fs;
#[path = "workloads/idle.rs"]
pub mod idle;
#[path = "workloads/io.rs"]
pub mod io;
#[path = "workloads/memory.rs"]
pub mod memory;
#[path = "workloads/paced.rs"]
pub mod paced;
#[path = "workloads/spawn.rs"]
pub mod spawn;
#[path = "workloads/sync.rs"]
pub mod sync;
#[path = "workloads/time.rs"]
pub mod time;
#[path = "workloads/wakeup.rs"]
pub mod wakeup;

/// The codec types under one path for both sides.
mod tk_codec {
    pub use tokio_util::codec::*;
}
