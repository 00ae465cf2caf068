//! [`File`]: an open file whose reads, writes and seeks run on the blocking
//! pool, batched through an internal buffer so that many small operations
//! share one hop to the pool. On a runtime with the io_uring driver the
//! same batches are ring submissions (`ring_job`), and `sync_all` and
//! `sync_data` are `fsync` submissions.

mod job;
#[cfg(all(target_os = "linux", feature = "uring"))]
mod ring_job;
mod state;

use super::blocking::asyncify;
use super::OpenOptions;
use crate::io::{AsyncRead, AsyncSeek, AsyncWrite, ReadBuf};
use rt_core::loom::sync::{Mutex, MutexGuard};
use state::State;
use std::fmt;
use std::fs::{File as StdFile, FileTimes, Metadata, Permissions};
use std::future::poll_fn;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

/// A reference to an open file on the file system.
///
/// `File` implements [`AsyncRead`], [`AsyncWrite`] and [`AsyncSeek`]; use the
/// extension traits in [`rt_io::io`](crate::io) to call them from `async`
/// code. The blocking system calls run on the runtime's blocking pool, so
/// every method must be called from within a runtime.
///
/// # Buffering
///
/// A small read fetches a large chunk (64 KiB) in one blocking call and later
/// reads are served from memory. Writes are collected in memory and written
/// in one blocking call when 64 KiB have gathered, or on
/// [`flush`](crate::io::AsyncWriteExt::flush), a seek, a read or a sync.
/// Bytes still buffered when the file is dropped are written by `drop`
/// itself (a write in flight finishes on the pool). A write therefore reports success once its
/// bytes are accepted; a failure to write them is reported by the next
/// operation, so call `flush` and check its result to observe it.
///
/// One operation runs at a time: an operation started and then abandoned
/// (its future dropped) still completes before the next one starts, so no
/// accepted byte is lost or written twice.
///
/// ```
/// use rt_io::fs::File;
/// use rt_io::io::{AsyncReadExt, AsyncWriteExt};
///
/// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// rt.block_on(async {
///     let path = std::env::temp_dir().join(format!("rt-fs-doc-file-{}", std::process::id()));
///     let mut file = File::create(&path).await?;
///     file.write_all(b"hello").await?;
///     file.flush().await?;
///
///     let mut contents = String::new();
///     File::open(&path).await?.read_to_string(&mut contents).await?;
///     assert_eq!(contents, "hello");
///     rt_io::fs::remove_file(&path).await
/// })
/// .unwrap();
/// ```
pub struct File {
    std: Arc<StdFile>,
    state: Mutex<State>,
}

impl File {
    /// Opens a file in read-only mode.
    ///
    /// # Errors
    ///
    /// Those of [`std::fs::File::open`], e.g. `NotFound`.
    pub async fn open(path: impl AsRef<Path>) -> io::Result<File> {
        OpenOptions::new().read(true).open(path).await
    }

    /// Opens a file in write-only mode, creating it if needed and
    /// truncating it if it exists.
    ///
    /// # Errors
    ///
    /// Those of [`std::fs::File::create`].
    pub async fn create(path: impl AsRef<Path>) -> io::Result<File> {
        OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .await
    }

    /// Creates a new file in read-write mode; fails if it already exists.
    ///
    /// # Errors
    ///
    /// `AlreadyExists` if the path exists, and the errors of opening.
    pub async fn create_new(path: impl AsRef<Path>) -> io::Result<File> {
        OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .await
    }

    /// Returns a new [`OpenOptions`] to open a file with chosen options.
    pub fn options() -> OpenOptions {
        OpenOptions::new()
    }

    /// Wraps an already open standard file.
    pub fn from_std(std: StdFile) -> File {
        File {
            std: Arc::new(std),
            state: Mutex::new(State::new()),
        }
    }

