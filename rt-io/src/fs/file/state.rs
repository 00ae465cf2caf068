//! The buffer and the in-flight job behind a [`File`](super::File), and the
//! poll logic of reading, writing, flushing and seeking through them.
//!
//! The buffer is in one of three modes. `Reading`: it holds bytes read ahead
//! of the caller, so the OS cursor is ahead of the logical position by the
//! unread part. `Writing`: it holds bytes accepted but not yet written, so
//! the OS cursor is behind by their length. `Empty`: the two cursors agree.
//! At most one job runs at a time; while it runs the buffer travels with it.

use super::job::{Action, Completion, Done, Job, Outcome};
use crate::io::ReadBuf;
use std::fs::File as StdFile;
use std::io::{self, SeekFrom};
use std::sync::Arc;
use std::task::{ready, Context, Poll};

/// The smallest read sent to the pool: a small read fetches this much and
/// later small reads are served from memory. Each read-ahead consumed to
/// the end by sequential reads doubles the next one (up to
/// `max_buf_size`), so a long sequential scan costs a handful of pool hops
/// rather than one per 64 KiB.
const READ_AHEAD: usize = 64 * 1024;
/// Reads per unit of coop budget (see `File::poll_read`).
const READS_PER_BUDGET_UNIT: u8 = 16;
/// Buffered writes are sent to the pool once this many bytes are waiting.
const WRITE_BATCH: usize = 64 * 1024;
/// The default largest single read or write handed to the pool.
pub(super) const DEFAULT_MAX_BUF_SIZE: usize = 2 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Empty,
    Reading,
    Writing,
}

pub(super) struct State {
    buf: Vec<u8>,
    /// Read cursor into `buf` in `Reading` mode.
    pos: usize,
    mode: Mode,
    /// Bytes of an abandoned read-ahead that the next job must seek back.
    rewind: u64,
    in_flight: Option<Completion>,
    /// The error of the last job; the next operation to wait reports it,
    /// even if the job was started by an operation since abandoned.
    error: Option<io::Error>,
    /// The logical position, when known: set by a seek, advanced by reads
    /// served from the buffer, forgotten on a write (which may append).
    position: Option<u64>,
    /// The last read job hit end of file and nobody has reported it yet.
    at_eof: bool,
    /// The size of the next read-ahead (see `READ_AHEAD`).
    read_ahead: usize,
    /// Reads since the last one charged to the coop budget.
    uncharged_reads: u8,
    pub(super) max_buf_size: usize,
}

impl State {
    pub(super) fn new() -> State {
        State {
            buf: Vec::new(),
            pos: 0,
            mode: Mode::Empty,
            rewind: 0,
            in_flight: None,
            error: None,
            position: None,
            at_eof: false,
            read_ahead: READ_AHEAD,
            uncharged_reads: 0,
            max_buf_size: DEFAULT_MAX_BUF_SIZE,
        }
    }

    /// Waits until no job is in flight, folding a finished job's result
    /// into the state.
    fn poll_idle(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        if let Some(job) = &self.in_flight {
            let outcome = ready!(job.poll(cx));
            self.in_flight = None;
            self.finish(outcome);
        }
        Poll::Ready(())
    }

    fn finish(&mut self, outcome: Outcome) {
        self.buf = outcome.buf;
        self.pos = 0;
        self.mode = Mode::Empty;
        match outcome.result {
            Ok(Done::Nothing) => {}
            Ok(Done::Seek(at)) => self.position = Some(at),
            Ok(Done::Read) if self.buf.is_empty() => self.at_eof = true,
            Ok(Done::Read) => self.mode = Mode::Reading,
            Err(e) => {
                self.buf.clear();
                self.position = None;
                self.error = Some(e);
            }
        }
    }

    /// Waits for the job in flight and returns its error, if it failed.
    /// Whether a job is in flight (a write now would have to wait for it).
    pub(super) fn is_busy(&self) -> bool {
        self.in_flight.is_some()
    }

