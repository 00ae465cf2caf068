//! `rt::fs` operations as ring submissions. Each function does what the
//! matching `std::fs` call does, with the same flags, modes and error
//! numbers, so that results and `io::ErrorKind`s are those of the blocking
//! pool's path.
//!
//! Paths are resolved against the process's working directory
//! (`AT_FDCWD`), as std's are. What the kernel reads or writes (the path's
//! `CString`, the buffer, the descriptor) travels in
//! the operation's slot and comes back with its completion.

use super::op::Op;
use super::ring::Ring;
use io_uring::{opcode, types};
use std::ffi::CString;
use std::fs::Metadata;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Arc;

/// The most bytes one read or write asks for: Linux's own limit per call.
const MAX_RW: usize = 0x7fff_f000;

/// `path` as the kernel takes it; a NUL inside fails as std fails it.
fn c_path(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "file name contained an unexpected NUL byte",
        )
    })
}

/// A submission the ring refused because the runtime shut down fails as
/// the blocking pool's path fails then, with tokio's error, which callers
/// compare.
fn refused(e: io::Error) -> io::Error {
    if rt_core::runtime::is_rt_shutdown_err(&e) {
        crate::fs::blocking::pool_failure()
    } else {
        e
    }
}

/// Closes the descriptor an `openat` returned to a dropped future.
fn close_orphan(result: i32) {
    if result >= 0 {
        // SAFETY: a non-negative `openat` result is a descriptor the
        // kernel created for this operation, which no one else received.
        drop(unsafe { OwnedFd::from_raw_fd(result) });
    }
}

/// Opens `path` with `open(2)` flags and mode.
pub(crate) async fn open(
    ring: &Arc<Ring>,
    path: &Path,
    flags: i32,
    mode: u32,
) -> io::Result<OwnedFd> {
    let path = c_path(path)?;
    // SAFETY: the entry points at the slot's `CString`; the descriptor it
    // creates goes to `close_orphan` if this future is dropped.
    let op = unsafe {
        Op::submit_with_orphan(ring, path, close_orphan, |path| {
            opcode::OpenAt::new(types::Fd(libc::AT_FDCWD), path.as_ptr())
                .flags(flags | libc::O_CLOEXEC)
                .mode(mode)
                .build()
        })
    }
    .map_err(refused)?;
    let fd = op.await.0?;
    // SAFETY: a successful `openat` returns a new descriptor that this
    // future alone received.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

/// A descriptor's owner and a buffer, lent to a read or write and given
/// back with its result.
pub(crate) type FileBuf<F> = (F, Vec<u8>);

/// The offset that makes a read or write use, and advance, the file's
/// position, as `read(2)` and `write(2)` do.
pub(crate) const AT_POSITION: u64 = u64::MAX;

/// Reads at most `max` bytes into the buffer's spare capacity at `offset`
/// (or [`AT_POSITION`]); the bytes read extend its length. The outer
/// error: the submission failed (and took the descriptor and buffer with
/// it).
pub(crate) async fn read_at<F: AsRawFd + Send + 'static>(
    ring: &Arc<Ring>,
    file_buf: FileBuf<F>,
    offset: u64,
    max: usize,
) -> io::Result<(io::Result<usize>, FileBuf<F>)> {
    let op = submit_read(ring, file_buf, offset, max, true)?;
    Ok(read_result(op).await)
}

/// Submits a read (see [`read_at`]), entering the kernel now or with the
/// next submission.
fn submit_read<F: AsRawFd + Send + 'static>(
    ring: &Arc<Ring>,
    file_buf: FileBuf<F>,
    offset: u64,
    max: usize,
    enter_now: bool,
) -> io::Result<Op<FileBuf<F>>> {
    let build = move |(fd, buf): &mut FileBuf<F>| {
        let spare = buf.spare_capacity_mut();
        let len = spare.len().min(max).min(MAX_RW) as u32;
        opcode::Read::new(types::Fd(fd.as_raw_fd()), spare.as_mut_ptr().cast(), len)
            .offset(offset)
            .build()
    };
    // SAFETY: the entry points into the spare capacity of the slot's
    // vector, no longer than it, and at the descriptor the slot's owner
    // keeps open.
    unsafe {
        if enter_now {
            Op::submit(ring, file_buf, build)
        } else {
            Op::submit_later(ring, file_buf, build)
        }
    }
    .map_err(refused)
}

