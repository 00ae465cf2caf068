//! Building and running a simulation.

use crate::faults::{run_schedule, FaultSchedule};
use crate::host::{self, factory, Factory, Host, HostResult};
use crate::link::LinkConfig;
use crate::net::seam::Network;
use crate::pump::Pump;
use crate::seed::{self, BadSeed};
use crate::trace::TraceEvent;
use crate::world::{NetConfig, SimHandle};
use rt_core::runtime::{BlockingPolicy, ParkThread, RngSeed, UnhandledPanic};
use rt_io::net::sim_seam::SimNet;
use std::fmt;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

/// Configures a [`Sim`].
#[derive(Debug, Clone)]
pub struct Builder {
    seed: u64,
    net: NetConfig,
    time_limit: Duration,
    keep_trace: bool,
    faults: Option<FaultSchedule>,
}

impl Builder {
    /// The seed every random choice derives from (the network's draws, the
    /// fault schedule, the runtime's own choices). `RT_SIM_SEED` overrides
    /// it when the simulation runs.
    pub fn seed(&mut self, seed: u64) -> &mut Self {
        self.seed = seed;
        self
    }

    /// The links' behaviour unless [`set_link`](crate::set_link) says
    /// otherwise (default: clean, 1 ms).
    pub fn link(&mut self, config: LinkConfig) -> &mut Self {
        self.net.default_link = config;
        self
    }

    /// Bytes a TCP connection holds per direction before the writer waits
    /// (default 64 KiB).
    ///
    /// # Panics
    ///
    /// If `bytes` is 0.
    #[track_caller]
    pub fn tcp_buffer(&mut self, bytes: usize) -> &mut Self {
        assert!(bytes > 0, "a TCP buffer needs room for one byte");
        self.net.tcp_buffer = bytes;
        self
    }

    /// Datagrams a UDP socket holds before it drops new ones (default 64).
    pub fn udp_queue(&mut self, datagrams: usize) -> &mut Self {
        self.net.udp_queue = datagrams;
        self
    }

    /// Virtual time after which a run that has not finished fails (default
    /// 10 minutes): a run that waits forever is a failure, not a hang.
    pub fn time_limit(&mut self, limit: Duration) -> &mut Self {
        self.time_limit = limit;
        self
    }

    /// Keeps every trace event in the [`Report`] (default: only the hash).
    pub fn keep_trace(&mut self, keep: bool) -> &mut Self {
        self.keep_trace = keep;
        self
    }

    /// Injects faults on a random schedule drawn from the seed.
    pub fn faults(&mut self, schedule: FaultSchedule) -> &mut Self {
        self.faults = Some(schedule);
        self
    }

    /// A simulation with no hosts yet.
    pub fn build(&self) -> Sim {
        Sim {
            config: self.clone(),
            hosts: Vec::new(),
            clients: Vec::new(),
        }
    }
}

type ClientFuture = Pin<Box<dyn Future<Output = HostResult> + Send>>;

/// A simulated world of hosts on one network, run on one thread in virtual
/// time. See the crate's documentation.
pub struct Sim {
    config: Builder,
    hosts: Vec<(String, Option<Factory>)>,
    clients: Vec<(usize, ClientFuture)>,
}

