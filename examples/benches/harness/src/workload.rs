//! What a workload is: a name, a unit, the runtime flavors it runs on, and
//! one function per runtime that performs it once and returns the measured
//! value.

use std::fmt;

use super::region::Stopwatch;

/// A runtime configuration a workload is run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// The current-thread scheduler.
    CurrentThread,
    /// The multi-thread scheduler with this many workers.
    MultiThread(usize),
    /// The multi-thread scheduler with the runtime's default worker count
    /// (one per CPU the process may run on).
    MultiThreadDefault,
}

impl Flavor {
    /// The flavors every runtime workload is measured on: the
    /// current-thread scheduler and the multi-thread one with 1, 2 and 4
    /// workers.
    pub const ALL: &'static [Flavor] = &[
        Flavor::CurrentThread,
        Flavor::MultiThread(1),
        Flavor::MultiThread(2),
        Flavor::MultiThread(4),
    ];

    /// Only the multi-thread flavors, for workloads that need worker threads
    /// to mean anything.
    pub const MULTI: &'static [Flavor] = &[
        Flavor::MultiThread(1),
        Flavor::MultiThread(2),
        Flavor::MultiThread(4),
    ];
}

impl fmt::Display for Flavor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Flavor::CurrentThread => f.write_str("current"),
            Flavor::MultiThread(n) => write!(f, "multi-{n}"),
            Flavor::MultiThreadDefault => f.write_str("multi-default"),
        }
    }
}

/// How big one run of a workload is, and on which flavor it runs.
///
/// Workloads state their full-size counts and ask [`Size::count`] for the
/// number to use, so that the smoke mode shrinks every workload the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// The runtime configuration to build.
    pub flavor: Flavor,
    /// Whether this is a smoke run (tiny counts, results not meaningful).
    pub smoke: bool,
}

impl Size {
    /// Divisor applied to every count in smoke mode.
    const SMOKE_DIVISOR: usize = 100;

    /// `full` in a measured run; a hundredth of it (at least 1) in a smoke
    /// run.
    pub fn count(&self, full: usize) -> usize {
        if self.smoke {
            full.div_ceil(Self::SMOKE_DIVISOR).max(1)
        } else {
            full
        }
    }
}

/// What a workload's value measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Wall-clock time, in nanoseconds.
    Nanos,
    /// Heap bytes per task.
    BytesPerTask,
}

impl Unit {
    /// Formats `value` (in this unit) for a table cell.
    pub fn format(self, value: f64) -> String {
        match self {
            Unit::Nanos if value >= 1e9 => format!("{:.2} s", value / 1e9),
            Unit::Nanos if value >= 1e6 => format!("{:.2} ms", value / 1e6),
            Unit::Nanos if value >= 1e3 => format!("{:.1} µs", value / 1e3),
            Unit::Nanos => format!("{value:.0} ns"),
            Unit::BytesPerTask => format!("{value:.0} B/task"),
        }
    }
}

/// One benchmark: the same work written once for each runtime.
///
/// Each function builds its runtime for `size.flavor`, performs the work
/// once and returns the measured value in `unit`. Time workloads start the
/// clock after the runtime is built and stop it before the runtime is
/// dropped (see [`timed`]), so building and shutting down a runtime is not
/// part of the measurement.
#[derive(Clone, Copy, Debug)]
pub struct Workload {
    /// Short snake_case name; `--filter` matches against it.
    pub name: &'static str,
    /// What the returned values measure.
    pub unit: Unit,
    /// The flavors this workload runs on.
    pub flavors: &'static [Flavor],
    /// Performs the work once on rt.
    pub run_rt: fn(&Size) -> f64,
    /// Performs the same work once on tokio.
    pub run_tokio: fn(&Size) -> f64,
}

/// Runs `work` and returns how long it took, in nanoseconds. The closure is
/// the measured region of the instruction mode too (see [`Stopwatch`]).
pub fn timed(work: impl FnOnce()) -> f64 {
    let watch = Stopwatch::start();
    work();
    watch.elapsed().as_nanos() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoke_counts_shrink_but_never_reach_zero() {
        let full = Size {
            flavor: Flavor::CurrentThread,
            smoke: false,
        };
        let smoke = Size {
            smoke: true,
            ..full
        };
        assert_eq!(full.count(10_000), 10_000);
        assert_eq!(smoke.count(10_000), 100);
        assert_eq!(smoke.count(150), 2);
        assert_eq!(smoke.count(1), 1);
    }

    #[test]
    fn flavors_and_units_print_for_tables() {
        assert_eq!(Flavor::CurrentThread.to_string(), "current");
        assert_eq!(Flavor::MultiThread(4).to_string(), "multi-4");
        assert_eq!(Flavor::MultiThreadDefault.to_string(), "multi-default");
        assert_eq!(Unit::Nanos.format(1_500.0), "1.5 µs");
        assert_eq!(Unit::Nanos.format(2_500_000.0), "2.50 ms");
        assert_eq!(Unit::Nanos.format(3.0e9), "3.00 s");
        assert_eq!(Unit::Nanos.format(12.0), "12 ns");
        assert_eq!(Unit::BytesPerTask.format(255.6), "256 B/task");
    }

    #[test]
    fn timed_measures_the_closure() {
        let mut ran = false;
        let nanos = timed(|| ran = true);
        assert!(ran);
        assert!(nanos >= 0.0);
    }
}