/// The result of a read: the bytes it brought extend the buffer.
async fn read_result<F: AsRawFd + Send + 'static>(
    op: Op<FileBuf<F>>,
) -> (io::Result<usize>, FileBuf<F>) {
    let (result, (fd, mut buf)) = op.await;
    let result = result.map(|n| {
        let n = n as usize;
        // SAFETY: the kernel wrote `n` bytes, no more than it was given,
        // into the spare capacity, so they are initialised.
        unsafe { buf.set_len(buf.len() + n) };
        n
    });
    (result, (fd, buf))
}

/// Writes the buffer from byte `from` on, at file offset `offset` (or
/// [`AT_POSITION`]). The outer error is that of [`read_at`].
pub(crate) async fn write_at<F: AsRawFd + Send + 'static>(
    ring: &Arc<Ring>,
    file_buf: FileBuf<F>,
    from: usize,
    offset: u64,
) -> io::Result<(io::Result<usize>, FileBuf<F>)> {
    // SAFETY: the entry points at initialised bytes of the slot's vector,
    // within its length, and at the descriptor the slot's owner keeps
    // open.
    let op = unsafe {
        Op::submit(ring, file_buf, |(fd, buf)| {
            let rest = &buf[from..];
            let len = rest.len().min(MAX_RW) as u32;
            opcode::Write::new(types::Fd(fd.as_raw_fd()), rest.as_ptr(), len)
                .offset(offset)
                .build()
        })
    }
    .map_err(refused)?;
    let (result, file_buf) = op.await;
    Ok((result.map(|n| n as usize), file_buf))
}

/// Writes all of the buffer at the file's position, as `write_all`.
pub(crate) async fn write_all_at_position<F: AsRawFd + Send + 'static>(
    ring: &Arc<Ring>,
    file_buf: FileBuf<F>,
) -> io::Result<FileBuf<F>> {
    write_all(ring, file_buf, true).await
}

/// Writes all of the buffer, from offset 0 or (`at_position`) at the
/// file's position.
async fn write_all<F: AsRawFd + Send + 'static>(
    ring: &Arc<Ring>,
    mut file_buf: FileBuf<F>,
    at_position: bool,
) -> io::Result<FileBuf<F>> {
    let len = file_buf.1.len();
    let mut written = 0;
    while written < len {
        let offset = if at_position {
            AT_POSITION
        } else {
            written as u64
        };
        let result;
        (result, file_buf) = write_at(ring, file_buf, written, offset).await?;
        match result {
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    "failed to write whole buffer",
                ))
            }
            Ok(n) => written += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(file_buf)
}

/// Bytes the first read of a whole file asks for. A file no longer than
/// this is read by one read and an end-of-file probe submitted together:
/// one system call, with no `fstat` for a size hint.
const FIRST_READ: usize = 16 * 1024;

/// Bytes the end-of-file probe asks for, at offset [`FIRST_READ`].
const PROBE: usize = 32;

/// `std::fs::read`.
pub(crate) async fn read(ring: &Arc<Ring>, path: &Path) -> io::Result<Vec<u8>> {
    let fd = Arc::new(open(ring, path, libc::O_RDONLY, 0).await?);
    let first = submit_read(
        ring,
        (fd.clone(), Vec::with_capacity(FIRST_READ)),
        0,
        FIRST_READ,
        false,
    )?;
    let probe = submit_read(
        ring,
        (fd.clone(), Vec::with_capacity(PROBE)),
        FIRST_READ as u64,
        PROBE,
        true,
    )?;
    let (first, (_, mut buf)) = read_result(first).await;
    let (probe, (_, probe_buf)) = read_result(probe).await;
    match (first, probe) {
        // No longer than the first read, and nothing past it: the whole
        // file.
        (Ok(n), Ok(0)) if n <= FIRST_READ => return Ok(buf),
        // Exactly as long as the first read, or longer: the probe's bytes
        // follow on.
        (Ok(FIRST_READ), Ok(_)) => buf.extend_from_slice(&probe_buf),
        // Anything else (a short read, an error to retry or report) goes
        // through the general loop from where the first read stopped.
        (Ok(_), _) => {}
        (Err(e), _) if e.kind() != io::ErrorKind::Interrupted => return Err(e),
        (Err(_), _) => {}
    }
    read_rest(ring, fd, buf).await
}

