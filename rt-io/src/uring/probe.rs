//! Whether this process may use io_uring, decided once per runtime when it
//! is built: the ring is set up, and the kernel is asked whether it knows
//! every opcode rt submits.
//!
//! Setup fails with `ENOSYS` on kernels before 5.1 or built without
//! io_uring, with `EPERM` when `kernel.io_uring_disabled` forbids it (or
//! the caller is outside `kernel.io_uring_group`) or a seccomp filter
//! denies the system call; an older kernel lacking one of the opcodes
//! (`renameat` and `unlinkat` came in 5.11, `mkdirat` in 5.15) is
//! refused here too, so an operation never meets `EINVAL` at run time.

use io_uring::{opcode, IoUring, Probe};
use std::io;

/// The opcodes rt's file operations submit.
pub(crate) const OPCODES: [(u8, &str); 7] = [
    (opcode::OpenAt::CODE, "openat"),
    (opcode::Read::CODE, "read"),
    (opcode::Write::CODE, "write"),
    (opcode::Fsync::CODE, "fsync"),
    (opcode::RenameAt::CODE, "renameat"),
    (opcode::UnlinkAt::CODE, "unlinkat"),
    (opcode::MkDirAt::CODE, "mkdirat"),
];

/// Sets up a ring of `entries` submissions whose kernel supports every
/// opcode of [`OPCODES`]. `force_failure` makes the probe fail as a kernel
/// without io_uring would (tests of the fallback use it).
pub(crate) fn setup(entries: u32, force_failure: bool) -> io::Result<IoUring> {
    if force_failure {
        return Err(io::Error::from_raw_os_error(libc::ENOSYS));
    }
    let uring = IoUring::builder().build(entries)?;
    let mut probe = Probe::new();
    uring.submitter().register_probe(&mut probe)?;
    if let Some((_, name)) = OPCODES.iter().find(|(code, _)| !probe.is_supported(*code)) {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!("the kernel's io_uring lacks the {name} operation"),
        ));
    }
    Ok(uring)
}
