//! One batch of blocking work for a [`File`](super::File): undo a read-ahead,
//! write the buffered bytes, then do one action, all in a single hop to the
//! blocking pool. The result comes back through a [`Completion`] that any
//! number of tasks may wait on.

use super::super::blocking::pool_failure;
use rt_core::loom::sync::Mutex;
use std::fs::File as StdFile;
use std::io::{self, Seek, SeekFrom, Write};
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

/// What a job does after writing the buffered bytes.
#[derive(Debug, Clone, Copy)]
pub(super) enum Action {
    /// Nothing more: the job was a flush.
    Nothing,
    /// Read up to this many bytes into the job's buffer.
    Read(usize),
    /// Move the cursor.
    Seek(SeekFrom),
}

/// The work sent to the blocking pool.
pub(super) struct Job {
    /// Bytes the OS cursor is ahead of the logical one (an abandoned
    /// read-ahead); the job seeks back by this much first.
    pub(super) rewind: u64,
    /// Buffered bytes to write (possibly empty). For a read, the same vector
    /// is reused to receive the data.
    pub(super) buf: Vec<u8>,
    pub(super) action: Action,
}

/// What a finished action produced.
#[derive(Debug)]
pub(super) enum Done {
    Nothing,
    /// The bytes read are in the outcome's buffer (empty at end of file).
    Read,
    /// The new position.
    Seek(u64),
}

/// A finished job: the buffer handed back for reuse and the result.
pub(super) struct Outcome {
    pub(super) buf: Vec<u8>,
    pub(super) result: io::Result<Done>,
}

impl Job {
    fn run(mut self, file: &StdFile) -> Outcome {
        let result = self.run_steps(file);
        if !matches!(result, Ok(Done::Read)) {
            self.buf.clear();
        }
        Outcome {
            buf: self.buf,
            result,
        }
    }

    fn run_steps(&mut self, mut file: &StdFile) -> io::Result<Done> {
        if self.rewind > 0 {
            // A read-ahead never exceeds the buffer limit, which fits in i64.
            file.seek(SeekFrom::Current(-(self.rewind as i64)))?;
        }
        if !self.buf.is_empty() {
            let written = file.write_all(&self.buf);
            self.buf.clear();
            written?;
        }
        match self.action {
            Action::Nothing => Ok(Done::Nothing),
            Action::Seek(to) => file.seek(to).map(Done::Seek),
            Action::Read(len) => {
                self.buf.clear();
                loop {
                    match read_into_spare(file, &mut self.buf, len) {
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        Ok(_) => return Ok(Done::Read),
                        Err(e) => return Err(e),
                    }
                }
            }
        }
    }
}

/// Reads at most `len` bytes from `file` into `buf`'s spare capacity
/// (growing it to `len` first) and sets `buf`'s length to what arrived.
///
/// On Unix the bytes go straight into the uninitialised capacity: zeroing
/// up to 2 MiB of read-ahead first, only for the kernel to overwrite it,
/// was the largest cost of a buffered read.
#[cfg(unix)]
fn read_into_spare(file: &StdFile, buf: &mut Vec<u8>, len: usize) -> io::Result<usize> {
    use std::os::fd::AsRawFd;
    buf.reserve(len);
    let spare = buf.spare_capacity_mut();
    let len = len.min(spare.len());
    // SAFETY: `spare` is valid for writes of `len` bytes (it is at least
    // that long) and `read` writes at most `len` bytes into it; the fd is
    // open for as long as `file` is borrowed.
    let n = unsafe { libc::read(file.as_raw_fd(), spare.as_mut_ptr().cast(), len) };
    let Ok(n) = usize::try_from(n) else {
        return Err(io::Error::last_os_error());
    };
    // SAFETY: the kernel initialised the first `n <= len` bytes of the
    // spare capacity, right after the current length.
    unsafe { buf.set_len(buf.len() + n) };
    Ok(n)
}

/// Reads at most `len` bytes from `file` into `buf` (zeroed first).
#[cfg(not(unix))]
fn read_into_spare(mut file: &StdFile, buf: &mut Vec<u8>, len: usize) -> io::Result<usize> {
    use std::io::Read;
    let start = buf.len();
    buf.resize(start + len, 0);
    let read = file.read(&mut buf[start..]);
    buf.truncate(start + *read.as_ref().unwrap_or(&0));
    read
}

/// The meeting point between a job on the blocking pool and the tasks
/// waiting for it.
///
/// Several tasks can wait on the same job (a `&File` method waiting for a
/// read another task started), so every waiter's waker is kept, not only
/// the last one.
pub(super) struct Completion {
    slot: Arc<Mutex<Slot>>,
}

struct Slot {
    outcome: Option<Outcome>,
    waiters: Vec<Waker>,
}

/// Publishes the job's outcome; if the job is dropped without running (the
/// pool shut down, or the job panicked) it publishes an error instead, so no
/// waiter hangs.
struct Publisher {
    slot: Option<Arc<Mutex<Slot>>>,
}

impl Publisher {
    fn publish(&mut self, outcome: Outcome) {
        let Some(slot) = self.slot.take() else { return };
        let waiters = {
            let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
            slot.outcome = Some(outcome);
            std::mem::take(&mut slot.waiters)
        };
        for waker in waiters {
            waker.wake();
        }
    }
}

