//! The facade's `Builder`: rt-core's, plus the choice of drivers (I/O,
//! time) to stack under the scheduler, which only the facade knows.

#[cfg(feature = "net")]
use super::IoDriverKind;
use super::{
    BlockingPolicy, HistogramConfiguration, LocalOptions, LocalRuntime, RngSeed, Runtime, SlowPoll,
    UnhandledPanic,
};
use std::io;
use std::time::Duration;

/// Configures and builds a [`Runtime`], with tokio's method names.
///
/// ```
/// let rt = rt::runtime::Builder::new_current_thread()
///     .enable_all()
///     .build()
///     .unwrap();
/// assert_eq!(rt.block_on(async { 40 + 2 }), 42);
/// ```
#[derive(Debug)]
pub struct Builder {
    inner: rt_core::runtime::Builder,
    enable_io: bool,
    /// `None`: `RT_IO_DRIVER`, or epoll.
    #[cfg(feature = "net")]
    io_driver: Option<IoDriverKind>,
    /// `None`: the reactor's default.
    max_io_events_per_tick: Option<usize>,
    /// `None`: as `max_io_events_per_tick`.
    max_io_events_per_busy_tick: Option<usize>,
    enable_time: bool,
    start_paused: bool,
    /// Tasks run on several threads: the clock cannot be paused.
    multi_thread: bool,
    #[cfg(all(unix, feature = "signal"))]
    dump_on_signal: Option<crate::signal::unix::SignalKind>,
}

impl Builder {
    /// A builder for the current-thread runtime: every task runs on the
    /// thread that calls `Runtime::block_on`.
    pub fn new_current_thread() -> Builder {
        Builder {
            inner: rt_core::runtime::Builder::new_current_thread(),
            enable_io: false,
            #[cfg(feature = "net")]
            io_driver: None,
            max_io_events_per_tick: None,
            max_io_events_per_busy_tick: None,
            enable_time: false,
            start_paused: false,
            multi_thread: false,
            #[cfg(all(unix, feature = "signal"))]
            dump_on_signal: None,
        }
    }

    /// A builder for the multi-thread work-stealing runtime (the default of
    /// `#[rt::main]`); needs the `rt-multi-thread` feature.
    #[cfg(feature = "rt-multi-thread")]
    pub fn new_multi_thread() -> Builder {
        Builder {
            inner: rt_core::runtime::Builder::new_multi_thread(),
            enable_io: false,
            #[cfg(feature = "net")]
            io_driver: None,
            max_io_events_per_tick: None,
            max_io_events_per_busy_tick: None,
            enable_time: false,
            start_paused: false,
            multi_thread: true,
            #[cfg(all(unix, feature = "signal"))]
            dump_on_signal: None,
        }
    }

    /// Names the runtime, as `Handle::name` reports it.
    ///
    /// # Panics
    ///
    /// If `name` is empty or only whitespace.
    #[track_caller]
    pub fn name(&mut self, name: impl Into<String>) -> &mut Self {
        self.inner.name(name);
        self
    }

    /// Number of worker threads of the multi-thread runtime (default: the
    /// number of CPUs).
    ///
    /// # Panics
    ///
    /// If `count` is 0.
    #[track_caller]
    pub fn worker_threads(&mut self, count: usize) -> &mut Self {
        self.inner.worker_threads(count);
        self
    }

    /// Enables every driver this build of rt provides, so that resources
    /// (sockets, timers) work inside the runtime.
    pub fn enable_all(&mut self) -> &mut Self {
        self.enable_io().enable_time()
    }

    /// Enables the time driver: `sleep`, `timeout` and `interval` work in
    /// the runtime. Without it, creating a timer inside the runtime panics
    /// with a message naming this method.
    pub fn enable_time(&mut self) -> &mut Self {
        self.enable_time = true;
        self
    }

