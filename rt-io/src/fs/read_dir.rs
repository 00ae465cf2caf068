//! [`read_dir`], [`ReadDir`] and [`DirEntry`]: listing a directory, fetching
//! entries from the blocking pool in batches so that a listing does not pay
//! one hop per entry, and in growing batches so that a long listing pays
//! few hops at all.

use super::blocking::{asyncify, pool_failure};
use rt_core::task::JoinHandle;
use std::ffi::OsString;
use std::fmt;
use std::fs::{FileType, Metadata};
use std::future::{poll_fn, Future};
use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

/// How many entries the first hop to the blocking pool (the one that opens
/// the directory) fetches: enough for most directories, few enough that a
/// caller who wants only the first entries does not wait for many.
const FIRST_BATCH: usize = 32;

/// The most entries one hop fetches. Each hop after the first fetches twice
/// as many as the one before, up to this: a hop costs tens of microseconds
/// of thread hand-offs whatever it fetches, so a listing of 1,000 entries
/// takes 6 hops instead of 32. The vector of a batch of 512 takes 24 KiB
/// (48 bytes an entry, the names apart).
const LARGEST_BATCH: usize = 512;

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
    // Opening and the first batch share one hop to the blocking pool.
    let first = asyncify(move || {
        std::fs::read_dir(path).map(|rest| Batch::fetch(Arc::new(Vec::new()), rest, FIRST_BATCH))
    })
    .await?;
    Ok(ReadDir {
        state: State::Idle(first),
    })
}

/// The entries of a directory, returned by [`read_dir`].
pub struct ReadDir {
    state: State,
}

// On Windows std's directory iterator holds a whole `WIN32_FIND_DATAW`
// (about 600 bytes); a batch moves once per hop to the blocking pool,
// where the directory calls cost far more than the copy.
#[cfg_attr(windows, allow(clippy::large_enum_variant))]
enum State {
    Idle(Batch),
    Fetching(JoinHandle<Batch>),
    /// The listing is over because the blocking pool failed a fetch (and,
    /// for a moment, the state while a batch is handed to the next fetch).
    Ended,
}

/// The entries one hop to the blocking pool fetched.
struct Batch {
    /// Shared with the [`DirEntry`]s handed out from it: one allocation
    /// per batch rather than one per entry, and none at all when no entry
    /// of the previous batch is still held (its storage is reused, grown
    /// only while the batches grow).
    listed: Arc<Vec<Listed>>,
    /// How many entries this hop was asked for (it fetched fewer only at an
    /// error or at the end of the listing).
    size: usize,
    /// How many of `listed` were handed out.
    taken: usize,
    /// The error that ended this hop, handed out after its entries.
    error: Option<io::Error>,
    /// The rest of the listing; `None` once it is exhausted.
    rest: Option<std::fs::ReadDir>,
}

/// One entry as the blocking pool read it.
struct Listed {
    std: std::fs::DirEntry,
    /// Read with the entry, since it is usually free there.
    file_type: Option<FileType>,
}

impl Batch {
    /// Reads up to `size` entries of `rest` into `listed`, stopping early
    /// at an error or at the end of the listing. Runs on the blocking pool.
    ///
    /// `listed` is the previous batch's storage: when none of its entries
    /// is held any more, it is emptied and reused here, so the entries are
    /// freed by the thread that allocated them and the batch allocates
    /// nothing but the entries' names (and room for more entries, when it
    /// is larger than the one before); otherwise a fresh one is allocated.
    fn fetch(mut listed: Arc<Vec<Listed>>, mut rest: std::fs::ReadDir, size: usize) -> Batch {
        let entries = match Arc::get_mut(&mut listed) {
            Some(entries) => {
                // Grown before the old entries are freed: a large request
                // makes glibc's malloc merge the small chunks freed just
                // before, and the new names are then cut from the merged
                // space instead of taken from its caches.
                entries.reserve(size.saturating_sub(entries.len()));
                entries.clear();
                entries
            }
            None => {
                listed = Arc::new(Vec::with_capacity(size));
                Arc::get_mut(&mut listed).expect("a new Arc is unique")
            }
        };
        let mut error = None;
        let mut more = true;
        while entries.len() < size {
            match rest.next() {
                Some(Ok(std)) => entries.push(Listed {
                    file_type: std.file_type().ok(),
                    std,
                }),
                Some(Err(err)) => {
                    error = Some(err);
                    break;
                }
                None => {
                    more = false;
                    break;
                }
            }
        }
        Batch {
            listed,
            size,
            taken: 0,
            error,
            rest: more.then_some(rest),
        }
    }

