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

use std::hint::black_box;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

/// Iterations of arithmetic between two looks at the stop flag: enough
/// that the flag's cache line is not what the loop spends its time on.
const ROUNDS_PER_CHECK: u32 = 4096;

/// Threads spinning on arithmetic until dropped.
pub struct BusyLoops {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl BusyLoops {
    /// Starts `count` busy threads (none for zero). A thread the OS will
    /// not start is an error, after the ones already started are stopped.
    pub fn start(count: usize) -> io::Result<BusyLoops> {
        let mut loops = BusyLoops {
            stop: Arc::new(AtomicBool::new(false)),
            threads: Vec::with_capacity(count),
        };
        for index in 0..count {
            let stop = Arc::clone(&loops.stop);
            let thread = thread::Builder::new()
                .name(format!("busy-loop-{index}"))
                .spawn(move || spin_until(&stop))?;
            // On error `loops` drops here and stops the threads before it.
            loops.threads.push(thread);
        }
        Ok(loops)
    }
}

impl Drop for BusyLoops {
    fn drop(&mut self) {
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
    fn zero_loops_start_nothing() {
        let loops = BusyLoops::start(0).unwrap();
        assert_eq!(loops.threads.len(), 0);
    }
}
