//! Hosts: a name, an address, the tasks that run on it, and the software
//! that starts them, so that a host can crash and restart.
//!
//! **Which host a task belongs to.** Every task of a host runs inside
//! [`InHost`], which names the host in a thread-local while it polls the
//! task; sockets created during the poll take that host's address, and
//! [`spawn`] gives the new task the same host. A crash aborts every task
//! the host spawned this way and resets its sockets (`net`); the
//! incarnation number (`epoch`) rises, so nothing of the old incarnation
//! is mistaken for the new one.

use crate::world::{current, try_current, with_world, SimHandle, World};
use rt_core::task::{AbortHandle, JoinHandle};
use std::cell::Cell;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// An index into the world's hosts.
pub(crate) type HostId = usize;

/// What a host's software returns: an error ends the run as a failure.
pub type HostResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

type BoxedSoftware = Pin<Box<dyn Future<Output = HostResult> + Send>>;

/// Starts a host's software, once at the start and again at each restart.
pub(crate) type Factory = Arc<dyn Fn() -> BoxedSoftware + Send + Sync>;

pub(crate) fn factory<F, Fut>(software: F) -> Factory
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = HostResult> + Send + 'static,
{
    Arc::new(move || Box::pin(software()))
}

/// One simulated machine.
pub(crate) struct Host {
    pub(crate) name: String,
    pub(crate) ip: IpAddr,
    pub(crate) up: bool,
    /// Incarnation number, raised by each crash.
    pub(crate) epoch: u64,
    /// The tasks of the current incarnation.
    pub(crate) tasks: Vec<AbortHandle>,
    /// `None` for a client host, which runs the test's code once.
    pub(crate) software: Option<Factory>,
    /// How much faster (positive) or slower this host's clock runs, in
    /// parts per million.
    pub(crate) skew_ppm: i64,
    pub(crate) next_port: u16,
}

impl std::fmt::Debug for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Host")
            .field("name", &self.name)
            .field("ip", &self.ip)
            .field("up", &self.up)
            .field("epoch", &self.epoch)
            .finish_non_exhaustive()
    }
}

/// The first port handed out for an unspecified local port.
const FIRST_EPHEMERAL_PORT: u16 = 49152;

impl Host {
    pub(crate) fn new(index: usize, name: String, software: Option<Factory>) -> Host {
        let n = u32::try_from(index + 1).expect("too many hosts");
        let ip = Ipv4Addr::from(u32::from(Ipv4Addr::new(10, 0, 0, 0)) + n);
        Host {
            name,
            ip: IpAddr::V4(ip),
            up: true,
            epoch: 0,
            tasks: Vec::new(),
            software,
            skew_ppm: 0,
            next_port: FIRST_EPHEMERAL_PORT,
        }
    }

    pub(crate) fn ephemeral_port(&mut self) -> u16 {
        let port = self.next_port;
        self.next_port = self
            .next_port
            .checked_add(1)
            .unwrap_or(FIRST_EPHEMERAL_PORT);
        port
    }
}

thread_local! {
    static CURRENT_HOST: Cell<Option<HostId>> = const { Cell::new(None) };
}

/// The host whose task is running, if any: the host an `InHost` task
/// names, or the host a plain `rt::spawn`ed task was spawned from.
pub(crate) fn current_host() -> Option<HostId> {
    CURRENT_HOST.with(Cell::get).or_else(|| {
        let id = rt_core::task::try_id()?;
        try_current()?.host_of_task(id)
    })
}

/// Runs `f` with `host` named as the current host.
fn as_host<R>(host: HostId, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<HostId>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT_HOST.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(CURRENT_HOST.with(|c| c.replace(Some(host))));
    f()
}

/// The runtime's spawn hook (`Builder::on_spawn`): a task spawned while a
/// host's task runs, with `rt_sim::spawn` or plain `rt::spawn` alike,
/// belongs to that host, and a crash aborts it.
pub(crate) fn adopt(task: &AbortHandle) {
    let Some(host) = current_host() else {
        return;
    };
    let sim = current();
    let finished = sim.with(|w| {
        let mut finished = Vec::new();
        let tasks = &mut w.hosts[host].tasks;
        tasks.retain(|t| {
            let done = t.is_finished();
            if done {
                finished.push(t.id());
            }
            !done
        });
        tasks.push(task.clone());
        finished
    });
    let mut task_hosts = sim.task_hosts();
    for id in finished {
        task_hosts.remove(&id);
    }
    task_hosts.insert(task.id(), host);
}