    /// Flushes buffered writes to the OS and then the OS's buffers to the
    /// device, data and metadata.
    ///
    /// # Errors
    ///
    /// A failed buffered write, or the error of [`std::fs::File::sync_all`].
    pub async fn sync_all(&self) -> io::Result<()> {
        self.settle(false).await?;
        let std = self.std.clone();
        #[cfg(all(target_os = "linux", feature = "uring"))]
        if let Some(ring) = crate::uring::current_ring() {
            return crate::uring::fs::fsync(&ring, std, false).await;
        }
        asyncify(move || std.sync_all()).await
    }

    /// Like [`sync_all`](File::sync_all) but may skip metadata that is not
    /// needed to read the data back.
    ///
    /// # Errors
    ///
    /// A failed buffered write, or the error of [`std::fs::File::sync_data`].
    pub async fn sync_data(&self) -> io::Result<()> {
        self.settle(false).await?;
        let std = self.std.clone();
        #[cfg(all(target_os = "linux", feature = "uring"))]
        if let Some(ring) = crate::uring::current_ring() {
            return crate::uring::fs::fsync(&ring, std, true).await;
        }
        asyncify(move || std.sync_data()).await
    }

    /// Truncates or extends the file to `size` bytes, after writing out
    /// buffered bytes. The cursor does not move.
    ///
    /// # Errors
    ///
    /// A failed buffered write, or the error of [`std::fs::File::set_len`]
    /// (e.g. the file is not open for writing).
    pub async fn set_len(&self, size: u64) -> io::Result<()> {
        self.settle(true).await?;
        let std = self.std.clone();
        asyncify(move || std.set_len(size)).await
    }

    /// Queries metadata about the file, after buffered writes reached it.
    ///
    /// # Errors
    ///
    /// A failed buffered write, or the error of [`std::fs::File::metadata`].
    pub async fn metadata(&self) -> io::Result<Metadata> {
        self.settle(false).await?;
        let std = self.std.clone();
        asyncify(move || std.metadata()).await
    }

    /// Creates a second `File` for the same open file; both share the
    /// cursor. Buffered writes are written out first.
    ///
    /// # Errors
    ///
    /// A failed buffered write, or the error of
    /// [`std::fs::File::try_clone`].
    pub async fn try_clone(&self) -> io::Result<File> {
        self.settle(true).await?;
        let std = self.std.clone();
        let max_buf_size = self.lock().max_buf_size;
        let mut clone = asyncify(move || std.try_clone())
            .await
            .map(File::from_std)?;
        clone.set_max_buf_size(max_buf_size);
        Ok(clone)
    }

    /// Sets the file's access and modification times (those `times` names),
    /// after buffered writes reached the file so that they cannot change
    /// the times afterwards.
    ///
    /// # Errors
    ///
    /// A failed buffered write, or the error of
    /// [`std::fs::File::set_times`].
    pub async fn set_times(&self, times: FileTimes) -> io::Result<()> {
        self.settle(false).await?;
        let std = self.std.clone();
        asyncify(move || std.set_times(times)).await
    }

    /// Sets the file's modification time; the access time is left alone.
    ///
    /// # Errors
    ///
    /// As for [`set_times`](Self::set_times).
    pub async fn set_modified(&self, time: std::time::SystemTime) -> io::Result<()> {
        self.set_times(FileTimes::new().set_modified(time)).await
    }

    /// The largest number of bytes one blocking read or write moves (see
    /// [`set_max_buf_size`](Self::set_max_buf_size)).
    pub fn max_buf_size(&self) -> usize {
        self.lock().max_buf_size
    }

    /// Changes the permissions of the file.
    ///
    /// # Errors
    ///
    /// The error of [`std::fs::File::set_permissions`].
    pub async fn set_permissions(&self, perm: Permissions) -> io::Result<()> {
        let std = self.std.clone();
        asyncify(move || std.set_permissions(perm)).await
    }

    /// Sets the largest number of bytes one blocking read or write moves
    /// (2 MiB by default; at least 1).
    pub fn set_max_buf_size(&mut self, max_buf_size: usize) {
        self.state_mut().max_buf_size = max_buf_size.max(1);
    }