    /// Starts the runtime with its clock paused (see `time::pause`): time
    /// moves only through `time::advance` or, when every task is idle, by
    /// jumping to the next timer. Needs the time driver (`enable_time`) and
    /// the paused clock (the `test-util` feature); without that feature
    /// `build` fails with an error that says so.
    pub fn start_paused(&mut self, start_paused: bool) -> &mut Self {
        self.start_paused = start_paused;
        self
    }

    /// Enables the I/O driver (the mio reactor): sockets and `AsyncFd`.
    /// Without it, creating a socket inside the runtime panics with a
    /// message naming this method.
    pub fn enable_io(&mut self) -> &mut Self {
        self.enable_io = true;
        self
    }

    /// Which I/O driver `enable_io` installs: [`IoDriverKind::Epoll`] (the
    /// default) or [`IoDriverKind::Uring`], with which `rt::fs` operations
    /// are io_uring submissions instead of blocking-pool hops (Linux, the
    /// `io-uring` feature). Without this call the `RT_IO_DRIVER`
    /// environment variable (`uring` or `epoll`) decides, read by `build`.
    /// A kernel that refuses io_uring gets epoll; `RuntimeMetrics::
    /// io_driver_kind` says which one runs.
    ///
    /// ```
    /// use rt::runtime::{Builder, IoDriverKind};
    ///
    /// let rt = Builder::new_current_thread()
    ///     .enable_io()
    ///     .io_driver(IoDriverKind::Uring)
    ///     .build()
    ///     .unwrap();
    /// let kind = rt.metrics().io_driver_kind();
    /// assert!(matches!(kind, Some(IoDriverKind::Uring | IoDriverKind::Epoll)));
    /// ```
    #[cfg(feature = "net")]
    pub fn io_driver(&mut self, kind: IoDriverKind) -> &mut Self {
        self.io_driver = Some(kind);
        self
    }

    /// The most I/O events the reactor takes from the OS per turn (default
    /// 1024); more wait for the next turn.
    ///
    /// # Panics
    ///
    /// If `capacity` is 0.
    #[track_caller]
    pub fn max_io_events_per_tick(&mut self, capacity: usize) -> &mut Self {
        assert!(capacity > 0, "max_io_events_per_tick must be non-zero");
        self.max_io_events_per_tick = Some(capacity);
        self
    }

    /// The most I/O events the reactor takes per turn when the runtime polls
    /// it while it still has tasks to run (every `event_interval` ticks of
    /// a busy worker); the rest wait in the kernel for a later turn. A
    /// small batch keeps a busy worker's queue from overflowing with the
    /// tasks the events wake. Default: `max_io_events_per_tick`.
    ///
    /// ```
    /// let rt = rt::runtime::Builder::new_current_thread()
    ///     .enable_io()
    ///     .max_io_events_per_tick(128)
    ///     .max_io_events_per_busy_tick(8)
    ///     .build()
    ///     .unwrap();
    /// # drop(rt);
    /// ```
    ///
    /// # Panics
    ///
    /// If `capacity` is 0.
    #[track_caller]
    pub fn max_io_events_per_busy_tick(&mut self, capacity: usize) -> &mut Self {
        assert!(capacity > 0, "max_io_events_per_busy_tick must be non-zero");
        self.max_io_events_per_busy_tick = Some(capacity);
        self
    }

    /// Names the runtime's threads.
    pub fn thread_name(&mut self, name: impl Into<String>) -> &mut Self {
        self.inner.thread_name(name);
        self
    }

    /// Names the runtime's threads with a function called once per thread.
    pub fn thread_name_fn<F>(&mut self, f: F) -> &mut Self
    where
        F: Fn() -> String + Send + Sync + 'static,
    {
        self.inner.thread_name_fn(f);
        self
    }

    /// Stack size, in bytes, of the runtime's threads.
    pub fn thread_stack_size(&mut self, size: usize) -> &mut Self {
        self.inner.thread_stack_size(size);
        self
    }

