//! [`read_dir`], [`ReadDir`] and [`DirEntry`]: listing a directory, fetching
//! entries from the blocking pool in batches so that a listing does not pay
//! one hop per entry.

use super::blocking::{asyncify, pool_failure};
use rt_core::task::JoinHandle;
use std::collections::VecDeque;
use std::ffi::OsString;
use std::fmt;
use std::fs::{FileType, Metadata};
use std::future::{poll_fn, Future};
use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

/// How many entries one hop to the blocking pool fetches.
const BATCH: usize = 32;

/// Returns a stream over the entries of the directory at `path`.
///
/// The entries come in no particular order and exclude `.` and `..`.
///
/// # Errors
///
/// Those of [`std::fs::read_dir`]: `NotFound`, `PermissionDenied`, or an
/// error if `path` is not a directory.
///
/// ```
/// let rt = rt_core::runtime::Builder::new_current_thread().build().unwrap();
/// rt.block_on(async {
///     let root = std::env::temp_dir().join(format!("rt-fs-doc-readdir-{}", std::process::id()));
///     rt_io::fs::create_dir_all(&root).await?;
///     rt_io::fs::write(root.join("a.txt"), b"a").await?;
///     let mut names = Vec::new();
///     let mut entries = rt_io::fs::read_dir(&root).await?;
///     while let Some(entry) = entries.next_entry().await? {
///         names.push(entry.file_name());
///     }
///     assert_eq!(names, ["a.txt"]);
///     rt_io::fs::remove_dir_all(&root).await
/// })
/// .unwrap();
/// ```
pub async fn read_dir(path: impl AsRef<Path>) -> io::Result<ReadDir> {
    let path = path.as_ref().to_owned();
    let std = asyncify(move || std::fs::read_dir(path)).await?;
    Ok(ReadDir {
        state: State::Idle(Batch {
            entries: VecDeque::new(),
            rest: Some(std),
        }),
    })
}

/// The entries of a directory, returned by [`read_dir`].
pub struct ReadDir {
    state: State,
}

enum State {
    Idle(Batch),
    Fetching(JoinHandle<Batch>),
}

struct Batch {
    entries: VecDeque<io::Result<DirEntry>>,
    /// The rest of the listing; `None` once it is exhausted.
    rest: Option<std::fs::ReadDir>,
}

impl Batch {
    fn fill(mut self) -> Batch {
        if let Some(rest) = &mut self.rest {
            for _ in 0..BATCH {
                match rest.next() {
                    Some(entry) => self.entries.push_back(entry.map(DirEntry::from_std)),
                    None => {
                        self.rest = None;
                        break;
                    }
                }
            }
        }
        self
    }
}

impl ReadDir {
    /// Returns the next entry, or `None` at the end of the directory.
    ///
    /// # Cancel safety
    ///
    /// Cancel safe: a batch being fetched is kept for the next call.
    ///
    /// # Errors
    ///
    /// An error reading the directory; later calls may still return
    /// entries.
    pub async fn next_entry(&mut self) -> io::Result<Option<DirEntry>> {
        poll_fn(|cx| self.poll_next_entry(cx)).await
    }

    /// Polls for the next entry: `Ready(Ok(None))` at the end of the
    /// directory. Only the waker of the last call is woken.
    ///
    /// # Errors
    ///
    /// An error reading the directory.
    pub fn poll_next_entry(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<Option<DirEntry>>> {
        // Entries of a fetched batch are always ready, so they spend budget.
        let coop = ready!(rt_core::task::coop::poll_proceed(cx));
        let out = ready!(self.poll_next_in_batch(cx));
        coop.made_progress();
        Poll::Ready(out)
    }

    fn poll_next_in_batch(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<Option<DirEntry>>> {
        loop {
            match &mut self.state {
                State::Idle(batch) => {
                    if let Some(entry) = batch.entries.pop_front() {
                        return Poll::Ready(entry.map(Some));
                    }
                    if batch.rest.is_none() {
                        return Poll::Ready(Ok(None));
                    }
                    let batch = std::mem::replace(
                        batch,
                        Batch {
                            entries: VecDeque::new(),
                            rest: None,
                        },
                    );
                    self.state =
                        State::Fetching(rt_core::task::spawn_blocking(move || batch.fill()));
                }
                State::Fetching(handle) => {
                    let fetched = ready!(Pin::new(handle).poll(cx));
                    match fetched {
                        Ok(batch) => self.state = State::Idle(batch),
                        Err(_) => {
                            self.state = State::Idle(Batch {
                                entries: VecDeque::new(),
                                rest: None,
                            });
                            return Poll::Ready(Err(pool_failure()));
                        }
                    }
                }
            }
        }
    }
}

impl fmt::Debug for ReadDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadDir").finish_non_exhaustive()
    }
}

/// One entry of a directory listing, yielded by [`ReadDir`].
pub struct DirEntry {
    std: Arc<std::fs::DirEntry>,
    /// Fetched with the batch, since it is usually free there.
    file_type: Option<FileType>,
}

impl DirEntry {
    fn from_std(std: std::fs::DirEntry) -> DirEntry {
        let file_type = std.file_type().ok();
        DirEntry {
            std: Arc::new(std),
            file_type,
        }
    }

    /// The full path: the listed directory joined with the file name.
    pub fn path(&self) -> PathBuf {
        self.std.path()
    }

    /// The bare file name of the entry.
    pub fn file_name(&self) -> OsString {
        self.std.file_name()
    }

    /// The inode number of the entry.
    pub fn ino(&self) -> u64 {
        std::os::unix::fs::DirEntryExt::ino(&*self.std)
    }

    /// The metadata of the entry, without following a symbolic link.
    ///
    /// # Errors
    ///
    /// Those of [`std::fs::DirEntry::metadata`] (e.g. the entry was removed).
    pub async fn metadata(&self) -> io::Result<Metadata> {
        let std = self.std.clone();
        asyncify(move || std.metadata()).await
    }

    /// The type of the entry, without following a symbolic link.
    ///
    /// # Errors
    ///
    /// Those of [`std::fs::DirEntry::file_type`].
    pub async fn file_type(&self) -> io::Result<FileType> {
        if let Some(file_type) = self.file_type {
            return Ok(file_type);
        }
        let std = self.std.clone();
        asyncify(move || std.file_type()).await
    }
}

impl fmt::Debug for DirEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("DirEntry").field(&self.path()).finish()
    }
}
