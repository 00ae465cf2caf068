//! Side-by-side benchmarks of the runtime core, rt against tokio: spawning
//! from inside and outside the runtime, wake-ups between tasks, yielding,
//! the blocking pool, and the memory an idle task costs.
//!
//! The `io`, `fs` and `codec` workloads measure the layers above: sockets
//! on loopback, file-system calls through the blocking pool, and `Framed`
//! codecs over an in-memory stream.
//!
//! Every workload is written once, in `workloads/`, against a crate alias
//! `tk`; `on_rt.rs` compiles those files with `tk` = rt and `on_tokio.rs`
//! with `tk` = tokio, so both runtimes run literally the same code. Run it
//! with `cargo xtask bench [--filter NAME] [--samples N]`, or
//! `cargo bench -p examples --bench runtime -- --help`.

// Compiling each workload file twice, once per runtime, is the point of
// `on_rt` and `on_tokio`.
#![allow(clippy::duplicate_mod)]

use std::process::ExitCode;

use bench_harness::alloc::CountingAlloc;
use bench_harness::{Flavor, Unit, Workload};

mod on_rt;
mod on_tokio;

/// Counts heap bytes for `idle_task_bytes`; a plain system allocator at all
/// other times.
#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// One table entry from a function that exists under the same path in both
/// `on_rt` and `on_tokio`.
macro_rules! workload {
    ($module:ident :: $name:ident, $unit:expr, $flavors:expr) => {
        Workload {
            name: stringify!($name),
            unit: $unit,
            flavors: $flavors,
            run_rt: on_rt::$module::$name,
            run_tokio: on_tokio::$module::$name,
        }
    };
}

/// Memory is measured on one flavor of each scheduler.
const MEMORY_FLAVORS: &[Flavor] = &[Flavor::CurrentThread, Flavor::MultiThread(2)];

/// The paced workloads run on one flavor of each scheduler.
const PACED_FLAVORS: &[Flavor] = &[Flavor::CurrentThread, Flavor::MultiThread(2)];
/// The stuck-worker workloads run on two workers and on the runtime's
/// default count.
const STUCK_FLAVORS: &[Flavor] = &[Flavor::MultiThread(2), Flavor::MultiThreadDefault];

