//! Faults: the test's manual controls, and a random schedule drawn from
//! the seed. Every fault is recorded in the trace.
//!
//! The controls act on the current simulation from any of its tasks (the
//! test's client code, usually) and take host names.

use crate::host::{self, expect_host};
use crate::link::LinkConfig;
use crate::world::{with_world, World};
use std::time::Duration;

/// Cuts the link between `a` and `b` both ways. TCP connections across it
/// stall (nothing is lost) and new ones wait; UDP datagrams are dropped.
#[track_caller]
pub fn partition(a: &str, b: &str) {
    partition_oneway(a, b);
    partition_oneway(b, a);
}

/// Cuts the direction `from -> to` only.
#[track_caller]
pub fn partition_oneway(from: &str, to: &str) {
    with_world(|w| {
        let (f, t) = (expect_host(w, from), expect_host(w, to));
        if w.blocked.insert((f, t)) {
            w.record(format!("partition {from} -> {to}"));
        }
    });
}

/// Repairs the link between `a` and `b`, both ways: held TCP packets are
/// sent again.
#[track_caller]
pub fn repair(a: &str, b: &str) {
    with_world(|w| {
        let (x, y) = (expect_host(w, a), expect_host(w, b));
        for (from, to) in [(x, y), (y, x)] {
            if w.blocked.remove(&(from, to)) {
                let (f, t) = (w.hosts[from].name.clone(), w.hosts[to].name.clone());
                w.record(format!("repair {f} -> {t}"));
            }
        }
        w.tcp_resend_stalled();
    });
}

/// Repairs every partition.
pub fn repair_all() {
    with_world(repair_all_in);
}

fn repair_all_in(w: &mut World) {
    if !w.blocked.is_empty() {
        w.blocked.clear();
        w.record("repair all".to_string());
        w.tcp_resend_stalled();
    }
}

/// Crashes host `name`: every task it spawned is aborted, its connections
/// are reset (their peers see a RST), its listeners and UDP sockets are
/// gone, and whatever state its software kept in memory with them. It
/// stays down until [`restart`].
#[track_caller]
pub fn crash(name: &str) {
    with_world(|w| {
        let id = expect_host(w, name);
        host::crash(w, id);
    });
}

/// Starts a crashed host's software again, from scratch.
#[track_caller]
pub fn restart(name: &str) {
    let id = with_world(|w| expect_host(w, name));
    host::restart(id);
}

/// Sets the behaviour of the direction `from -> to`.
#[track_caller]
pub fn set_link(from: &str, to: &str, config: LinkConfig) {
    with_world(|w| {
        let (f, t) = (expect_host(w, from), expect_host(w, to));
        w.links.insert((f, t), config);
        w.record(format!("link {from} -> {to} {config:?}"));
    });
}

/// Makes host `name`'s clock ([`time`](crate::time)) run `ppm` parts per
/// million fast (negative: slow).
#[track_caller]
pub fn set_clock_skew(name: &str, ppm: i64) {
    with_world(|w| {
        let id = expect_host(w, name);
        w.hosts[id].skew_ppm = ppm;
        w.record(format!("clock skew {name} {ppm} ppm"));
    });
}

/// Virtual time since the simulation started.
pub fn elapsed() -> Duration {
    with_world(|w| w.now())
}

/// The hash of the trace so far.
pub fn trace_hash() -> u64 {
    with_world(|w| w.trace.hash())
}

/// A random fault schedule, drawn from the simulation's seed: one fault at
/// a time, each starting after a pause drawn from `pause` and lasting a
/// time drawn from `duration`, then undone (the partition repaired, the
/// host restarted).
#[derive(Debug, Clone)]
pub struct FaultSchedule {
    /// Shortest and longest time between faults.
    pub pause: (Duration, Duration),
    /// Shortest and longest time a fault lasts.
    pub duration: (Duration, Duration),
    /// Two-way and one-way partitions between any two hosts.
    pub partitions: bool,
    /// Crashes (and restarts) of the hosts that have software.
    pub crashes: bool,
}

impl Default for FaultSchedule {
    fn default() -> FaultSchedule {
        FaultSchedule {
            pause: (Duration::from_millis(100), Duration::from_secs(2)),
            duration: (Duration::from_millis(50), Duration::from_secs(1)),
            partitions: true,
            crashes: true,
        }
    }
}

fn draw(w: &mut World, (low, high): (Duration, Duration)) -> Duration {
    let nanos = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
    Duration::from_nanos(w.rng.between(nanos(low), nanos(high)))
}

enum Fault {
    Partition(usize, usize, bool),
    Crash(usize),
}

/// Runs `schedule` until the simulation ends.
pub(crate) async fn run_schedule(schedule: FaultSchedule) {
    loop {
        let pause = with_world(|w| draw(w, schedule.pause));
        rt_time::sleep(pause).await;
        let picked = with_world(|w| {
            let hosts = w.hosts.len();
            let restartable: Vec<usize> = (0..hosts)
                .filter(|&h| w.hosts[h].software.is_some() && w.hosts[h].up)
                .collect();
            let mut kinds = Vec::new();
            if schedule.partitions && hosts >= 2 {
                kinds.push(0);
            }
            if schedule.crashes && !restartable.is_empty() {
                kinds.push(1);
            }
            if kinds.is_empty() {
                return None;
            }
            let fault = match kinds[w.rng.below(kinds.len() as u64) as usize] {
                0 => {
                    let a = w.rng.below(hosts as u64) as usize;
                    let b = (a + 1 + w.rng.below(hosts as u64 - 1) as usize) % hosts;
                    let both = w.rng.chance(500_000);
                    w.blocked.insert((a, b));
                    if both {
                        w.blocked.insert((b, a));
                    }
                    let (x, y) = (w.hosts[a].name.clone(), w.hosts[b].name.clone());
                    let arrow = if both { "<->" } else { "->" };
                    w.record(format!("fault partition {x} {arrow} {y}"));
                    Fault::Partition(a, b, both)
                }
                _ => {
                    let h = restartable[w.rng.below(restartable.len() as u64) as usize];
                    host::crash(w, h);
                    Fault::Crash(h)
                }
            };
            Some((fault, draw(w, schedule.duration)))
        });
        let Some((fault, lasting)) = picked else {
            return;
        };
        rt_time::sleep(lasting).await;
        match fault {
            Fault::Partition(a, b, both) => with_world(|w| {
                w.blocked.remove(&(a, b));
                if both {
                    w.blocked.remove(&(b, a));
                }
                let (x, y) = (w.hosts[a].name.clone(), w.hosts[b].name.clone());
                w.record(format!("fault repair {x} {y}"));
                w.tcp_resend_stalled();
            }),
            Fault::Crash(h) => host::restart(h),
        }
    }
}