    fn poll_settled(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_idle(cx));
        match self.error.take() {
            Some(e) => Poll::Ready(Err(e)),
            None => Poll::Ready(Ok(())),
        }
    }

    fn unread(&self) -> &[u8] {
        match self.mode {
            Mode::Reading => &self.buf[self.pos..],
            _ => &[],
        }
    }

    /// Drops the read-ahead; the next job moves the OS cursor back over it.
    fn abandon_read_ahead(&mut self) {
        if self.mode == Mode::Reading {
            self.rewind += self.unread().len() as u64;
            self.buf.clear();
            self.pos = 0;
            self.mode = Mode::Empty;
        }
    }

    /// Starts a job carrying the pending rewind and buffered writes.
    fn start(&mut self, file: &Arc<StdFile>, action: Action) {
        debug_assert!(self.in_flight.is_none());
        self.abandon_read_ahead();
        let mut buf = std::mem::take(&mut self.buf);
        if self.mode != Mode::Writing {
            buf.clear();
        }
        let job = Job {
            rewind: std::mem::take(&mut self.rewind),
            buf,
            action,
        };
        self.mode = Mode::Empty;
        self.pos = 0;
        self.at_eof = false;
        self.in_flight = Some(Completion::spawn(job, file));
    }

    fn has_pending_writes(&self) -> bool {
        self.mode == Mode::Writing && !self.buf.is_empty()
    }

    /// Whether this read spends a unit of the coop budget: one in
    /// `READS_PER_BUDGET_UNIT`.
    pub(super) fn charge_read(&mut self) -> bool {
        self.uncharged_reads += 1;
        if self.uncharged_reads >= READS_PER_BUDGET_UNIT {
            self.uncharged_reads = 0;
            true
        } else {
            false
        }
    }

    pub(super) fn poll_read(
        &mut self,
        cx: &mut Context<'_>,
        file: &Arc<StdFile>,
        dst: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if dst.remaining() == 0 {
            return Poll::Ready(Ok(()));
        }
        loop {
            ready!(self.poll_settled(cx))?;
            let unread = self.unread();
            if !unread.is_empty() {
                let n = unread.len().min(dst.remaining());
                dst.put_slice(&unread[..n]);
                self.pos += n;
                if let Some(at) = &mut self.position {
                    *at += n as u64;
                }
                return Poll::Ready(Ok(()));
            }
            if std::mem::take(&mut self.at_eof) {
                return Poll::Ready(Ok(()));
            }
            // Still in `Reading` mode here means the last read-ahead was
            // used up by reads in sequence: fetch more next time.
            self.read_ahead = if self.mode == Mode::Reading {
                self.read_ahead.saturating_mul(2).min(self.max_buf_size)
            } else {
                READ_AHEAD
            };
            let len = dst.remaining().max(self.read_ahead).min(self.max_buf_size);
            // Buffered writes go out in the same hop, before the read.
            self.start(file, Action::Read(len));
        }
    }

    pub(super) fn poll_write(
        &mut self,
        cx: &mut Context<'_>,
        file: &Arc<StdFile>,
        src: &[u8],
    ) -> Poll<io::Result<usize>> {
        let batch = WRITE_BATCH.min(self.max_buf_size);
        loop {
            ready!(self.poll_settled(cx))?;
            if src.is_empty() {
                return Poll::Ready(Ok(0));
            }
            if self.has_pending_writes() && self.buf.len() >= batch {
                self.start(file, Action::Nothing);
                continue;
            }
            break;
        }
        self.abandon_read_ahead();
        self.at_eof = false;
        self.position = None;
        self.mode = Mode::Writing;
        let n = (self.max_buf_size - self.buf.len()).min(src.len());
        self.buf.extend_from_slice(&src[..n]);
        if self.buf.len() >= batch {
            // Accepted bytes stay accepted: the job runs to completion even
            // if the caller goes away, and its error is reported later.
            self.start(file, Action::Nothing);
        }
        Poll::Ready(Ok(n))
    }

    /// Writes out buffered bytes and waits for them. With `drop_read_ahead`
    /// the OS cursor is also brought back to the logical position.
    pub(super) fn poll_flush(
        &mut self,
        cx: &mut Context<'_>,
        file: &Arc<StdFile>,
        drop_read_ahead: bool,
    ) -> Poll<io::Result<()>> {
        loop {
            ready!(self.poll_settled(cx))?;
            let stale_read_ahead =
                drop_read_ahead && (self.rewind > 0 || !self.unread().is_empty());
            if !self.has_pending_writes() && !stale_read_ahead {
                return Poll::Ready(Ok(()));
            }
            self.start(file, Action::Nothing);
        }
    }

    pub(super) fn start_seek(&mut self, file: &Arc<StdFile>, to: SeekFrom) -> io::Result<()> {
        if self.in_flight.is_some() {
            return Err(io::Error::other(
                "another file operation is in flight; call poll_complete before start_seek",
            ));
        }
        self.start(file, Action::Seek(to));
        Ok(())
    }

    pub(super) fn poll_complete(
        &mut self,
        cx: &mut Context<'_>,
        file: &Arc<StdFile>,
    ) -> Poll<io::Result<u64>> {
        loop {
            ready!(self.poll_settled(cx))?;
            if let Some(at) = self.position {
                return Poll::Ready(Ok(at));
            }
            // The position is unknown: ask the OS (this also writes out
            // buffered bytes and undoes read-ahead).
            self.start(file, Action::Seek(SeekFrom::Current(0)));
        }
    }

    /// Whether a job is in flight or accepted bytes wait to be written.
    pub(super) fn is_busy_or_dirty(&self) -> bool {
        self.in_flight.is_some() || self.has_pending_writes() || self.error.is_some()
    }

    /// Takes the bytes that were accepted but never written, with the
    /// rewind to apply first, for a last flush when the file is dropped.
    pub(super) fn take_pending_writes(&mut self) -> Option<(u64, Vec<u8>)> {
        if !self.has_pending_writes() {
            return None;
        }
        self.mode = Mode::Empty;
        Some((
            std::mem::take(&mut self.rewind),
            std::mem::take(&mut self.buf),
        ))
    }

    /// How far the OS cursor is ahead of the logical position because of
    /// read-ahead.
    pub(super) fn read_ahead_len(&self) -> u64 {
        self.rewind + self.unread().len() as u64
    }

    /// Forgets the read-ahead once the caller has moved the OS cursor back.
    pub(super) fn clear_read_ahead(&mut self) {
        self.rewind = 0;
        if self.mode == Mode::Reading {
            self.buf.clear();
            self.pos = 0;
            self.mode = Mode::Empty;
        }
    }
}
