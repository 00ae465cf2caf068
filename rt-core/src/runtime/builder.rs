//! `Builder`: every runtime option, and `build()` that assembles the parts.

use super::blocking::PoolConfig;
use super::blocking::{BlockingActivity, BlockingPool};
use super::config::Config;
use super::driver::{BaseDriverFactory, Driver, DriverHandles, DriverLayerFactory};
use super::metrics::HistogramConfiguration;
use super::park::ParkThread;
#[cfg(feature = "rt-multi-thread")]
use super::scheduler::multi_thread;
use super::scheduler::{self, current_thread, Common};
use super::slow_poll::{SlowPoll, SlowPollHook};
use super::spawn_policy::{BlockingPolicy, SpawnHook};
use super::{Callback, Handle, LocalOptions, LocalRuntime, Runtime, UnhandledPanic};
use crate::task::coop::DEFAULT_BUDGET;
use crate::util::rng::{self, SeedGenerator};
use std::fmt;
use std::io;
use std::sync::Arc;
use std::time::Duration;

/// Configures and builds a [`Runtime`].
///
/// ```
/// use rt_core::runtime::Builder;
///
/// let rt = Builder::new_current_thread()
///     .thread_name("my-blocking-pool")
///     .max_blocking_threads(8)
///     .build()
///     .unwrap();
/// assert_eq!(rt.block_on(async { 1 + 1 }), 2);
/// ```
pub struct Builder {
    kind: Kind,
    name: Option<String>,
    worker_threads: Option<usize>,
    thread_name: Arc<dyn Fn() -> String + Send + Sync>,
    thread_stack_size: Option<usize>,
    after_start: Option<Callback>,
    before_stop: Option<Callback>,
    before_park: Option<Callback>,
    after_unpark: Option<Callback>,
    event_interval: u32,
    global_queue_interval: Option<u32>,
    max_blocking_threads: usize,
    keep_alive: Option<Duration>,
    seed: Option<RngSeed>,
    unhandled_panic: UnhandledPanic,
    budget: Option<u32>,
    slow_poll: Option<SlowPollHook>,
    poll_histogram: Option<HistogramConfiguration>,
    poll_histogram_enabled: bool,
    on_spawn: Option<SpawnHook>,
    blocking: BlockingPolicy,
    base_driver: Option<BaseDriverFactory>,
    driver_layers: Vec<DriverLayerFactory>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    CurrentThread,
    #[cfg(feature = "rt-multi-thread")]
    MultiThread,
}

/// A seed that makes a runtime's random choices (which `select!` branch is
/// polled first, steal order, `StreamMap` start) repeat run after run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RngSeed(u64);

impl RngSeed {
    /// A seed from a number.
    pub fn from_u64(seed: u64) -> RngSeed {
        RngSeed(seed)
    }

    /// A seed from arbitrary bytes (hashed with FNV-1a, so equal bytes give
    /// equal seeds on every platform).
    pub fn from_bytes(bytes: &[u8]) -> RngSeed {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for b in bytes {
            hash ^= *b as u64;
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        RngSeed(hash)
    }

    /// The seed as a number.
    pub fn as_u64(&self) -> u64 {
        self.0
    }
}

const DEFAULT_EVENT_INTERVAL: u32 = 61;
const DEFAULT_GLOBAL_QUEUE_INTERVAL: u32 = 31;
#[cfg(feature = "rt-multi-thread")]
const DEFAULT_MULTI_THREAD_GLOBAL_QUEUE_INTERVAL: u32 = 61;
const DEFAULT_MAX_BLOCKING_THREADS: usize = 512;
const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(10);

impl Builder {
    /// A builder for the current-thread runtime: all tasks run on the thread
    /// that calls [`Runtime::block_on`].
    pub fn new_current_thread() -> Builder {
        Builder::new(Kind::CurrentThread)
    }

    /// A builder for the multi-thread work-stealing runtime (feature
    /// `rt-multi-thread`).
    #[cfg(feature = "rt-multi-thread")]
    pub fn new_multi_thread() -> Builder {
        Builder::new(Kind::MultiThread)
    }