    /// Waits for operations in flight, writes out buffered bytes, moves the
    /// OS cursor back over any read-ahead, and returns the standard file.
    ///
    /// A buffered write that fails here is lost; call
    /// [`flush`](crate::io::AsyncWriteExt::flush) first to observe it.
    pub async fn into_std(self) -> StdFile {
        // The error is dropped by design (see above); the file is still
        // returned.
        let _ = self.settle(true).await;
        let std = self.std.clone();
        drop(self);
        // Jobs drop their reference to the file before they report
        // completion, and a settled file has no bytes left for `Drop` to
        // write, so `std` is the only reference left.
        Arc::try_unwrap(std)
            .unwrap_or_else(|_| unreachable!("no job holds the file once it has settled"))
    }

    /// Returns the standard file at once if nothing is in flight or waiting
    /// to be written; otherwise gives `self` back. Read-ahead is undone with
    /// a seek.
    ///
    /// # Errors
    ///
    /// `self`, unchanged, if an operation is in flight, bytes wait to be
    /// written, an error waits to be reported, or the seek back failed.
    pub fn try_into_std(mut self) -> Result<StdFile, File> {
        let state = self.state_mut();
        if state.is_busy_or_dirty() {
            return Err(self);
        }
        let back = state.read_ahead_len();
        if back > 0 {
            let Ok(back) = i64::try_from(back) else {
                return Err(self);
            };
            if (&*self.std).seek(SeekFrom::Current(-back)).is_err() {
                return Err(self);
            }
            self.state_mut().clear_read_ahead();
        }
        let std = self.std.clone();
        drop(self);
        Arc::try_unwrap(std).map_err(File::from_arc)
    }

    fn from_arc(std: Arc<StdFile>) -> File {
        File {
            std,
            state: Mutex::new(State::new()),
        }
    }

    /// Waits for the job in flight and writes out buffered bytes; with
    /// `drop_read_ahead` the OS cursor is also brought back in step.
    async fn settle(&self, drop_read_ahead: bool) -> io::Result<()> {
        poll_fn(|cx| self.lock().poll_flush(cx, &self.std, drop_read_ahead)).await
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn state_mut(&mut self) -> &mut State {
        self.state.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    fn parts(&mut self) -> (&Arc<StdFile>, &mut State) {
        let state = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        (&self.std, state)
    }
}

impl From<StdFile> for File {
    fn from(std: StdFile) -> File {
        File::from_std(std)
    }
}

impl fmt::Debug for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("File").field("std", &self.std).finish()
    }
}

impl AsyncRead for File {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let (std, state) = self.get_mut().parts();
        // Reads served from memory are always ready, so they spend budget,
        // one unit per `READS_PER_BUDGET_UNIT` reads: a byte-sized read
        // loop still yields regularly, without a scheduler round trip every
        // 128 tiny reads.
        let coop = if state.charge_read() {
            Some(ready!(rt_core::task::coop::poll_proceed(cx)))
        } else {
            None
        };
        let out = ready!(state.poll_read(cx, std, buf));
        if let Some(coop) = &coop {
            coop.made_progress();
        }
        Poll::Ready(out)
    }
}

