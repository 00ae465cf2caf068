//! Turning a path given to `bind` or `connect` into a Unix socket address:
//! on Linux a path that starts with a NUL byte names the abstract
//! namespace (the rest of the bytes are the name), as it does for tokio.

use super::SocketAddr;
use std::io;
use std::path::Path;

/// The address `path` names.
pub(super) fn socket_addr(path: &Path) -> io::Result<SocketAddr> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use std::os::linux::net::SocketAddrExt;
        use std::os::unix::ffi::OsStrExt;
        if let Some(name) = path.as_os_str().as_bytes().strip_prefix(b"\0") {
            return SocketAddr::from_abstract_name(name);
        }
    }
    SocketAddr::from_pathname(path)
}
