//! CPU-bound threads that keep the machine's CPUs busy while the cases
//! run (`--busy-loops N`): a shared server's load, reproduced on demand.
//!
//! A runtime's choices about waiting (yield, spin or sleep while a result
//! is on its way) look different when every CPU has another runnable
//! thread: a yield then hands the CPU to that thread for its time slice,
//! and a thread woken from sleep has to be scheduled in beside it. A quiet
//! machine never shows that, so a change can win every quiet run and lose
//! by ten times on a loaded one. Both runtimes' samples are taken beside
//! the same loops, so their ratio says how each copes with the load.
//!
//! The loops run in the measured process, so its CPU time includes theirs;
//! [`cpu_time`] reads each running loop's own CPU clock, for the measured
//! region to subtract (see [`super::region`]).

use std::hint::black_box;
use std::io;
use std::os::unix::thread::JoinHandleExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// Iterations of arithmetic between two looks at the stop flag: enough
/// that the flag's cache line is not what the loop spends its time on.
const ROUNDS_PER_CHECK: u32 = 4096;

/// The CPU clocks of every busy thread now running, in all [`BusyLoops`].
/// A clock is removed before its thread is told to stop, so every clock
/// listed belongs to a live thread.
static RUNNING_CLOCKS: Mutex<Vec<libc::clockid_t>> = Mutex::new(Vec::new());

/// The CPU time that the busy threads now running have spent so far. A
/// clock that cannot be read counts as zero.
pub fn cpu_time() -> Duration {
    let clocks = RUNNING_CLOCKS
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    clocks.iter().map(|&clock| clock_time(clock)).sum()
}

fn clock_time(clock: libc::clockid_t) -> Duration {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid, writable `timespec`; `clock` is the CPU
    // clock of a thread that is alive while it is listed (see
    // `RUNNING_CLOCKS`), and an invalid clock only makes the call fail.
    if unsafe { libc::clock_gettime(clock, &mut time) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(time.tv_sec as u64, time.tv_nsec as u32)
}

/// The CPU clock of `thread`, `None` if the system has none for it.
fn cpu_clock(thread: &JoinHandle<()>) -> Option<libc::clockid_t> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: the handle's thread has not been joined, so its pthread_t is
    // valid; `clock` is a valid, writable `clockid_t`.
    let rc = unsafe { libc::pthread_getcpuclockid(thread.as_pthread_t(), &mut clock) };
    (rc == 0).then_some(clock)
}

/// Threads spinning on arithmetic until dropped.
pub struct BusyLoops {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
    /// The threads' CPU clocks, listed in `RUNNING_CLOCKS` while they run.
    clocks: Vec<libc::clockid_t>,
}

impl BusyLoops {
    /// Starts `count` busy threads (none for zero). A thread the OS will
    /// not start is an error, after the ones already started are stopped.
    pub fn start(count: usize) -> io::Result<BusyLoops> {
        let mut loops = BusyLoops {
            stop: Arc::new(AtomicBool::new(false)),
            threads: Vec::with_capacity(count),
            clocks: Vec::with_capacity(count),
        };
        for index in 0..count {
            let stop = Arc::clone(&loops.stop);
            let thread = thread::Builder::new()
                .name(format!("busy-loop-{index}"))
                .spawn(move || spin_until(&stop))?;
            // On error `loops` drops here and stops the threads before it.
            if let Some(clock) = cpu_clock(&thread) {
                loops.clocks.push(clock);
                RUNNING_CLOCKS
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(clock);
            }
            loops.threads.push(thread);
        }
        Ok(loops)
    }
}

impl Drop for BusyLoops {
    fn drop(&mut self) {
        let mut running = RUNNING_CLOCKS
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        running.retain(|clock| !self.clocks.contains(clock));
        drop(running);
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            // A busy loop cannot panic; a join error would only repeat one.
            let _ = thread.join();
        }
    }
}

fn spin_until(stop: &AtomicBool) {
    let mut state = 1u64;
    while !stop.load(Ordering::Relaxed) {
        for _ in 0..ROUNDS_PER_CHECK {
            // A step of a multiplicative generator: work the compiler must
            // keep, since `black_box` hides what becomes of it.
            state = black_box(
                state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_the_asked_number_and_stops_them_on_drop() {
        let loops = BusyLoops::start(2).unwrap();
        assert_eq!(loops.threads.len(), 2);
        let stop = Arc::clone(&loops.stop);
        drop(loops);
        // Drop joined every thread, which returns only once the flag is set.
        assert!(stop.load(Ordering::Relaxed));
        assert_eq!(Arc::strong_count(&stop), 1, "every loop's handle is gone");
    }

    #[test]
    fn running_loops_count_their_cpu_time_until_dropped() {
        let loops = BusyLoops::start(1).unwrap();
        assert_eq!(loops.clocks.len(), 1);
        let clock = loops.clocks[0];
        // Bounded wait for the spinning thread to be accounted some CPU.
        let mut spent = Duration::ZERO;
        for _ in 0..10_000 {
            spent = clock_time(clock);
            if spent > Duration::ZERO {
                break;
            }
            thread::yield_now();
        }
        assert!(spent > Duration::ZERO);
        assert!(cpu_time() >= spent);
        drop(loops);
        let running = RUNNING_CLOCKS
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        assert!(!running.contains(&clock));
    }

    #[test]
    fn zero_loops_start_nothing() {
        let loops = BusyLoops::start(0).unwrap();
        assert_eq!(loops.threads.len(), 0);
    }
}