impl AsyncWrite for File {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let coop = ready!(rt_core::task::coop::poll_proceed(cx));
        let (std, state) = self.get_mut().parts();
        let out = ready!(state.poll_write(cx, std, buf));
        coop.made_progress();
        Poll::Ready(out)
    }

    /// Buffers the slices in order, stopping at the first one not taken
    /// whole, or once a write job is in flight (waiting for it is left to
    /// the next call, so that its result is not mixed into this one).
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let coop = ready!(rt_core::task::coop::poll_proceed(cx));
        let (std, state) = self.get_mut().parts();
        let mut total = 0;
        for buf in bufs.iter().filter(|b| !b.is_empty()) {
            if total > 0 && state.is_busy() {
                break;
            }
            match state.poll_write(cx, std, buf) {
                Poll::Ready(Ok(n)) => {
                    total += n;
                    if n < buf.len() {
                        break;
                    }
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending if total == 0 => return Poll::Pending,
                Poll::Pending => break,
            }
        }
        coop.made_progress();
        Poll::Ready(Ok(total))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let coop = ready!(rt_core::task::coop::poll_proceed(cx));
        let (std, state) = self.get_mut().parts();
        let out = ready!(state.poll_flush(cx, std, false));
        coop.made_progress();
        Poll::Ready(out)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.poll_flush(cx)
    }
}

impl AsyncSeek for File {
    fn start_seek(self: Pin<&mut Self>, position: SeekFrom) -> io::Result<()> {
        let (std, state) = self.get_mut().parts();
        state.start_seek(std, position)
    }

    fn poll_complete(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<u64>> {
        // A known position is returned at once, so this spends budget too.
        let coop = ready!(rt_core::task::coop::poll_proceed(cx));
        let (std, state) = self.get_mut().parts();
        let out = ready!(state.poll_complete(cx, std));
        coop.made_progress();
        Poll::Ready(out)
    }
}

impl Drop for File {
    fn drop(&mut self) {
        let Some((rewind, buf)) = self.state_mut().take_pending_writes() else {
            return;
        };
        // Written here rather than on the pool: the batch is small (below
        // 64 KiB), and once `drop` returns the bytes are in the OS, so a
        // reopen sees them, as with `std::io::BufWriter`. Nobody is left to
        // report an error to, so it is dropped.
        let mut file = &*self.std;
        if rewind > 0 {
            let back = i64::try_from(rewind).unwrap_or(i64::MAX);
            if file.seek(SeekFrom::Current(-back)).is_err() {
                return;
            }
        }
        let _ = file.write_all(&buf);
    }
}

#[cfg(unix)]
impl std::os::unix::io::AsRawFd for File {
    fn as_raw_fd(&self) -> std::os::unix::io::RawFd {
        self.std.as_raw_fd()
    }
}

#[cfg(unix)]
impl std::os::unix::io::FromRawFd for File {
    /// Takes ownership of `fd` as a file.
    ///
    /// # Safety
    ///
    /// `fd` must be an open descriptor that nothing else owns, as for
    /// `std::fs::File::from_raw_fd`.
    unsafe fn from_raw_fd(fd: std::os::unix::io::RawFd) -> File {
        // SAFETY: the caller hands over sole ownership of an open `fd`.
        File::from_std(unsafe { <StdFile as std::os::unix::io::FromRawFd>::from_raw_fd(fd) })
    }
}

#[cfg(unix)]
impl std::os::unix::io::AsFd for File {
    fn as_fd(&self) -> std::os::unix::io::BorrowedFd<'_> {
        self.std.as_fd()
    }
}

#[cfg(windows)]
impl std::os::windows::io::AsRawHandle for File {
    fn as_raw_handle(&self) -> std::os::windows::io::RawHandle {
        self.std.as_raw_handle()
    }
}

#[cfg(windows)]
impl std::os::windows::io::FromRawHandle for File {
    /// Takes ownership of `handle` as a file.
    ///
    /// # Safety
    ///
    /// `handle` must be an open file handle that nothing else owns, as for
    /// `std::fs::File::from_raw_handle`.
    unsafe fn from_raw_handle(handle: std::os::windows::io::RawHandle) -> File {
        // SAFETY: the caller hands over sole ownership of an open `handle`.
        File::from_std(unsafe {
            <StdFile as std::os::windows::io::FromRawHandle>::from_raw_handle(handle)
        })
    }
}

#[cfg(windows)]
impl std::os::windows::io::AsHandle for File {
    fn as_handle(&self) -> std::os::windows::io::BorrowedHandle<'_> {
        self.std.as_handle()
    }
}
