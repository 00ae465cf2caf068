//! [`UCred`]: the credentials of the process at the other end of a Unix
//! stream, as the kernel recorded them when it connected.

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd};

/// The effective user, group and (where the OS reports it) process id of
/// the peer of a [`UnixStream`](super::UnixStream), taken when it called
/// `connect` or `pair`.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct UCred {
    pid: Option<libc::pid_t>,
    uid: libc::uid_t,
    gid: libc::gid_t,
}

impl UCred {
    /// The peer's effective user id.
    pub fn uid(&self) -> libc::uid_t {
        self.uid
    }

    /// The peer's effective group id.
    pub fn gid(&self) -> libc::gid_t {
        self.gid
    }

    /// The peer's process id, where the OS reports one (`None` otherwise).
    pub fn pid(&self) -> Option<libc::pid_t> {
        self.pid
    }
}

/// Reads the peer credentials of the connected Unix socket `fd`
/// (`SO_PEERCRED`).
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn peer_cred(fd: BorrowedFd<'_>) -> io::Result<UCred> {
    let mut cred = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: `fd` is open for the borrow; `cred` and `len` are valid for
    // writes and `len` holds the size of `cred`, as `SO_PEERCRED` expects.
    let r = unsafe {
        libc::getsockopt(
            fd.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    };
    if r != 0 || len as usize != std::mem::size_of::<libc::ucred>() {
        return Err(io::Error::last_os_error());
    }
    Ok(UCred {
        pid: Some(cred.pid),
        uid: cred.uid,
        gid: cred.gid,
    })
}

/// Reads the peer credentials of the connected Unix socket `fd`
/// (`getpeereid`; these systems do not report the process id).
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn peer_cred(fd: BorrowedFd<'_>) -> io::Result<UCred> {
    let mut uid = 0;
    let mut gid = 0;
    // SAFETY: `fd` is open for the borrow and both out-pointers are valid.
    if unsafe { libc::getpeereid(fd.as_raw_fd(), &mut uid, &mut gid) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(UCred {
        pid: None,
        uid,
        gid,
    })
}