    /// The next entry not yet handed out.
    fn next_entry(&mut self) -> Option<DirEntry> {
        if self.taken == self.listed.len() {
            return None;
        }
        let index = self.taken;
        self.taken += 1;
        Some(DirEntry {
            batch: self.listed.clone(),
            index,
        })
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
                    if let Some(entry) = batch.next_entry() {
                        return Poll::Ready(Ok(Some(entry)));
                    }
                    if let Some(err) = batch.error.take() {
                        return Poll::Ready(Err(err));
                    }
                    let Some(rest) = batch.rest.take() else {
                        return Poll::Ready(Ok(None));
                    };
                    // The batch's storage goes to the fetch, which reuses
                    // it if no entry of it is held elsewhere.
                    let State::Idle(Batch { listed, size, .. }) =
                        std::mem::replace(&mut self.state, State::Ended)
                    else {
                        unreachable!("matched as idle above")
                    };
                    let size = next_batch_size(size);
                    self.state = State::Fetching(rt_core::task::spawn_blocking(move || {
                        Batch::fetch(listed, rest, size)
                    }));
                }
                State::Fetching(handle) => {
                    let fetched = ready!(Pin::new(handle).poll(cx));
                    match fetched {
                        Ok(batch) => self.state = State::Idle(batch),
                        Err(_) => {
                            self.state = State::Ended;
                            return Poll::Ready(Err(pool_failure()));
                        }
                    }
                }
                State::Ended => return Poll::Ready(Ok(None)),
            }
        }
    }
}

/// The size of the hop after one of `size` entries.
fn next_batch_size(size: usize) -> usize {
    (size * 2).min(LARGEST_BATCH)
}

impl fmt::Debug for ReadDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadDir").finish_non_exhaustive()
    }
}

/// One entry of a directory listing, yielded by [`ReadDir`].
///
/// Entries fetched in the same hop to the blocking pool share one
/// allocation, which lives as long as any of them.
pub struct DirEntry {
    batch: Arc<Vec<Listed>>,
    index: usize,
}

impl DirEntry {
    fn listed(&self) -> &Listed {
        &self.batch[self.index]
    }

    /// Another handle to the same entry, for a blocking-pool call.
    fn share(&self) -> DirEntry {
        DirEntry {
            batch: self.batch.clone(),
            index: self.index,
        }
    }

    /// The full path: the listed directory joined with the file name.
    pub fn path(&self) -> PathBuf {
        self.listed().std.path()
    }

    /// The bare file name of the entry.
    pub fn file_name(&self) -> OsString {
        self.listed().std.file_name()
    }

    /// The inode number of the entry. Unix only.
    #[cfg(unix)]
    pub fn ino(&self) -> u64 {
        std::os::unix::fs::DirEntryExt::ino(&self.listed().std)
    }

    /// The metadata of the entry, without following a symbolic link.
    ///
    /// # Errors
    ///
    /// Those of [`std::fs::DirEntry::metadata`] (e.g. the entry was removed).
    pub async fn metadata(&self) -> io::Result<Metadata> {
        let entry = self.share();
        asyncify(move || entry.listed().std.metadata()).await
    }

    /// The type of the entry, without following a symbolic link.
    ///
    /// # Errors
    ///
    /// Those of [`std::fs::DirEntry::file_type`].
    pub async fn file_type(&self) -> io::Result<FileType> {
        if let Some(file_type) = self.listed().file_type {
            return Ok(file_type);
        }
        let entry = self.share();
        asyncify(move || entry.listed().std.file_type()).await
    }
}

impl fmt::Debug for DirEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("DirEntry").field(&self.path()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_double_from_the_first_up_to_the_largest() {
        let sizes: Vec<usize> =
            std::iter::successors(Some(FIRST_BATCH), |&size| Some(next_batch_size(size)))
                .take(7)
                .collect();
        assert_eq!(sizes, [32, 64, 128, 256, 512, 512, 512]);
    }

    /// The size `LARGEST_BATCH`'s comment gives for an entry.
    #[test]
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    fn a_listed_entry_takes_48_bytes() {
        assert_eq!(std::mem::size_of::<Listed>(), 48);
    }
}
