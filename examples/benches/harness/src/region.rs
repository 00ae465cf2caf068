//! The measured region of a workload: a [`Stopwatch`] that reads the wall
//! clock and, when the process runs under callgrind, also marks where the
//! instruction count starts and stops.
//!
//! Callgrind listens for "client requests": a fixed sequence of rotate
//! instructions that is a no-op on real hardware and that valgrind's
//! instrumentation recognises. [`Stopwatch::start`] asks callgrind to zero
//! its counters (on every thread) and [`Stopwatch::elapsed`] asks it to dump
//! them into a file of their own, so that the instruction count of a case
//! covers exactly the code the wall clock covers, on all threads: not
//! building or dropping the runtime, not binding listeners. Outside
//! valgrind both requests cost a handful of instructions and do nothing.

use std::time::{Duration, Instant};

/// The description callgrind writes into the dump of a measured region, so
/// that the reader can tell it from the dump at process exit.
pub const REGION_DUMP: &str = "measured";

/// A started clock over the measured part of a workload.
#[derive(Debug)]
pub struct Stopwatch {
    started: Instant,
}

impl Stopwatch {
    /// Zeroes callgrind's counters (when under callgrind) and starts the
    /// clock.
    pub fn start() -> Stopwatch {
        callgrind::zero_stats();
        Stopwatch {
            started: Instant::now(),
        }
    }

    /// Stops: the time since [`Stopwatch::start`], and, under callgrind, a
    /// dump of the instructions counted since then.
    pub fn elapsed(&self) -> Duration {
        let elapsed = self.started.elapsed();
        callgrind::dump_stats_at(REGION_DUMP);
        elapsed
    }
}

/// The two callgrind client requests the stopwatch needs.
#[cfg(target_arch = "x86_64")]
mod callgrind {
    use std::ffi::CString;

    /// `VG_USERREQ_TOOL_BASE('C', 'T')`: the first request number of
    /// callgrind's range, from valgrind's public `callgrind.h`.
    const BASE: u64 = ((b'C' as u64) << 24) | ((b'T' as u64) << 16);
    /// Zero all event counters.
    const ZERO_STATS: u64 = BASE + 1;
    /// Dump the counters with a description string.
    const DUMP_STATS_AT: u64 = BASE + 3;

    /// Issues request `code` with one argument; returns what valgrind
    /// answered (0 when not running under valgrind).
    fn request(code: u64, arg: u64) -> u64 {
        let args: [u64; 6] = [code, arg, 0, 0, 0, 0];
        let mut result: u64 = 0;
        // SAFETY: the four rotations of `rdi` add up to 128 bits, two full
        // turns, so `rdi` ends as it started, and `xchg rbx, rbx` swaps a
        // register with itself: on hardware the sequence changes no
        // register, no flag we rely on ("cc" is not preserved by Rust asm
        // anyway) and no memory. Under valgrind the sequence reads the six
        // words behind `rax`, which point at `args`, alive for the whole
        // block, and writes the answer to `rdx`, declared as an output.
        unsafe {
            std::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                in("rax") args.as_ptr(),
                inout("rdx") result,
                inout("rdi") 0u64 => _,
                options(nostack),
            );
        }
        result
    }

    pub(super) fn zero_stats() {
        request(ZERO_STATS, 0);
    }

    pub(super) fn dump_stats_at(description: &str) {
        let description = CString::new(description).unwrap_or_default();
        request(DUMP_STATS_AT, description.as_ptr() as u64);
    }
}

/// Elsewhere there is no request sequence to issue: the instruction mode
/// falls back to whole-process counts.
#[cfg(not(target_arch = "x86_64"))]
mod callgrind {
    pub(super) fn zero_stats() {}
    pub(super) fn dump_stats_at(_description: &str) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_valgrind_the_stopwatch_is_a_clock() {
        let watch = Stopwatch::start();
        let first = watch.elapsed();
        let second = watch.elapsed();
        assert!(second >= first);
    }
}