    fn new(kind: Kind) -> Builder {
        Builder {
            kind,
            name: None,
            worker_threads: None,
            thread_name: Arc::new(|| "rt-runtime-worker".to_string()),
            thread_stack_size: None,
            after_start: None,
            before_stop: None,
            before_park: None,
            after_unpark: None,
            event_interval: DEFAULT_EVENT_INTERVAL,
            global_queue_interval: None,
            max_blocking_threads: DEFAULT_MAX_BLOCKING_THREADS,
            keep_alive: None,
            seed: None,
            unhandled_panic: UnhandledPanic::Ignore,
            budget: Some(DEFAULT_BUDGET),
            slow_poll: None,
            poll_histogram: None,
            poll_histogram_enabled: false,
            on_spawn: None,
            blocking: BlockingPolicy::Pool,
            base_driver: None,
            driver_layers: Vec::new(),
        }
    }

    /// Names the runtime, as [`Handle::name`] reports it (unnamed by
    /// default). Thread names are set apart, by
    /// [`thread_name`](Self::thread_name).
    ///
    /// ```
    /// let rt = rt_core::runtime::Builder::new_current_thread()
    ///     .name("ingest")
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(rt.handle().name(), Some("ingest"));
    /// ```
    ///
    /// # Panics
    ///
    /// If `name` is empty or only whitespace.
    #[track_caller]
    pub fn name(&mut self, name: impl Into<String>) -> &mut Self {
        let name = name.into();
        assert!(!name.trim().is_empty(), "runtime name shouldn't be empty");
        self.name = Some(name);
        self
    }

    /// Number of worker threads of the multi-thread runtime (default: the
    /// number of CPUs). Ignored by the current-thread runtime.
    ///
    /// # Panics
    ///
    /// If `count` is 0.
    #[track_caller]
    pub fn worker_threads(&mut self, count: usize) -> &mut Self {
        assert!(count > 0, "Worker threads cannot be set to 0");
        self.worker_threads = Some(count);
        self
    }

    /// Names the runtime's threads (default `"rt-runtime-worker"`).
    pub fn thread_name(&mut self, name: impl Into<String>) -> &mut Self {
        let name = name.into();
        self.thread_name = Arc::new(move || name.clone());
        self
    }

    /// Names the runtime's threads with a function called once per thread.
    pub fn thread_name_fn<F>(&mut self, f: F) -> &mut Self
    where
        F: Fn() -> String + Send + Sync + 'static,
    {
        self.thread_name = Arc::new(f);
        self
    }

    /// Stack size, in bytes, of the runtime's threads.
    pub fn thread_stack_size(&mut self, size: usize) -> &mut Self {
        self.thread_stack_size = Some(size);
        self
    }

    /// Runs `f` on each runtime thread after it starts.
    pub fn on_thread_start<F: Fn() + Send + Sync + 'static>(&mut self, f: F) -> &mut Self {
        self.after_start = Some(Arc::new(f));
        self
    }

