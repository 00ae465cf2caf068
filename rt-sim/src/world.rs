//! The simulated world: hosts, links, sockets, the event queue and the
//! trace, behind one lock, found through the runtime's driver handles.
//!
//! **One lock, one thread.** Everything runs on the simulation's one
//! thread; the lock exists because driver handles must be `Sync`. No
//! code runs user code, wakes a task or aborts one while holding it:
//! [`with_world`] collects the wakers and abort handles an operation
//! produced in `World::deferred` and acts on them after unlocking, so a
//! woken task can never find the lock held.
//!
//! **The event queue** holds packets in flight, ordered by their arrival
//! time and then by the order they were sent (`seq`), so two packets due
//! at the same instant are always delivered in the same order. The pump
//! (`pump.rs`) delivers what is due and sleeps on the runtime's paused
//! clock until the next arrival.

use crate::host::{Host, HostId};
use crate::link::LinkConfig;
use crate::net::tcp::{ConnId, Packet, TcpTable};
use crate::net::udp::UdpTable;
use crate::rng::SimRng;
use crate::trace::Trace;
use rt_core::task::AbortHandle;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::Waker;
use std::time::Duration;

/// The simulation's handle, published in the runtime's driver handles;
/// simulated sockets keep a clone.
#[derive(Debug)]
pub(crate) struct SimHandle {
    world: Mutex<World>,
    /// The host of each live task spawned with plain `rt::spawn` (or
    /// `spawn_blocking`) from a host's task, by task id. Apart from the
    /// world because it is read where the world may be locked.
    task_hosts: Mutex<BTreeMap<rt_core::task::Id, HostId>>,
}

/// Something in flight through the simulated network.
#[derive(Debug)]
pub(crate) enum Event {
    /// A TCP packet from one end of a connection to the other.
    Tcp {
        conn: ConnId,
        from_end: usize,
        seq: u64,
        packet: Packet,
    },
    /// A UDP datagram.
    Datagram {
        from: SocketAddr,
        to: SocketAddr,
        data: Vec<u8>,
    },
}

#[derive(Debug)]
struct Scheduled {
    at: Duration,
    seq: u64,
    event: Event,
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Scheduled {
    /// Reversed, so that `BinaryHeap` pops the earliest first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

/// Work produced under the lock, done after it is released.
#[derive(Debug, Default)]
pub(crate) struct Deferred {
    pub(crate) wake: Vec<Waker>,
    pub(crate) abort: Vec<AbortHandle>,
}

/// Settings fixed when the simulation is built.
#[derive(Debug, Clone)]
pub(crate) struct NetConfig {
    pub(crate) default_link: LinkConfig,
    pub(crate) tcp_buffer: usize,
    pub(crate) udp_queue: usize,
    pub(crate) backlog: usize,
}

/// Everything the simulation knows.
#[derive(Debug)]
pub(crate) struct World {
    pub(crate) rng: SimRng,
    pub(crate) trace: Trace,
    pub(crate) config: NetConfig,
    pub(crate) hosts: Vec<Host>,
    pub(crate) links: BTreeMap<(HostId, HostId), LinkConfig>,
    /// Directions `(from, to)` that drop everything (partitions).
    pub(crate) blocked: BTreeSet<(HostId, HostId)>,
    pub(crate) tcp: TcpTable,
    pub(crate) udp: UdpTable,
    pub(crate) deferred: Deferred,
    /// The first failure of the run (a panic, a host's error), which ends it.
    pub(crate) failure: Option<String>,
    /// Woken when `failure` is set: the run's main future.
    pub(crate) failure_waker: Option<Waker>,
    queue: BinaryHeap<Scheduled>,
    seq: u64,
    /// The instant virtual time counts from, set when the run starts.
    start: Option<rt_time::Instant>,
    pump_waker: Option<Waker>,
}

impl SimHandle {
    pub(crate) fn new(seed: u64, config: NetConfig, keep_trace: bool) -> SimHandle {
        SimHandle {
            world: Mutex::new(World {
                rng: SimRng::new(seed),
                trace: Trace::new(keep_trace),
                config,
                hosts: Vec::new(),
                links: BTreeMap::new(),
                blocked: BTreeSet::new(),
                tcp: TcpTable::default(),
                udp: UdpTable::default(),
                deferred: Deferred::default(),
                failure: None,
                failure_waker: None,
                queue: BinaryHeap::new(),
                seq: 0,
                start: None,
                pump_waker: None,
            }),
            task_hosts: Mutex::new(BTreeMap::new()),
        }
    }

    /// The host a task was spawned from, if it was spawned on one.
    pub(crate) fn host_of_task(&self, id: rt_core::task::Id) -> Option<HostId> {
        self.task_hosts().get(&id).copied()
    }

    pub(crate) fn task_hosts(&self) -> MutexGuard<'_, BTreeMap<rt_core::task::Id, HostId>> {
        self.task_hosts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn lock(&self) -> MutexGuard<'_, World> {
        // A panic under the lock is a bug of this crate, reported where it
        // happened; the world it left is still the best one to report from.
        self.world
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `f` on the world, then wakes and aborts what it deferred.
    pub(crate) fn with<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        let (result, deferred) = {
            let mut world = self.lock();
            let result = f(&mut world);
            (result, std::mem::take(&mut world.deferred))
        };
        for handle in deferred.abort {
            handle.abort();
        }
        for waker in deferred.wake {
            waker.wake();
        }
        result
    }

    /// Empties the world after the runtime is gone, breaking the cycles
    /// between sockets (which hold this handle) and the wakers and tasks
    /// the world holds.
    pub(crate) fn clear(&self) {
        self.task_hosts().clear();
        let taken = {
            let mut world = self.lock();
            (
                std::mem::take(&mut world.hosts),
                std::mem::take(&mut world.tcp),
                std::mem::take(&mut world.udp),
                std::mem::take(&mut world.queue),
                world.pump_waker.take(),
                world.failure_waker.take(),
            )
        };
        drop(taken);
    }
}

/// The current simulation's handle.
///
/// # Panics
///
/// Outside a simulation, with a message that says so.
#[track_caller]
pub(crate) fn current() -> Arc<SimHandle> {
    match rt_core::runtime::try_current_driver_handle::<SimHandle>() {
        Ok(Some(handle)) => handle,
        _ => panic!("rt-sim: this must be called inside a simulation (`Sim::run`)"),
    }
}

/// The current simulation's handle, `None` outside a simulation.
pub(crate) fn try_current() -> Option<Arc<SimHandle>> {
    rt_core::runtime::try_current_driver_handle::<SimHandle>()
        .ok()
        .flatten()
}

/// Runs `f` on the current simulation's world (see [`SimHandle::with`]).
#[track_caller]
pub(crate) fn with_world<R>(f: impl FnOnce(&mut World) -> R) -> R {
    current().with(f)
}

impl World {
    /// Virtual time since the run started.
    pub(crate) fn now(&self) -> Duration {
        match self.start {
            Some(start) => rt_time::Instant::now().saturating_duration_since(start),
            None => Duration::ZERO,
        }
    }