/// Reads from the end of `buf` on until a read returns 0, with `fstat`'s
/// size (inline: an open descriptor's `fstat` does not block) as the hint,
/// as std's `read` does.
async fn read_rest(ring: &Arc<Ring>, fd: Arc<OwnedFd>, mut buf: Vec<u8>) -> io::Result<Vec<u8>> {
    let hint = std::fs::File::from(fd.try_clone()?)
        .metadata()
        .map(|m| m.len() as usize)
        .unwrap_or(0);
    buf.reserve(hint.saturating_sub(buf.len()).saturating_add(1));
    let mut file_buf = (fd, buf);
    loop {
        let buf = &mut file_buf.1;
        if buf.len() == buf.capacity() {
            buf.reserve(buf.capacity().max(32));
        }
        let offset = buf.len() as u64;
        let result;
        (result, file_buf) = read_at(ring, file_buf, offset, usize::MAX).await?;
        match result {
            Ok(0) => return Ok(file_buf.1),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// `std::fs::write`.
pub(crate) async fn write(ring: &Arc<Ring>, path: &Path, contents: Vec<u8>) -> io::Result<()> {
    let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC;
    let fd = open(ring, path, flags, 0o666).await?;
    write_all(ring, (fd, contents), false).await.map(drop)
}

/// `File::sync_all` (`data_only` false) or `File::sync_data`.
pub(crate) async fn fsync<F: AsRawFd + Send + 'static>(
    ring: &Arc<Ring>,
    fd: F,
    data_only: bool,
) -> io::Result<()> {
    let flags = if data_only {
        types::FsyncFlags::DATASYNC
    } else {
        types::FsyncFlags::empty()
    };
    // SAFETY: the entry names the descriptor the slot's owner keeps open.
    let op = unsafe {
        Op::submit(ring, fd, |fd| {
            opcode::Fsync::new(types::Fd(fd.as_raw_fd()))
                .flags(flags)
                .build()
        })
    }
    .map_err(refused)?;
    op.await.0.map(drop)
}

/// `std::fs::metadata` (`follow`) or `std::fs::symlink_metadata`.
///
/// `std::fs::Metadata` has no public constructor, so the ring does the
/// part that may block, the path walk: an `O_PATH` open (of the link
/// itself when not following), which the kernel answers inside the
/// submission when the dentry cache holds the path and on its worker
/// threads otherwise, and which fails with the error numbers `stat` would
/// give. The descriptor pins the inode, so std's `fstat` on it, inline,
/// cannot block on the disk.
pub(crate) async fn metadata(ring: &Arc<Ring>, path: &Path, follow: bool) -> io::Result<Metadata> {
    let flags = libc::O_PATH | if follow { 0 } else { libc::O_NOFOLLOW };
    let fd = open(ring, path, flags, 0).await?;
    std::fs::File::from(fd).metadata()
}

/// A path operation whose result is only success or an error.
async fn path_op<T: Send + 'static>(
    ring: &Arc<Ring>,
    owned: T,
    build: impl FnOnce(&mut T) -> io_uring::squeue::Entry,
) -> io::Result<()> {
    // SAFETY: every caller builds an entry that points only into `owned`
    // (its `CString`s).
    let op = unsafe { Op::submit(ring, owned, build) }.map_err(refused)?;
    op.await.0.map(drop)
}

/// `std::fs::rename`.
pub(crate) async fn rename(ring: &Arc<Ring>, from: &Path, to: &Path) -> io::Result<()> {
    let paths = (c_path(from)?, c_path(to)?);
    path_op(ring, paths, |(from, to)| {
        let cwd = types::Fd(libc::AT_FDCWD);
        opcode::RenameAt::new(cwd, from.as_ptr(), cwd, to.as_ptr()).build()
    })
    .await
}

/// `std::fs::remove_file` (`dir` false) or `std::fs::remove_dir`.
pub(crate) async fn remove(ring: &Arc<Ring>, path: &Path, dir: bool) -> io::Result<()> {
    let flags = if dir { libc::AT_REMOVEDIR } else { 0 };
    path_op(ring, c_path(path)?, |path| {
        opcode::UnlinkAt::new(types::Fd(libc::AT_FDCWD), path.as_ptr())
            .flags(flags)
            .build()
    })
    .await
}

/// `std::fs::create_dir`.
pub(crate) async fn create_dir(ring: &Arc<Ring>, path: &Path) -> io::Result<()> {
    path_op(ring, c_path(path)?, |path| {
        opcode::MkDirAt::new(types::Fd(libc::AT_FDCWD), path.as_ptr())
            .mode(0o777)
            .build()
    })
    .await
}