    /// Runs `f` on each runtime thread before it stops.
    pub fn on_thread_stop<F: Fn() + Send + Sync + 'static>(&mut self, f: F) -> &mut Self {
        self.before_stop = Some(Arc::new(f));
        self
    }

    /// Runs `f` just before a scheduler thread parks with nothing to do.
    pub fn on_thread_park<F: Fn() + Send + Sync + 'static>(&mut self, f: F) -> &mut Self {
        self.before_park = Some(Arc::new(f));
        self
    }

    /// Runs `f` just after a scheduler thread wakes from parking.
    pub fn on_thread_unpark<F: Fn() + Send + Sync + 'static>(&mut self, f: F) -> &mut Self {
        self.after_unpark = Some(Arc::new(f));
        self
    }

    /// Ticks between polls of the driver while tasks keep the scheduler busy
    /// (default 61). Lower favours I/O latency, higher task throughput.
    ///
    /// # Panics
    ///
    /// If `ticks` is 0.
    #[track_caller]
    pub fn event_interval(&mut self, ticks: u32) -> &mut Self {
        assert!(ticks > 0, "event_interval must be greater than 0");
        self.event_interval = ticks;
        self
    }

    /// Ticks between checks of the shared injection queue ahead of local
    /// work (default 31 on the current-thread runtime; on the multi-thread
    /// runtime, unless set here, each worker tunes it to check about every
    /// 200 µs given its tasks' poll times).
    ///
    /// # Panics
    ///
    /// If `ticks` is 0.
    #[track_caller]
    pub fn global_queue_interval(&mut self, ticks: u32) -> &mut Self {
        assert!(ticks > 0, "global_queue_interval must be greater than 0");
        self.global_queue_interval = Some(ticks);
        self
    }

    /// Upper limit on blocking-pool threads (default 512).
    ///
    /// # Panics
    ///
    /// If `limit` is 0.
    #[track_caller]
    pub fn max_blocking_threads(&mut self, limit: usize) -> &mut Self {
        assert!(limit > 0, "Max blocking threads cannot be set to 0");
        self.max_blocking_threads = limit;
        self
    }

    /// How long an idle blocking thread waits for work before exiting
    /// (default 10 s).
    pub fn thread_keep_alive(&mut self, duration: Duration) -> &mut Self {
        self.keep_alive = Some(duration);
        self
    }

    /// Fixes every random choice the runtime makes, for reproducible runs.
    ///
    /// Without a seed, `build` reads the `RT_SEED` environment variable (a
    /// decimal `u64`) and otherwise picks one at random; either way
    /// [`Handle::rng_seed`] reports the seed in use, so that a failing run
    /// can be replayed with `RT_SEED=<seed>`.
    pub fn rng_seed(&mut self, seed: RngSeed) -> &mut Self {
        self.seed = Some(seed);
        self
    }

    /// What to do when a spawned task panics (default: keep running). See
    /// [`UnhandledPanic`].
    pub fn unhandled_panic(&mut self, behavior: UnhandledPanic) -> &mut Self {
        self.unhandled_panic = behavior;
        self
    }

    /// Coop budget units a task may spend per poll before resources make it
    /// yield (default 128). `None` turns the budget off: resources never
    /// force a task to yield.
    ///
    /// ```
    /// let rt = rt_core::runtime::Builder::new_current_thread()
    ///     .coop_budget(None)
    ///     .build()
    ///     .unwrap();
    /// assert!(rt.block_on(async { rt_core::task::coop::has_budget_remaining() }));
    /// ```
    ///
    /// # Panics
    ///
    /// If `units` is `Some(0)`.
    #[track_caller]
    pub fn coop_budget(&mut self, units: impl Into<Option<u32>>) -> &mut Self {
        let units = units.into();
        assert!(units != Some(0), "coop budget must be greater than 0");
        self.budget = units;
        self
    }

    /// Reports every task poll that takes `threshold` or longer to `f`, on
    /// the thread that polled, with the task's id, name and spawn location
    /// (see [`SlowPoll`]). Turns on poll timing (two clock reads per poll).
    pub fn on_slow_poll<F>(&mut self, threshold: Duration, f: F) -> &mut Self
    where
        F: Fn(&SlowPoll<'_>) + Send + Sync + 'static,
    {
        self.slow_poll = Some(SlowPollHook {
            threshold,
            callback: Arc::new(f),
        });
        self
    }

    /// Calls `f` with the [`AbortHandle`](crate::task::AbortHandle) of
    /// every task spawned on this runtime (blocking closures run on the
    /// pool are not tasks), on the spawning thread, before the task first
    /// runs. A simulation uses it to give a task the host of the task that
    /// spawned it.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    ///
    /// let spawned = Arc::new(AtomicUsize::new(0));
    /// let counter = spawned.clone();
    /// let rt = rt_core::runtime::Builder::new_current_thread()
    ///     .on_spawn(move |_| {
    ///         counter.fetch_add(1, Ordering::Relaxed);
    ///     })
    ///     .build()
    ///     .unwrap();
    /// rt.block_on(async { rt_core::spawn(async {}).await.unwrap() });
    /// assert_eq!(spawned.load(Ordering::Relaxed), 1);
    /// ```
    pub fn on_spawn<F>(&mut self, f: F) -> &mut Self
    where
        F: Fn(&crate::task::AbortHandle) + Send + Sync + 'static,
    {
        self.on_spawn = Some(Arc::new(f));
        self
    }

    /// Where `spawn_blocking` runs its closure (default: the blocking
    /// pool). See [`BlockingPolicy`].
    ///
    /// ```
    /// use rt_core::runtime::{BlockingPolicy, Builder};
    ///
    /// let rt = Builder::new_current_thread()
    ///     .blocking_policy(BlockingPolicy::Inline)
    ///     .build()
    ///     .unwrap();
    /// let here = std::thread::current().id();
    /// let ran_on = rt.block_on(async {
    ///     rt_core::task::spawn_blocking(|| std::thread::current().id())
    ///         .await
    ///         .unwrap()
    /// });
    /// assert_eq!(ran_on, here);
    /// ```
    pub fn blocking_policy(&mut self, policy: BlockingPolicy) -> &mut Self {
        self.blocking = policy;
        self
    }

    /// Counts task poll durations into a histogram per worker, read through
    /// [`RuntimeMetrics`](super::RuntimeMetrics) (off by default: it reads
    /// the clock twice per poll).
    pub fn enable_metrics_poll_time_histogram(&mut self) -> &mut Self {
        self.poll_histogram_enabled = true;
        self
    }

    /// The poll-time histogram's buckets (default: ten of 100 µs). Takes
    /// effect with [`enable_metrics_poll_time_histogram`](Self::enable_metrics_poll_time_histogram).
    pub fn metrics_poll_time_histogram_configuration(
        &mut self,
        configuration: HistogramConfiguration,
    ) -> &mut Self {
        self.poll_histogram = Some(configuration);
        self
    }

    /// Replaces the bottom of the driver stack (by default a [`ParkThread`]).
    /// rt-io's reactor installs itself here.
    pub fn base_driver<F>(&mut self, factory: F) -> &mut Self
    where
        F: FnOnce(&mut DriverHandles) -> io::Result<Box<dyn Driver>> + Send + Sync + 'static,
    {
        self.base_driver = Some(Box::new(factory));
        self
    }

    /// Wraps the driver stack in another layer (rt-time's timer wheel).
    /// Layers apply in the order added.
    pub fn driver_layer<F>(&mut self, factory: F) -> &mut Self
    where
        F: FnOnce(Box<dyn Driver>, &mut DriverHandles) -> io::Result<Box<dyn Driver>>
            + Send
            + Sync
            + 'static,
    {
        self.driver_layers.push(Box::new(factory));
        self
    }

    /// Builds the runtime. Fails with the OS's error when a resource (a
    /// thread, an epoll instance) cannot be created.
    pub fn build(&mut self) -> io::Result<Runtime> {
        self.build_runtime(false)
    }

    /// Builds a [`LocalRuntime`]: a current-thread runtime that stays on
    /// this thread and runs `!Send` tasks as well.
    ///
    /// ```
    /// use rt_core::runtime::{Builder, LocalOptions};
    ///
    /// let rt = Builder::new_current_thread()
    ///     .build_local(LocalOptions::default())
    ///     .unwrap();
    /// let local = std::rc::Rc::new(3);
    /// assert_eq!(rt.block_on(rt.spawn_local(async move { *local })).unwrap(), 3);
    /// ```
    ///
    /// Fails with `InvalidInput` on a multi-thread builder, whose tasks
    /// must be `Send`.
    pub fn build_local(&mut self, options: LocalOptions) -> io::Result<LocalRuntime> {
        let _ = options;
        if self.kind != Kind::CurrentThread {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a LocalRuntime runs on one thread; build it from \
                 `Builder::new_current_thread()`, not `new_multi_thread()`",
            ));
        }
        Ok(LocalRuntime::from_runtime(self.build_runtime(true)?))
    }

    fn build_runtime(&mut self, local: bool) -> io::Result<Runtime> {
        // 1. The driver stack.
        let mut handles = DriverHandles::new();
        let activity = Arc::new(BlockingActivity::new());
        handles.insert(activity.clone());
        let mut driver: Box<dyn Driver> = match self.base_driver.take() {
            Some(factory) => factory(&mut handles)?,
            None => Box::new(ParkThread::new()),
        };
        for layer in self.driver_layers.drain(..) {
            driver = layer(driver, &mut handles)?;
        }
        let unpark = driver.unparker();
        activity.set_unpark(unpark.clone());

        // 2. The blocking pool.
        let blocking = BlockingPool::new(PoolConfig {
            thread_name: self.thread_name.clone(),
            stack_size: self.thread_stack_size,
            after_start: self.after_start.clone(),
            before_stop: self.before_stop.clone(),
            max_threads: self.max_blocking_threads,
            keep_alive: self.keep_alive.unwrap_or(DEFAULT_KEEP_ALIVE),
            activity,
        });

        // 3. The scheduler.
        let seed = match self.seed {
            Some(seed) => seed,
            None => seed_from_env()?.unwrap_or_else(|| RngSeed::from_u64(rng::random_seed())),
        };
        let poll_histogram = self
            .poll_histogram_enabled
            .then(|| self.poll_histogram.unwrap_or_default());
        let common = Common {
            id: super::Id::next(),
            unpark,
            driver_handles: handles,
            blocking: blocking.spawner().clone(),
            seed_generator: SeedGenerator::new(seed.0),
            config: Config {
                name: self.name.clone(),
                local,
                event_interval: self.event_interval,
                global_queue_interval: self.global_queue_interval.unwrap_or(match self.kind {
                    Kind::CurrentThread => DEFAULT_GLOBAL_QUEUE_INTERVAL,
                    #[cfg(feature = "rt-multi-thread")]
                    Kind::MultiThread => DEFAULT_MULTI_THREAD_GLOBAL_QUEUE_INTERVAL,
                }),
                tune_global_queue_interval: self.global_queue_interval.is_none(),
                budget: self.budget,
                before_park: self.before_park.clone(),
                after_unpark: self.after_unpark.clone(),
                unhandled_panic: self.unhandled_panic.clone(),
                seed,
                slow_poll: self.slow_poll.clone(),
                poll_histogram,
                measure_polls: self.slow_poll.is_some() || poll_histogram.is_some(),
                on_spawn: self.on_spawn.clone(),
                blocking: self.blocking,
            },
        };
        let handle = match self.kind {
            Kind::CurrentThread => {
                scheduler::Handle::CurrentThread(current_thread::Handle::new(common, driver))
            }
            #[cfg(feature = "rt-multi-thread")]
            Kind::MultiThread => {
                let workers = self
                    .worker_threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
                let threads = multi_thread::ThreadConfig {
                    name: self.thread_name.clone(),
                    stack_size: self.thread_stack_size,
                    after_start: self.after_start.clone(),
                    before_stop: self.before_stop.clone(),
                };
                scheduler::Handle::MultiThread(multi_thread::Handle::new(
                    common, driver, workers, threads,
                )?)
            }
        };
        Ok(Runtime::from_parts(Handle { inner: handle }, blocking))
    }
}

/// `RT_SEED`, if set, as the runtime's seed; a malformed value is an
/// `InvalidInput` error naming the variable and the value.
fn seed_from_env() -> io::Result<Option<RngSeed>> {
    rng::seed_from_env()
        .map(|seed| seed.map(RngSeed::from_u64))
        .map_err(|err| io::Error::new(io::ErrorKind::InvalidInput, err))
}

impl fmt::Debug for Builder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builder")
            .field("kind", &self.kind)
            .field("name", &self.name)
            .field("worker_threads", &self.worker_threads)
            .field("event_interval", &self.event_interval)
            .field("global_queue_interval", &self.global_queue_interval)
            .field("max_blocking_threads", &self.max_blocking_threads)
            .field("keep_alive", &self.keep_alive)
            .field("seed", &self.seed)
            .field("unhandled_panic", &self.unhandled_panic)
            .field("budget", &self.budget)
            .field("blocking", &self.blocking)
            .finish_non_exhaustive()
    }
}