/// The suite, in report order.
const WORKLOADS: &[Workload] = &[
    workload!(spawn::spawn_many_local, Unit::Nanos, Flavor::ALL),
    workload!(spawn::spawn_many_remote_idle, Unit::Nanos, Flavor::ALL),
    workload!(spawn::spawn_many_remote_busy, Unit::Nanos, Flavor::ALL),
    workload!(spawn::remote_spawn_threads, Unit::Nanos, Flavor::ALL),
    workload!(spawn::chained_spawn, Unit::Nanos, Flavor::ALL),
    workload!(wakeup::ping_pong, Unit::Nanos, Flavor::ALL),
    workload!(wakeup::yield_many, Unit::Nanos, Flavor::ALL),
    workload!(blocking::spawn_blocking_batches, Unit::Nanos, Flavor::ALL),
    workload!(memory::idle_task_bytes, Unit::BytesPerTask, MEMORY_FLAVORS),
    workload!(io::io_tcp_echo, Unit::Nanos, Flavor::ALL),
    workload!(io::io_tcp_echo_many, Unit::Nanos, Flavor::ALL),
    workload!(io::io_tcp_bulk, Unit::Nanos, Flavor::ALL),
    workload!(io::io_tcp_copy_256mib, Unit::Nanos, Flavor::ALL),
    workload!(io::io_tcp_accept_churn, Unit::Nanos, Flavor::ALL),
    workload!(io::io_udp_ping_pong, Unit::Nanos, Flavor::ALL),
    workload!(io::io_proxy_copy, Unit::Nanos, Flavor::ALL),
    workload!(io::io_unix_ping_pong, Unit::Nanos, Flavor::ALL),
    workload!(echo_fleet::io_tcp_echo_conns_1, Unit::Nanos, Flavor::ALL),
    workload!(echo_fleet::io_tcp_echo_conns_50, Unit::Nanos, Flavor::ALL),
    workload!(echo_fleet::io_tcp_echo_conns_500, Unit::Nanos, Flavor::ALL),
    // The p99 round trip of the same runs, so tail latency has a ratio too.
    workload!(echo_fleet::io_tcp_echo_p99_1, Unit::Nanos, Flavor::ALL),
    workload!(echo_fleet::io_tcp_echo_p99_50, Unit::Nanos, Flavor::ALL),
    workload!(echo_fleet::io_tcp_echo_p99_500, Unit::Nanos, Flavor::ALL),
    workload!(fs::fs_read_files, Unit::Nanos, Flavor::ALL),
    workload!(fs::fs_write_files, Unit::Nanos, Flavor::ALL),
    workload!(fs::fs_metadata, Unit::Nanos, Flavor::ALL),
    workload!(fs::fs_buffered_reads, Unit::Nanos, Flavor::ALL),
    workload!(fs::fs_read_dir, Unit::Nanos, Flavor::ALL),
    workload!(codec::codec_length_delimited, Unit::Nanos, Flavor::ALL),
    workload!(codec::codec_lines, Unit::Nanos, Flavor::ALL),
    workload!(sync::mpsc_bounded_1_producer, Unit::Nanos, Flavor::ALL),
    workload!(sync::mpsc_bounded_8_producers, Unit::Nanos, Flavor::ALL),
    workload!(sync::mpsc_unbounded_8_producers, Unit::Nanos, Flavor::ALL),
    // Builds no runtime (two OS threads): one case, under the first flavor.
    workload!(
        sync::mpsc_blocking_threads,
        Unit::Nanos,
        &[Flavor::CurrentThread]
    ),
    workload!(sync::oneshot_create_send_recv, Unit::Nanos, Flavor::ALL),
    workload!(sync::semaphore_contended, Unit::Nanos, Flavor::ALL),
    workload!(sync::mutex_contended, Unit::Nanos, Flavor::ALL),
    workload!(sync::notify_ping_pong, Unit::Nanos, Flavor::ALL),
    workload!(sync::watch_16_receivers, Unit::Nanos, Flavor::ALL),
    workload!(sync::broadcast_16_receivers, Unit::Nanos, Flavor::ALL),
    workload!(time::timeout_ready_8_tasks, Unit::Nanos, Flavor::MULTI),
    workload!(time::timeout_pending_8_tasks, Unit::Nanos, Flavor::MULTI),
    workload!(time::sleep_reset_churn, Unit::Nanos, Flavor::ALL),
    workload!(time::sleep_10k_concurrent, Unit::Nanos, Flavor::ALL),
    workload!(time::interval_ticks, Unit::Nanos, Flavor::ALL),
    workload!(
        time::pending_sleep_bytes,
        Unit::BytesPerTask,
        MEMORY_FLAVORS
    ),
    workload!(sync::mpsc_5x1k_capacity_100, Unit::Nanos, Flavor::ALL),
    workload!(sync::mpsc_5x1k_capacity_1m, Unit::Nanos, Flavor::ALL),
    workload!(sync::mpsc_uncontended, Unit::Nanos, Flavor::ALL),
    workload!(sync::oneshot_request_reply, Unit::Nanos, Flavor::ALL),
    workload!(sync::semaphore_uncontended, Unit::Nanos, Flavor::ALL),
    workload!(sync::rwlock_contended, Unit::Nanos, Flavor::ALL),
    workload!(time::timers_1m_firing, Unit::Nanos, Flavor::ALL),
    workload!(
        time::sleeping_task_bytes,
        Unit::BytesPerTask,
        MEMORY_FLAVORS
    ),
    // CPU and context switches while nothing happens; the harness records
    // both beside the wall time, per request or read where counted.
    workload!(idle::stuck_worker, Unit::Nanos, STUCK_FLAVORS),
    workload!(idle::eight_runtimes_stuck, Unit::Nanos, STUCK_FLAVORS),
    workload!(idle::eight_runtimes_idle, Unit::Nanos, STUCK_FLAVORS),
    workload!(paced::paced_tcp, Unit::Nanos, PACED_FLAVORS),
    workload!(fs::fs_read_small_block_on, Unit::Nanos, PACED_FLAVORS),
    workload!(fs::fs_read_small_spawned, Unit::Nanos, PACED_FLAVORS),
];

fn main() -> ExitCode {
    bench_harness::main("runtime", WORKLOADS)
}