/// The runtime's panic hook: a panic in a task of a host that `InHost`
/// did not see (a plain `rt::spawn`ed task) fails the run too.
pub(crate) fn report_panic(
    sim: &SimHandle,
    task: rt_core::task::Id,
    panic: &(dyn std::any::Any + Send),
) {
    let host = sim.host_of_task(task);
    let message = panic_message(panic);
    sim.with(|w| {
        if w.failure.is_some() {
            return;
        }
        match host {
            Some(host) => {
                let name = w.hosts[host].name.clone();
                w.fail(format!("a task of host {name} panicked: {message}"));
            }
            None => w.fail(format!("a task outside the hosts panicked: {message}")),
        }
    });
}

/// The host whose task is running.
///
/// # Panics
///
/// Outside a host's task.
#[track_caller]
pub(crate) fn expect_current_host() -> HostId {
    current_host().expect(
        "rt-sim: sockets and host operations need a host's task (spawned by the simulation or by `rt_sim::spawn`)",
    )
}

pin_project_lite::pin_project! {
    /// A task of `host`: names the host while polling, and turns a panic
    /// into the run's failure before passing it on to the `JoinHandle`.
    pub(crate) struct InHost<F> {
        host: HostId,
        #[pin]
        future: F,
    }
}

impl<F: Future> Future for InHost<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        let host = *this.host;
        let result = as_host(host, || {
            catch_unwind(AssertUnwindSafe(|| this.future.poll(cx)))
        });
        match result {
            Ok(poll) => poll,
            Err(panic) => {
                let message = panic_message(&*panic);
                with_world(|w| {
                    let name = w.hosts[host].name.clone();
                    w.fail(format!("a task of host {name} panicked: {message}"));
                });
                resume_unwind(panic)
            }
        }
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic payload that is not a string)".to_string()
    }
}

/// Spawns `future` on `host`, as one of its tasks.
pub(crate) fn spawn_on<F>(host: HostId, future: F) -> JoinHandle<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    // The spawn hook (`adopt`) files the task under `host`.
    as_host(host, || rt_core::task::spawn(InHost { host, future }))
}

/// Spawns a task on the current host: it is aborted when the host crashes.
/// Plain `rt::spawn` does the same inside a host's task; this one also
/// fails the run at once, naming the host, when the task panics.
///
/// # Panics
///
/// Outside a host's task.
#[track_caller]
pub fn spawn<F>(future: F) -> JoinHandle<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    spawn_on(expect_current_host(), future)
}

/// Starts `host`'s software as a task; an error it returns fails the run.
pub(crate) fn start_software(host: HostId, software: &Factory) {
    let run = software();
    spawn_on(host, async move {
        if let Err(error) = run.await {
            with_world(|w| {
                let name = w.hosts[host].name.clone();
                w.fail(format!("host {name} returned an error: {error}"));
            });
        }
    });
}

/// The host named `name`.
pub(crate) fn find(world: &World, name: &str) -> Option<HostId> {
    world.hosts.iter().position(|h| h.name == name)
}

#[track_caller]
pub(crate) fn expect_host(world: &World, name: &str) -> HostId {
    find(world, name).unwrap_or_else(|| panic!("rt-sim: there is no host named {name:?}"))
}

/// Crashes `host`: aborts its tasks, resets its sockets, raises its
/// incarnation. A crashed host stays down until [`restart`].
pub(crate) fn crash(world: &mut World, host: HostId) {
    if !world.hosts[host].up {
        return;
    }
    let name = world.hosts[host].name.clone();
    world.record(format!("crash {name}"));
    let entry = &mut world.hosts[host];
    entry.up = false;
    entry.epoch += 1;
    let tasks = std::mem::take(&mut entry.tasks);
    world.deferred.abort.extend(tasks);
    crate::net::reset_host(world, host);
}

/// Restarts a crashed `host` with a fresh start of its software.
pub(crate) fn restart(host: HostId) {
    let software = with_world(|w| {
        let entry = &mut w.hosts[host];
        if entry.up {
            return None;
        }
        entry.up = true;
        let name = entry.name.clone();
        let software = entry.software.clone();
        w.record(format!("restart {name}"));
        software
    });
    if let Some(software) = software {
        start_software(host, &software);
    }
}
