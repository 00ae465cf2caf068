//! The process's resource usage, read with `getrusage(RUSAGE_SELF)`: CPU
//! time (user plus system) and voluntary context switches.
//!
//! `RUSAGE_SELF` sums every thread of the process, which is what a
//! runtime's cost is: its workers, its blocking pool, its timer and I/O
//! driver and the thread inside `block_on` all count, whichever of them did
//! the work. The difference of two readings around a measured region is
//! that region's usage; the harness's own busy loops are subtracted by the
//! caller (see [`super::busy`]).

use std::io;
use std::time::Duration;

/// A reading of the process's usage, or the difference of two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// User plus system CPU time of all threads.
    pub cpu: Duration,
    /// Voluntary context switches (`ru_nvcsw`): how often a thread blocked
    /// (parked, slept, waited for I/O) and gave up its CPU.
    pub voluntary_switches: u64,
}

impl Usage {
    /// The process's usage so far.
    pub fn now() -> io::Result<Usage> {
        // SAFETY: `rusage` is plain old data of integers, for which all
        // zeroes is a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `usage` is a valid, writable `rusage` that outlives the
        // call; `RUSAGE_SELF` is a valid `who`.
        let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        let time = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
        };
        Ok(Usage {
            cpu: time(usage.ru_utime) + time(usage.ru_stime),
            voluntary_switches: usage.ru_nvcsw as u64,
        })
    }

    /// The usage between `earlier` and this reading; a counter that went
    /// backwards (it cannot, for one process) counts as zero.
    pub fn since(&self, earlier: &Usage) -> Usage {
        Usage {
            cpu: self.cpu.saturating_sub(earlier.cpu),
            voluntary_switches: self
                .voluntary_switches
                .saturating_sub(earlier.voluntary_switches),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hint::black_box;

    #[test]
    fn spinning_adds_cpu_time() {
        let before = Usage::now().unwrap();
        let mut state = 1u64;
        // Spin until the kernel has accounted some CPU time to the process
        // (microsecond resolution); bounded, so a broken reading fails.
        let mut spent = Duration::ZERO;
        for _ in 0..1_000 {
            for _ in 0..100_000 {
                state = black_box(
                    state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1),
                );
            }
            spent = Usage::now().unwrap().since(&before).cpu;
            if spent > Duration::ZERO {
                break;
            }
        }
        assert!(spent > Duration::ZERO);
    }

    #[test]
    fn blocking_is_a_voluntary_switch() {
        let before = Usage::now().unwrap();
        // A sleep blocks the thread: the kernel switches away voluntarily.
        std::thread::sleep(Duration::from_millis(1));
        let after = Usage::now().unwrap();
        assert!(after.since(&before).voluntary_switches >= 1);
    }

    #[test]
    fn a_difference_never_underflows() {
        let later = Usage {
            cpu: Duration::from_millis(5),
            voluntary_switches: 7,
        };
        let earlier = Usage {
            cpu: Duration::from_millis(2),
            voluntary_switches: 3,
        };
        assert_eq!(
            later.since(&earlier),
            Usage {
                cpu: Duration::from_millis(3),
                voluntary_switches: 4
            }
        );
        assert_eq!(earlier.since(&later), Usage::default());
    }
}