    /// Runs `f` on each runtime thread after it starts.
    pub fn on_thread_start<F: Fn() + Send + Sync + 'static>(&mut self, f: F) -> &mut Self {
        self.inner.on_thread_start(f);
        self
    }

    /// Runs `f` on each runtime thread before it stops.
    pub fn on_thread_stop<F: Fn() + Send + Sync + 'static>(&mut self, f: F) -> &mut Self {
        self.inner.on_thread_stop(f);
        self
    }

    /// Runs `f` just before a scheduler thread parks.
    pub fn on_thread_park<F: Fn() + Send + Sync + 'static>(&mut self, f: F) -> &mut Self {
        self.inner.on_thread_park(f);
        self
    }

    /// Runs `f` just after a scheduler thread unparks.
    pub fn on_thread_unpark<F: Fn() + Send + Sync + 'static>(&mut self, f: F) -> &mut Self {
        self.inner.on_thread_unpark(f);
        self
    }

    /// Ticks between driver polls while tasks keep the scheduler busy
    /// (default 61).
    #[track_caller]
    pub fn event_interval(&mut self, ticks: u32) -> &mut Self {
        self.inner.event_interval(ticks);
        self
    }

    /// Ticks between checks of the shared injection queue.
    #[track_caller]
    pub fn global_queue_interval(&mut self, ticks: u32) -> &mut Self {
        self.inner.global_queue_interval(ticks);
        self
    }

    /// Upper limit on blocking-pool threads (default 512).
    #[track_caller]
    pub fn max_blocking_threads(&mut self, limit: usize) -> &mut Self {
        self.inner.max_blocking_threads(limit);
        self
    }

    /// How long an idle blocking thread lives (default 10 s).
    pub fn thread_keep_alive(&mut self, duration: Duration) -> &mut Self {
        self.inner.thread_keep_alive(duration);
        self
    }

    /// Fixes every random choice the runtime makes, for reproducible runs.
    pub fn rng_seed(&mut self, seed: RngSeed) -> &mut Self {
        self.inner.rng_seed(seed);
        self
    }

    /// What to do when a spawned task panics (default: keep running).
    pub fn unhandled_panic(&mut self, behavior: UnhandledPanic) -> &mut Self {
        self.inner.unhandled_panic(behavior);
        self
    }

    /// Coop budget units per task poll (default 128); `None` turns the
    /// budget off.
    #[track_caller]
    pub fn coop_budget(&mut self, units: impl Into<Option<u32>>) -> &mut Self {
        self.inner.coop_budget(units);
        self
    }

    /// Calls `f` after every task poll that took at least `threshold`, with
    /// the task's id, name, spawn location and the poll's duration.
    pub fn on_slow_poll<F>(&mut self, threshold: Duration, f: F) -> &mut Self
    where
        F: Fn(&SlowPoll<'_>) + Send + Sync + 'static,
    {
        self.inner.on_slow_poll(threshold, f);
        self
    }

    /// Calls `f` with the `AbortHandle` of every task spawned on the
    /// runtime, before it first runs (rt-core's `Builder::on_spawn`).
    pub fn on_spawn<F>(&mut self, f: F) -> &mut Self
    where
        F: Fn(&crate::task::AbortHandle) + Send + Sync + 'static,
    {
        self.inner.on_spawn(f);
        self
    }

    /// Where `spawn_blocking` runs its closure (default: the blocking
    /// pool); see [`BlockingPolicy`].
    pub fn blocking_policy(&mut self, policy: BlockingPolicy) -> &mut Self {
        self.inner.blocking_policy(policy);
        self
    }

    /// Records a histogram of task poll times in
    /// [`RuntimeMetrics`](super::RuntimeMetrics).
    pub fn enable_metrics_poll_time_histogram(&mut self) -> &mut Self {
        self.inner.enable_metrics_poll_time_histogram();
        self
    }

    /// The poll-time histogram's buckets.
    pub fn metrics_poll_time_histogram_configuration(
        &mut self,
        configuration: HistogramConfiguration,
    ) -> &mut Self {
        self.inner
            .metrics_poll_time_histogram_configuration(configuration);
        self
    }

    /// Writes the runtime's task dump, with where each idle task waits
    /// (see [`Handle::dump`]), to stderr each time the process receives
    /// `kind` (for example `SIGUSR1`), without stopping anything: `kill
    /// -USR1 PID` on a program that seems stuck shows what its tasks wait
    /// for. The dump is taken on the process's signal dispatcher thread, so
    /// it needs no free worker: a runtime whose every worker is blocked
    /// still writes one, listing the tasks that hold the workers as
    /// running. It stops with the runtime.
    ///
    /// ```no_run
    /// use rt::signal::unix::SignalKind;
    ///
    /// let rt = rt::runtime::Builder::new_multi_thread()
    ///     .enable_all()
    ///     .dump_on_signal(SignalKind::user_defined1())
    ///     .build()
    ///     .unwrap();
    /// ```
    #[cfg(all(unix, feature = "signal"))]
    pub fn dump_on_signal(&mut self, kind: crate::signal::unix::SignalKind) -> &mut Self {
        self.dump_on_signal = Some(kind);
        self
    }

    /// Builds the runtime, failing with the OS's error if a resource cannot
    /// be created.
    pub fn build(&mut self) -> io::Result<Runtime> {
        let runtime = Runtime::from_core(self.with_drivers()?.build()?);
        #[cfg(all(unix, feature = "signal"))]
        if let Some(kind) = self.dump_on_signal {
            let dumper = super::dump_on_signal::DumpOnSignal::start(runtime.handle(), kind)?;
            return Ok(runtime.dumping_on_signal(dumper));
        }
        Ok(runtime)
    }

    /// Builds a [`LocalRuntime`]: a current-thread runtime that is `!Send`
    /// and runs `!Send` tasks spawned with `spawn_local`. Fails with
    /// `InvalidInput` on a multi-thread builder.
    ///
    /// ```
    /// use rt::runtime::{Builder, LocalOptions};
    ///
    /// let rt = Builder::new_current_thread()
    ///     .enable_all()
    ///     .build_local(LocalOptions::default())
    ///     .unwrap();
    /// let shared = std::rc::Rc::new("local");
    /// let task = rt.spawn_local(async move { *shared });
    /// assert_eq!(rt.block_on(task).unwrap(), "local");
    /// ```
    pub fn build_local(&mut self, options: LocalOptions) -> io::Result<LocalRuntime> {
        self.with_drivers()?
            .build_local(options)
            .map(LocalRuntime::from_core)
    }

    /// rt-core's builder with the enabled drivers installed.
    fn with_drivers(&mut self) -> io::Result<&mut rt_core::runtime::Builder> {
        #[cfg(feature = "net")]
        if self.enable_io {
            let options = rt_io::reactor::IoDriverOptions {
                kind: self.io_driver,
                events_capacity: self
                    .max_io_events_per_tick
                    .unwrap_or(rt_io::reactor::DEFAULT_EVENTS_CAPACITY),
                busy_events_capacity: self.max_io_events_per_busy_tick,
                ..Default::default()
            };
            self.inner
                .base_driver(rt_io::reactor::base_driver_for(options)?);
        }
        #[cfg(feature = "time")]
        if self.enable_time && self.multi_thread {
            if self.start_paused {
                return Err(io::Error::other(
                    "starting the clock paused needs the current-thread runtime",
                ));
            }
            self.inner
                .driver_layer(rt_time::multi_thread_driver_layer());
        } else if self.enable_time {
            self.inner
                .driver_layer(rt_time::driver_layer(self.start_paused));
        }
        #[cfg(not(feature = "time"))]
        if self.start_paused {
            return Err(io::Error::other(
                "starting the clock paused needs rt's `test-util` feature",
            ));
        }
        #[cfg(not(feature = "time"))]
        let _ = (self.enable_time, self.multi_thread);
        Ok(&mut self.inner)
    }
}
