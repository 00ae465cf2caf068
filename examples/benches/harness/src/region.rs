//! The measured region of a workload: a [`Stopwatch`] that reads the wall
//! clock and the process's CPU time and voluntary context switches
//! ([`super::rusage`]) and, when the process runs under callgrind, also
//! marks where the instruction count starts and stops.
//!
//! The CPU time is the whole process's (every runtime thread counts) less
//! what the harness's busy loops spent meanwhile ([`super::busy`]). Each
//! stop records the region's usage in one process-wide slot, whichever
//! thread stopped it (a workload may time itself from inside a spawned
//! task); the runner takes it after each sample.
//!
//! Callgrind listens for "client requests": a fixed sequence of rotate
//! instructions that is a no-op on real hardware and that valgrind's
//! instrumentation recognises. [`Stopwatch::start`] asks callgrind to zero
//! its counters (on every thread) and [`Stopwatch::elapsed`] asks it to dump
//! them into a file of their own, so that the instruction count of a case
//! covers exactly the code the wall clock covers, on all threads: not
//! building or dropping the runtime, not binding listeners. Outside
//! valgrind both requests cost a handful of instructions and do nothing.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::busy;
use super::rusage::Usage;

/// The description callgrind writes into the dump of a measured region, so
/// that the reader can tell it from the dump at process exit.
pub const REGION_DUMP: &str = "measured";

/// What the process spent over the last stopped region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegionUsage {
    /// Wall-clock time of the whole region.
    pub wall: Duration,
    /// CPU time of the runtimes' process over the region (busy loops
    /// excluded).
    pub cpu: Duration,
    /// Voluntary context switches over the region.
    pub voluntary_switches: u64,
    /// How many operations the region performed, for per-operation
    /// figures (1 unless the workload said).
    pub ops: u64,
}

impl RegionUsage {
    /// CPU nanoseconds per operation.
    pub fn cpu_nanos_per_op(&self) -> f64 {
        self.cpu.as_nanos() as f64 / self.ops.max(1) as f64
    }

    /// Voluntary context switches per second of wall time; `None` for a
    /// region too short to time.
    pub fn switches_per_second(&self) -> Option<f64> {
        let seconds = self.wall.as_secs_f64();
        (seconds > 0.0).then(|| self.voluntary_switches as f64 / seconds)
    }
}

/// The usage of the region stopped last and not yet taken.
static LAST_REGION: Mutex<Option<RegionUsage>> = Mutex::new(None);

/// Takes the usage of the region stopped last, leaving none.
pub fn take_last_region() -> Option<RegionUsage> {
    LAST_REGION
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
}

/// A started clock over the measured part of a workload.
#[derive(Debug)]
pub struct Stopwatch {
    started: Instant,
    /// The process's usage at the start; `None` if it could not be read.
    usage: Option<Usage>,
    /// The busy loops' CPU time at the start.
    busy: Duration,
}

impl Stopwatch {
    /// Reads the process's usage, zeroes callgrind's counters (when under
    /// callgrind) and starts the clock.
    pub fn start() -> Stopwatch {
        let usage = Usage::now().ok();
        let busy = busy::cpu_time();
        callgrind::zero_stats();
        Stopwatch {
            started: Instant::now(),
            usage,
            busy,
        }
    }

    /// Stops: the time since [`Stopwatch::start`]; records the region's
    /// usage for the runner and, under callgrind, dumps the instructions
    /// counted since the start.
    pub fn elapsed(&self) -> Duration {
        self.stop(1)
    }

    /// Stops a region that performed `ops` operations: the time per
    /// operation; the recorded CPU time is divided by `ops` too.
    pub fn elapsed_per(&self, ops: u32) -> Duration {
        self.stop(u64::from(ops.max(1))) / ops.max(1)
    }

    fn stop(&self, ops: u64) -> Duration {
        let (wall, region) = self.measure(ops);
        if region.is_some() {
            *LAST_REGION.lock().unwrap_or_else(PoisonError::into_inner) = region;
        }
        wall
    }

    /// The wall time since the start and the region's usage, if the
    /// process's usage could be read at both ends.
    fn measure(&self, ops: u64) -> (Duration, Option<RegionUsage>) {
        let wall = self.started.elapsed();
        callgrind::dump_stats_at(REGION_DUMP);
        let busy = busy::cpu_time().saturating_sub(self.busy);
        let region = match (self.usage, Usage::now()) {
            (Some(start), Ok(end)) => {
                let spent = end.since(&start);
                Some(RegionUsage {
                    wall,
                    cpu: spent.cpu.saturating_sub(busy),
                    voluntary_switches: spent.voluntary_switches,
                    ops,
                })
            }
            _ => None,
        };
        (wall, region)
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

    #[test]
    fn a_region_measures_its_usage() {
        let watch = Stopwatch::start();
        // A sleep is a voluntary switch of this thread inside the region.
        std::thread::sleep(Duration::from_millis(1));
        let (wall, region) = watch.measure(3);
        let region = region.expect("the process's usage is readable");
        assert_eq!(region.wall, wall);
        assert!(wall >= Duration::from_millis(1));
        assert!(region.voluntary_switches >= 1);
        assert_eq!(region.ops, 3);
    }

    #[test]
    fn per_operation_figures() {
        let region = RegionUsage {
            wall: Duration::from_millis(500),
            cpu: Duration::from_micros(30),
            voluntary_switches: 100,
            ops: 3,
        };
        assert_eq!(region.cpu_nanos_per_op(), 10_000.0);
        assert_eq!(region.switches_per_second(), Some(200.0));
        let instant = RegionUsage {
            wall: Duration::ZERO,
            ..region
        };
        assert_eq!(instant.switches_per_second(), None);
    }
}
