//! The free functions of `rt::fs`: each runs the matching `std::fs` call on
//! the blocking pool. Whole-file helpers (`read`, `write`, ...) do all their
//! work in one hop. On a runtime with the io_uring driver, those that have
//! an opcode are ring submissions instead (`crate::uring::fs`).

use super::blocking::asyncify;
use std::fs::{Metadata, Permissions};
use std::io;
use std::path::{Path, PathBuf};

fn owned(path: impl AsRef<Path>) -> PathBuf {
    path.as_ref().to_owned()
}

/// Returns the result of `$op` (a `crate::uring::fs` call, which takes the
/// ring first) when the current runtime has the io_uring driver.
macro_rules! on_ring {
    ($op:ident($($arg:expr),* $(,)?)) => {
        #[cfg(all(target_os = "linux", feature = "uring"))]
        if let Some(ring) = crate::uring::current_ring() {
            return crate::uring::fs::$op(&ring, $($arg),*).await;
        }
    };
}

/// Reads the whole file at `path` into a byte vector.
///
/// # Errors
///
/// Those of [`std::fs::read`], e.g. `NotFound`.
///
/// ```
/// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// rt.block_on(async {
///     let path = std::env::temp_dir().join(format!("rt-fs-doc-read-{}", std::process::id()));
///     rt_io::fs::write(&path, b"bytes").await?;
///     assert_eq!(rt_io::fs::read(&path).await?, b"bytes");
///     rt_io::fs::remove_file(&path).await
/// })
/// .unwrap();
/// ```
pub async fn read(path: impl AsRef<Path>) -> io::Result<Vec<u8>> {
    let path = owned(path);
    on_ring!(read(&path));
    asyncify(move || std::fs::read(path)).await
}

/// Reads the whole file at `path` into a string.
///
/// # Errors
///
/// Those of [`std::fs::read_to_string`]; `InvalidData` if the contents are
/// not UTF-8.
pub async fn read_to_string(path: impl AsRef<Path>) -> io::Result<String> {
    let path = owned(path);
    #[cfg(all(target_os = "linux", feature = "uring"))]
    if let Some(ring) = crate::uring::current_ring() {
        let bytes = crate::uring::fs::read(&ring, &path).await?;
        return String::from_utf8(bytes).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                "stream did not contain valid UTF-8",
            )
        });
    }
    asyncify(move || std::fs::read_to_string(path)).await
}

