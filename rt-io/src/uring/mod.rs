//! The io_uring driver (Linux, feature `uring`): one ring per runtime,
//! owned by its I/O driver, to which file operations are submitted instead
//! of running on the blocking pool.
//!
//! * `probe`: setting the ring up, and whether the kernel allows it;
//! * `slots`: the table of in-flight operations and the buffers the kernel
//!   holds;
//! * `ring`: the ring, its lock, submission and reaping;
//! * `op`: the future of one operation;
//! * `driver`: the reactor with the ring beside it, behind the seam;
//! * `fs`: the file-system operations as submissions.
//!
//! The design, its invariants and why: `architecture/uring.md`.

mod driver;
pub(crate) mod fs;
mod op;
mod probe;
mod ring;
mod slots;

pub(crate) use driver::driver_beside;
pub(crate) use ring::Ring;

use std::sync::Arc;

/// The ring of the current runtime, if it runs the io_uring driver.
pub(crate) fn current_ring() -> Option<Arc<Ring>> {
    rt_core::runtime::try_current_driver_handle::<Ring>()
        .ok()
        .flatten()
}