    pub(crate) fn start_clock(&mut self) {
        self.start = Some(rt_time::Instant::now());
    }

    /// The instant of virtual time `at`, on the runtime's clock.
    pub(crate) fn instant_at(&self, at: Duration) -> rt_time::Instant {
        let start = self.start.unwrap_or_else(rt_time::Instant::now);
        start.checked_add(at).unwrap_or(start)
    }

    /// Records an event in the trace at the current virtual time.
    pub(crate) fn record(&mut self, what: String) {
        let now = self.now();
        self.trace.record(now, what);
    }

    /// Ends the run with `message` unless it already failed.
    pub(crate) fn fail(&mut self, message: String) {
        self.record(format!("failure {message}"));
        if self.failure.is_none() {
            self.failure = Some(message);
            if let Some(waker) = self.failure_waker.take() {
                self.deferred.wake.push(waker);
            }
        }
    }

    /// Puts `event` in flight, to arrive at virtual time `at`.
    pub(crate) fn schedule(&mut self, at: Duration, event: Event) {
        let earliest = match self.queue.peek() {
            Some(first) => at < first.at,
            None => true,
        };
        self.seq += 1;
        self.queue.push(Scheduled {
            at,
            seq: self.seq,
            event,
        });
        if earliest {
            if let Some(waker) = self.pump_waker.take() {
                self.deferred.wake.push(waker);
            }
        }
    }

    /// The earliest event due at or before now, if any.
    pub(crate) fn pop_due(&mut self) -> Option<Event> {
        let now = self.now();
        if self.queue.peek()?.at > now {
            return None;
        }
        self.queue.pop().map(|s| s.event)
    }

    /// When the next event is due; registers the pump's waker for an
    /// earlier one.
    pub(crate) fn next_due(&mut self, pump: &Waker) -> Option<Duration> {
        if !self.pump_waker.as_ref().is_some_and(|w| w.will_wake(pump)) {
            self.pump_waker = Some(pump.clone());
        }
        self.queue.peek().map(|s| s.at)
    }

    /// The behaviour of the direction `from -> to`.
    pub(crate) fn link(&self, from: HostId, to: HostId) -> LinkConfig {
        if from == to {
            return LinkConfig::loopback();
        }
        self.links
            .get(&(from, to))
            .copied()
            .unwrap_or(self.config.default_link)
    }

    /// Whether a partition cuts the direction `from -> to`.
    pub(crate) fn is_blocked(&self, from: HostId, to: HostId) -> bool {
        self.blocked.contains(&(from, to))
    }

    /// Virtual time at which a packet sent now `from -> to` arrives.
    pub(crate) fn arrival(&mut self, from: HostId, to: HostId) -> Duration {
        let latency = self.link(from, to).latency;
        self.now() + latency.sample(&mut self.rng)
    }
}