/// Writes `contents` as the whole contents of the file at `path`, creating
/// it if needed and truncating it otherwise.
///
/// # Errors
///
/// Those of [`std::fs::write`].
pub async fn write(path: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> io::Result<()> {
    let path = owned(path);
    let contents = contents.as_ref().to_owned();
    on_ring!(write(&path, contents));
    asyncify(move || std::fs::write(path, contents)).await
}

/// Copies the contents and permissions of the file `from` to `to`,
/// returning the number of bytes copied.
///
/// # Errors
///
/// Those of [`std::fs::copy`].
pub async fn copy(from: impl AsRef<Path>, to: impl AsRef<Path>) -> io::Result<u64> {
    let (from, to) = (owned(from), owned(to));
    asyncify(move || std::fs::copy(from, to)).await
}

/// Renames `from` to `to`, replacing `to` if it is a file.
///
/// # Errors
///
/// Those of [`std::fs::rename`].
pub async fn rename(from: impl AsRef<Path>, to: impl AsRef<Path>) -> io::Result<()> {
    let (from, to) = (owned(from), owned(to));
    on_ring!(rename(&from, &to));
    asyncify(move || std::fs::rename(from, to)).await
}

/// Removes a file.
///
/// # Errors
///
/// Those of [`std::fs::remove_file`], e.g. `NotFound`.
pub async fn remove_file(path: impl AsRef<Path>) -> io::Result<()> {
    let path = owned(path);
    on_ring!(remove(&path, false));
    asyncify(move || std::fs::remove_file(path)).await
}

/// Removes an empty directory.
///
/// # Errors
///
/// Those of [`std::fs::remove_dir`], e.g. when the directory is not empty.
pub async fn remove_dir(path: impl AsRef<Path>) -> io::Result<()> {
    let path = owned(path);
    on_ring!(remove(&path, true));
    asyncify(move || std::fs::remove_dir(path)).await
}

/// Removes a directory and everything in it.
///
/// # Errors
///
/// Those of [`std::fs::remove_dir_all`].
pub async fn remove_dir_all(path: impl AsRef<Path>) -> io::Result<()> {
    let path = owned(path);
    asyncify(move || std::fs::remove_dir_all(path)).await
}

/// Creates a directory; its parent must exist.
///
/// # Errors
///
/// Those of [`std::fs::create_dir`]: `AlreadyExists`, `NotFound` for a
/// missing parent, ...
pub async fn create_dir(path: impl AsRef<Path>) -> io::Result<()> {
    let path = owned(path);
    on_ring!(create_dir(&path));
    asyncify(move || std::fs::create_dir(path)).await
}

/// Creates a directory and any missing parents; succeeds if it exists.
///
/// # Errors
///
/// Those of [`std::fs::create_dir_all`].
pub async fn create_dir_all(path: impl AsRef<Path>) -> io::Result<()> {
    let path = owned(path);
    asyncify(move || std::fs::create_dir_all(path)).await
}

/// Queries the metadata of `path`, following symbolic links.
///
/// # Errors
///
/// Those of [`std::fs::metadata`], e.g. `NotFound`.
pub async fn metadata(path: impl AsRef<Path>) -> io::Result<Metadata> {
    let path = owned(path);
    on_ring!(metadata(&path, true));
    asyncify(move || std::fs::metadata(path)).await
}

/// Queries the metadata of `path` itself, not following a symbolic link.
///
/// # Errors
///
/// Those of [`std::fs::symlink_metadata`].
pub async fn symlink_metadata(path: impl AsRef<Path>) -> io::Result<Metadata> {
    let path = owned(path);
    on_ring!(metadata(&path, false));
    asyncify(move || std::fs::symlink_metadata(path)).await
}

/// Returns the absolute form of `path` with every symbolic link resolved.
///
/// # Errors
///
/// Those of [`std::fs::canonicalize`], e.g. `NotFound`.
pub async fn canonicalize(path: impl AsRef<Path>) -> io::Result<PathBuf> {
    let path = owned(path);
    asyncify(move || std::fs::canonicalize(path)).await
}

/// Returns the target of the symbolic link at `path`.
///
/// # Errors
///
/// Those of [`std::fs::read_link`], e.g. when `path` is not a link.
pub async fn read_link(path: impl AsRef<Path>) -> io::Result<PathBuf> {
    let path = owned(path);
    asyncify(move || std::fs::read_link(path)).await
}

/// Creates a hard link `link` to the file `original`.
///
/// # Errors
///
/// Those of [`std::fs::hard_link`], e.g. `AlreadyExists`.
pub async fn hard_link(original: impl AsRef<Path>, link: impl AsRef<Path>) -> io::Result<()> {
    let (original, link) = (owned(original), owned(link));
    asyncify(move || std::fs::hard_link(original, link)).await
}

/// Creates a symbolic link `link` pointing to `original`. Unix only; on
/// Windows, [`symlink_file`] and [`symlink_dir`].
///
/// # Errors
///
/// Those of [`std::os::unix::fs::symlink`], e.g. `AlreadyExists`.
#[cfg(unix)]
pub async fn symlink(original: impl AsRef<Path>, link: impl AsRef<Path>) -> io::Result<()> {
    let (original, link) = (owned(original), owned(link));
    asyncify(move || std::os::unix::fs::symlink(original, link)).await
}

/// Creates a symbolic link `link` to the file `original`. Windows only.
///
/// # Errors
///
/// Those of [`std::os::windows::fs::symlink_file`], e.g. `AlreadyExists`
/// or a missing privilege.
#[cfg(windows)]
pub async fn symlink_file(original: impl AsRef<Path>, link: impl AsRef<Path>) -> io::Result<()> {
    let (original, link) = (owned(original), owned(link));
    asyncify(move || std::os::windows::fs::symlink_file(original, link)).await
}

/// Creates a symbolic link `link` to the directory `original`. Windows
/// only.
///
/// # Errors
///
/// Those of [`std::os::windows::fs::symlink_dir`], e.g. `AlreadyExists`
/// or a missing privilege.
#[cfg(windows)]
pub async fn symlink_dir(original: impl AsRef<Path>, link: impl AsRef<Path>) -> io::Result<()> {
    let (original, link) = (owned(original), owned(link));
    asyncify(move || std::os::windows::fs::symlink_dir(original, link)).await
}

/// Whether `path` exists, following symbolic links. A broken link gives
/// `Ok(false)`.
///
/// # Errors
///
/// When existence cannot be decided, e.g. `PermissionDenied` on a parent.
pub async fn try_exists(path: impl AsRef<Path>) -> io::Result<bool> {
    let path = owned(path);
    asyncify(move || path.try_exists()).await
}

/// Changes the permissions of the file or directory at `path`.
///
/// # Errors
///
/// Those of [`std::fs::set_permissions`].
pub async fn set_permissions(path: impl AsRef<Path>, perm: Permissions) -> io::Result<()> {
    let path = owned(path);
    asyncify(move || std::fs::set_permissions(path, perm)).await
}