impl Drop for Publisher {
    fn drop(&mut self) {
        self.publish(Outcome {
            buf: Vec::new(),
            result: Err(pool_failure()),
        });
    }
}

impl Completion {
    /// Sends `job` to the blocking pool of the current runtime.
    ///
    /// # Panics
    ///
    /// Outside a runtime, like every `rt::fs` operation.
    pub(super) fn spawn(job: Job, file: &Arc<StdFile>) -> Completion {
        let slot = Arc::new(Mutex::new(Slot {
            outcome: None,
            waiters: Vec::new(),
        }));
        let mut publisher = Publisher {
            slot: Some(slot.clone()),
        };
        let file = file.clone();
        #[cfg(all(target_os = "linux", feature = "uring"))]
        if let Some(ring) = crate::uring::current_ring() {
            // The job's steps are submissions: a task of the runtime runs
            // them, and the result travels through the slot as below.
            drop(rt_core::task::spawn(async move {
                let outcome = job.run_on_ring(&ring, file).await;
                publisher.publish(outcome);
            }));
            return Completion { slot };
        }
        // The join handle is dropped: the result travels through the slot.
        drop(rt_core::task::spawn_blocking(move || {
            let outcome = job.run(&file);
            // Release the file before waking anyone, so that a waiter may
            // take sole ownership of it (`File::into_std`).
            drop(file);
            publisher.publish(outcome);
        }));
        Completion { slot }
    }

    /// Takes the outcome if the job finished; otherwise registers the
    /// caller's waker.
    pub(super) fn poll(&self, cx: &mut Context<'_>) -> Poll<Outcome> {
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(outcome) = slot.outcome.take() {
            return Poll::Ready(outcome);
        }
        if !slot.waiters.iter().any(|w| w.will_wake(cx.waker())) {
            slot.waiters.push(cx.waker().clone());
        }
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::Wake;

    fn scratch_file(name: &str, contents: &[u8]) -> (std::path::PathBuf, StdFile) {
        let path = std::env::temp_dir().join(format!("rt-fs-unit-{name}-{}", std::process::id()));
        std::fs::write(&path, contents).unwrap();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        (path, file)
    }

    #[test]
    fn a_job_rewinds_then_writes_then_reads() {
        let (path, mut file) = scratch_file("job", b"0123456789");
        // The OS cursor is at 6 but the caller has only consumed 2 bytes.
        file.seek(SeekFrom::Start(6)).unwrap();
        let job = Job {
            rewind: 4,
            buf: b"ab".to_vec(),
            action: Action::Read(3),
        };
        let outcome = job.run(&file);
        assert!(matches!(outcome.result, Ok(Done::Read)));
        // One read may return fewer bytes than asked: POSIX allows it, and
        // Miri shortens file reads at random.
        let read = outcome.buf.len();
        assert!(read >= 1 && outcome.buf[..] == b"456"[..read]);
        assert_eq!(std::fs::read(&path).unwrap(), b"01ab456789");
        let seek = Job {
            rewind: 0,
            buf: Vec::new(),
            action: Action::Seek(SeekFrom::Current(0)),
        };
        assert!(matches!(seek.run(&file).result, Ok(Done::Seek(at)) if at == 4 + read as u64));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_failed_write_skips_the_action_and_returns_an_empty_buffer() {
        let path = std::env::temp_dir().join(format!("rt-fs-unit-ro-{}", std::process::id()));
        std::fs::write(&path, b"x").unwrap();
        let read_only = StdFile::open(&path).unwrap();
        let job = Job {
            rewind: 0,
            buf: b"data".to_vec(),
            action: Action::Read(10),
        };
        let outcome = job.run(&read_only);
        assert!(outcome.result.is_err());
        assert!(outcome.buf.is_empty());
        std::fs::remove_file(&path).unwrap();
    }

    struct CountWakes(AtomicUsize);

    impl Wake for CountWakes {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_job_dropped_unrun_wakes_every_waiter_with_an_error() {
        let slot = Arc::new(Mutex::new(Slot {
            outcome: None,
            waiters: Vec::new(),
        }));
        let completion = Completion { slot: slot.clone() };
        let counters: Vec<_> = (0..2)
            .map(|_| Arc::new(CountWakes(AtomicUsize::new(0))))
            .collect();
        for counter in &counters {
            let waker = Waker::from(counter.clone());
            let mut cx = Context::from_waker(&waker);
            assert!(completion.poll(&mut cx).is_pending());
            // A second poll with the same waker is not stored twice.
            assert!(completion.poll(&mut cx).is_pending());
        }
        drop(Publisher { slot: Some(slot) });
        for counter in &counters {
            let wakes = counter.0.load(Ordering::SeqCst);
            // `will_wake` compares vtable addresses, which Miri does not
            // keep unique: there the second poll may store its waker again.
            if cfg!(miri) {
                assert!(wakes >= 1);
            } else {
                assert_eq!(wakes, 1);
            }
        }
        let waker = Waker::from(counters[0].clone());
        let mut cx = Context::from_waker(&waker);
        match completion.poll(&mut cx) {
            Poll::Ready(outcome) => assert!(outcome.result.is_err()),
            Poll::Pending => panic!("the outcome was published"),
        }
    }
}