impl fmt::Debug for Sim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sim")
            .field("config", &self.config)
            .field(
                "hosts",
                &self.hosts.iter().map(|h| &h.0).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl Sim {
    /// A builder with the defaults.
    pub fn builder() -> Builder {
        Builder {
            seed: 0,
            net: NetConfig {
                default_link: LinkConfig::default(),
                tcp_buffer: 64 * 1024,
                udp_queue: 64,
                backlog: 128,
            },
            time_limit: Duration::from_secs(600),
            keep_trace: false,
            faults: None,
        }
    }

    /// A simulation with the defaults and `seed`.
    pub fn new(seed: u64) -> Sim {
        Sim::builder().seed(seed).build()
    }

    /// Adds a host named `name` running `software`, which is called again
    /// to start the host afresh after each crash. Hosts get the addresses
    /// 10.0.0.1, 10.0.0.2, ... in the order they are added.
    ///
    /// # Panics
    ///
    /// If a host of that name exists.
    #[track_caller]
    pub fn host<F, Fut>(&mut self, name: impl Into<String>, software: F) -> &mut Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HostResult> + Send + 'static,
    {
        self.add(name.into(), Some(factory(software)));
        self
    }

    /// Adds a host that runs `test` once: the test's own code. The run
    /// ends when every client has finished (or one failed).
    ///
    /// # Panics
    ///
    /// If a host of that name exists.
    #[track_caller]
    pub fn client<Fut>(&mut self, name: impl Into<String>, test: Fut) -> &mut Self
    where
        Fut: Future<Output = HostResult> + Send + 'static,
    {
        let id = self.add(name.into(), None);
        self.clients.push((id, Box::pin(test)));
        self
    }

    #[track_caller]
    fn add(&mut self, name: String, software: Option<Factory>) -> usize {
        assert!(
            self.hosts.iter().all(|(n, _)| *n != name),
            "rt-sim: a host named {name:?} exists already"
        );
        self.hosts.push((name, software));
        self.hosts.len() - 1
    }

    /// Runs the simulation until every client has finished, one task
    /// failed, or the time limit passed. On failure it prints the seed
    /// and the command that replays the run to stderr.
    pub fn run(self) -> Result<Report, SimError> {
        let seed = seed::resolve(self.config.seed).map_err(SimError::BadSeed)?;
        let result = self.run_with(seed);
        if let Err(error) = &result {
            eprintln!(
                "rt-sim: the simulation failed with seed {seed}: {error}\nrt-sim: replay it with: {}",
                seed::replay_command(seed)
            );
        }
        result
    }

    fn run_with(self, seed: u64) -> Result<Report, SimError> {
        let sim = Arc::new(SimHandle::new(
            seed,
            self.config.net.clone(),
            self.config.keep_trace,
        ));
        let published = sim.clone();
        let runtime = rt_core::runtime::Builder::new_current_thread()
            .rng_seed(RngSeed::from_u64(seed))
            .on_spawn(host::adopt)
            .blocking_policy(BlockingPolicy::Inline)
            .unhandled_panic(UnhandledPanic::callback({
                let sim = sim.clone();
                move |task, panic| host::report_panic(&sim, task, panic)
            }))
            .base_driver(move |handles| {
                handles.insert(published);
                handles.insert(Arc::new(SimNet::new(Arc::new(Network))));
                Ok(Box::new(ParkThread::new()))
            })
            .driver_layer(rt_time::driver_layer(true))
            .build()
            .map_err(SimError::Runtime)?;
        let limit = self.config.time_limit;
        let faults = self.config.faults.clone();
        let hosts = self.hosts;
        let clients = self.clients;
        let (ended, report, failure) = runtime.block_on(async {
            sim.with(|w| {
                w.start_clock();
                for (index, (name, software)) in hosts.iter().enumerate() {
                    w.hosts
                        .push(Host::new(index, name.clone(), software.clone()));
                }
                w.record(format!("start seed {seed}"));
            });
            rt_core::task::spawn(Pump::new(sim.clone()));
            if let Some(schedule) = faults {
                rt_core::task::spawn(run_schedule(schedule));
            }
            for (index, (_, software)) in hosts.iter().enumerate() {
                if let Some(software) = software {
                    host::start_software(index, software);
                }
            }
            let mut waiting = Vec::new();
            for (index, test) in clients {
                waiting.push(host::spawn_on(index, test));
            }
            let deadline = rt_time::sleep(limit);
            let mut deadline = std::pin::pin!(deadline);
            let ended = poll_fn(|cx| {
                let failed = sim.with(|w| {
                    if w.failure.is_none() {
                        w.failure_waker = Some(cx.waker().clone());
                    }
                    w.failure.is_some()
                });
                if failed {
                    return Poll::Ready(Ended::Failed);
                }
                waiting.retain_mut(|client| match Pin::new(client).poll(cx) {
                    Poll::Pending => true,
                    Poll::Ready(Ok(Ok(()))) => false,
                    Poll::Ready(Ok(Err(error))) => {
                        sim.with(|w| w.fail(format!("a client returned an error: {error}")));
                        false
                    }
                    Poll::Ready(Err(join)) => {
                        sim.with(|w| w.fail(format!("a client task ended: {join}")));
                        false
                    }
                });
                if sim.with(|w| w.failure.is_some()) {
                    return Poll::Ready(Ended::Failed);
                }
                if waiting.is_empty() {
                    return Poll::Ready(Ended::Done);
                }
                if deadline.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Ended::TimeLimit);
                }
                Poll::Pending
            })
            .await;
            // Virtual time is only readable inside the runtime.
            sim.with(|w| {
                if let Ended::TimeLimit = ended {
                    w.record(format!("time limit {limit:?}"));
                }
                let report = Report {
                    seed,
                    hash: w.trace.hash(),
                    elapsed: w.now(),
                    events: w.trace.events().to_vec(),
                };
                (ended, report, w.failure.clone())
            })
        });
        drop(runtime);
        sim.clear();
        match ended {
            Ended::Done => Ok(report),
            Ended::Failed => Err(SimError::Failed {
                message: failure.unwrap_or_default(),
                report,
            }),
            Ended::TimeLimit => Err(SimError::TimeLimit { limit, report }),
        }
    }
}

enum Ended {
    Done,
    Failed,
    TimeLimit,
}

/// What a finished run did.
#[derive(Debug, Clone)]
pub struct Report {
    /// The seed it ran with.
    pub seed: u64,
    /// The hash of its trace: the same seed gives the same hash.
    pub hash: u64,
    /// Virtual time at its end.
    pub elapsed: Duration,
    /// Its events, when the builder asked to keep them.
    pub events: Vec<TraceEvent>,
}

/// Why a run failed.
#[derive(Debug)]
pub enum SimError {
    /// A task panicked, a host's software or a client returned an error.
    Failed {
        /// What failed, naming the host.
        message: String,
        /// The run up to the failure.
        report: Report,
    },
    /// The clients had not finished when the virtual time limit passed
    /// (every task waiting forever comes to this too).
    TimeLimit {
        /// The limit.
        limit: Duration,
        /// The run up to the limit.
        report: Report,
    },
    /// `RT_SIM_SEED` is malformed.
    BadSeed(BadSeed),
    /// The runtime could not be built.
    Runtime(std::io::Error),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Failed { message, .. } => write!(f, "{message}"),
            SimError::TimeLimit { limit, .. } => write!(
                f,
                "the clients had not finished after {limit:?} of virtual time (a task waits forever, or the limit is too short: Builder::time_limit)"
            ),
            SimError::BadSeed(error) => write!(f, "{error}"),
            SimError::Runtime(error) => write!(f, "building the simulation's runtime: {error}"),
        }
    }
}

impl std::error::Error for SimError {}
