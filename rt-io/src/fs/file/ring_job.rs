//! A [`Job`] run as io_uring submissions instead of on the blocking pool,
//! when the runtime has the io_uring driver: the same steps (undo the
//! read-ahead, write the buffered bytes, then the action) with the same
//! outcome, inside a task of the runtime.
//!
//! Reads and writes go through the file's position (offset -1 in the
//! submission), as `read(2)` and `write(2)` do, so that seeks, `O_APPEND`
//! and a `File` shared with std keep std's semantics. Seeks stay inline:
//! `lseek` never blocks.

use super::job::{Action, Done, Job, Outcome};
use crate::uring::fs::{read_at, write_all_at_position, AT_POSITION};
use crate::uring::Ring;
use std::fs::File as StdFile;
use std::io::{self, Seek, SeekFrom};
use std::sync::Arc;

impl Job {
    /// Runs the job's steps on `ring`; `file` is released before the
    /// outcome is returned.
    pub(super) async fn run_on_ring(self, ring: &Arc<Ring>, file: Arc<StdFile>) -> Outcome {
        let Job {
            rewind,
            buf,
            action,
        } = self;
        let (result, mut buf) = steps(ring, file, rewind, buf, action).await;
        if !matches!(result, Ok(Done::Read)) {
            buf.clear();
        }
        Outcome { buf, result }
    }
}

async fn steps(
    ring: &Arc<Ring>,
    file: Arc<StdFile>,
    rewind: u64,
    buf: Vec<u8>,
    action: Action,
) -> (io::Result<Done>, Vec<u8>) {
    if rewind > 0 {
        // A read-ahead never exceeds the buffer limit, which fits in i64.
        if let Err(e) = (&*file).seek(SeekFrom::Current(-(rewind as i64))) {
            return (Err(e), buf);
        }
    }
    let (file, mut buf) = if buf.is_empty() {
        (file, buf)
    } else {
        match write_all_at_position(ring, (file, buf)).await {
            Ok((file, mut buf)) => {
                buf.clear();
                (file, buf)
            }
            Err(e) => return (Err(e), Vec::new()),
        }
    };
    match action {
        Action::Nothing => (Ok(Done::Nothing), buf),
        Action::Seek(to) => ((&*file).seek(to).map(Done::Seek), buf),
        Action::Read(len) => {
            buf.clear();
            buf.reserve(len);
            let mut file_buf = (file, buf);
            loop {
                match read_at(ring, file_buf, AT_POSITION, len).await {
                    Err(e) => return (Err(e), Vec::new()),
                    Ok((Err(e), next)) if e.kind() == io::ErrorKind::Interrupted => {
                        file_buf = next;
                    }
                    Ok((result, (_, buf))) => return (result.map(|_| Done::Read), buf),
                }
            }
        }
    }
}
