//! Task dump traces: where each idle task waits, on both flavors and in a
//! LocalSet, and that taking one changes nothing for the traced tasks.

use rt_core::runtime::{Builder, Handle, Runtime};
use rt_core::task::{self, JoinSet, LocalSet, TaskInfo, TaskState};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::task::{Context, Poll, Waker};

/// A user future that waits until opened: it stores the waker itself, so
/// it is not an rt resource.
#[derive(Clone, Default)]
struct Gate(Arc<(AtomicBool, Mutex<Option<Waker>>)>);

impl Gate {
    fn open(&self) {
        self.0 .0.store(true, Ordering::SeqCst);
        if let Some(waker) = self.0 .1.lock().unwrap().take() {
            waker.wake();
        }
    }
}

impl Future for Gate {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        *self.0 .1.lock().unwrap() = Some(cx.waker().clone());
        if self.0 .0.load(Ordering::SeqCst) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

async fn outer(join: task::JoinHandle<u32>) -> u32 {
    middle(join).await + 1
}

async fn middle(join: task::JoinHandle<u32>) -> u32 {
    inner(join).await + 10
}

async fn inner(join: task::JoinHandle<u32>) -> u32 {
    join.await.unwrap() + 100
}

fn find<'a>(tasks: &'a [TaskInfo], name: &str) -> &'a TaskInfo {
    tasks
        .iter()
        .find(|t| t.name() == Some(name))
        .unwrap_or_else(|| panic!("no task named {name:?} in {tasks:?}"))
}

/// The names of the frames of the task's only chain, innermost first.
fn chain(info: &TaskInfo) -> Vec<String> {
    let trace = info
        .trace()
        .unwrap_or_else(|| panic!("no trace for {info}"));
    let chains: Vec<_> = trace.chains().collect();
    assert_eq!(chains.len(), 1, "{trace}");
    chains[0].iter().map(|f| f.name().to_string()).collect()
}

/// Index of the first frame whose name contains `part`.
fn at(chain: &[String], part: &str) -> usize {
    chain
        .iter()
        .position(|name| name.contains(part))
        .unwrap_or_else(|| panic!("no frame naming {part:?} in {chain:#?}"))
}

/// Waits (yielding) until every task but the caller was polled at least
/// once and is idle or finished.
async fn settle() {
    while Handle::current()
        .dump()
        .tasks()
        .iter()
        .any(|t| t.poll_count() == 0 || t.state() == TaskState::Scheduled)
    {
        task::yield_now().await;
    }
}

fn three_deep(rt: Runtime) {
    let gate = Gate::default();
    let target = {
        let gate = gate.clone();
        task::Builder::new()
            .name("target")
            .spawn_on(
                async move {
                    gate.await;
                    7
                },
                rt.handle(),
            )
            .unwrap()
    };
    let waiter = task::Builder::new()
        .name("waiter")
        .spawn_on(outer(target), rt.handle())
        .unwrap();
    rt.block_on(settle());

    let before = rt.handle().dump();
    let dump = rt.handle().dump();
    let info = find(dump.tasks(), "waiter");
    assert_eq!(info.state(), TaskState::Idle);
    // Trace polls are not polls.
    assert_eq!(
        info.poll_count(),
        find(before.tasks(), "waiter").poll_count()
    );
    let frames = chain(info);
    let leaf = at(&frames, "JoinHandle");
    // Miri's symbolizer names a function without its crate's path.
    let path = if cfg!(miri) { "" } else { "observe_trace::" };
    let (i, m, o) = (
        at(&frames, &format!("{path}inner")),
        at(&frames, &format!("{path}middle")),
        at(&frames, &format!("{path}outer")),
    );
    assert!(leaf < i && i < m && m < o, "{frames:#?}");
    let line = &info.trace().unwrap().chains().next().unwrap()[i];
    // Paths are printed relative to the working directory when below it.
    assert!(
        line.file().unwrap().ends_with("tests/observe_trace.rs"),
        "{line}"
    );
    assert_eq!(line.line(), Some(47), "{line}");

    // The target waits on a user future, which keeps the task's waker:
    // that future is the innermost frame reached.
    let target = find(dump.tasks(), "target");
    let frames = chain(target);
    assert!(frames[0].contains(&format!("{path}Gate")), "{frames:#?}");
    assert!(target.trace().unwrap().root().contains("observe_trace"));
    let text = dump.to_string();
    assert!(text.contains(&format!("{path}middle")), "{text}");

    // Woken after the dump, both run as if it had not happened.
    gate.open();
    assert_eq!(rt.block_on(waiter).unwrap(), 118);
}

#[test]
fn trace_of_three_async_fns_on_current_thread() {
    three_deep(Builder::new_current_thread().build().unwrap());
}

#[test]
fn trace_of_three_async_fns_on_multi_thread() {
    three_deep(
        Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .unwrap(),
    );
}

#[test]
fn join_set_and_blocking_join_are_leaves() {
    let rt = Builder::new_current_thread().build().unwrap();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let gate = Gate::default();
    let blocking = rt.spawn_blocking(move || release_rx.recv().unwrap());
    let on_blocking = task::Builder::new()
        .name("blocking")
        .spawn_on(async move { blocking.await.unwrap() }, rt.handle())
        .unwrap();
    let set_gate = gate.clone();
    let on_set = task::Builder::new()
        .name("set")
        .spawn_on(
            async move {
                let mut set = JoinSet::new();
                set.spawn(set_gate);
                set.join_next().await.unwrap().unwrap();
            },
            rt.handle(),
        )
        .unwrap();
    rt.block_on(settle());
    let dump = rt.handle().dump();
    let frames = chain(find(dump.tasks(), "blocking"));
    at(&frames, "JoinHandle");
    let frames = chain(find(dump.tasks(), "set"));
    at(&frames, "JoinSet");
    release_tx.send(()).unwrap();
    gate.open();
    rt.block_on(async {
        on_blocking.await.unwrap();
        on_set.await.unwrap();
    });
}

#[test]
fn running_and_scheduled_tasks_have_no_trace() {
    let rt = Builder::new_current_thread().build().unwrap();
    rt.block_on(async {
        let dumper = task::Builder::new()
            .name("dumper")
            .spawn(async {
                let queued = task::Builder::new().name("queued").spawn(async {}).unwrap();
                let dump = Handle::current().dump();
                queued.await.unwrap();
                dump
            })
            .unwrap();
        let dump = dumper.await.unwrap();
        for name in ["dumper", "queued"] {
            let info = find(dump.tasks(), name);
            assert_ne!(info.state(), TaskState::Idle);
            assert!(info.trace().is_none());
            assert!(info.to_string().contains("no trace"), "{info}");
        }
    });
}

#[test]
fn local_set_dump_traces() {
    let rt = Builder::new_current_thread().build().unwrap();
    let local = LocalSet::new();
    let gate = Gate::default();
    let target = {
        let gate = gate.clone();
        local.spawn_local(async move {
            gate.await;
            1
        })
    };
    let waiter = task::Builder::new()
        .name("local-waiter")
        .spawn_local_on(outer(target), &local)
        .unwrap();
    local.block_on(&rt, task::yield_now());
    let dump = local.dump();
    let frames = chain(find(dump.tasks(), "local-waiter"));
    assert!(at(&frames, "inner") < at(&frames, "outer"), "{frames:#?}");
    gate.open();
    assert_eq!(local.block_on(&rt, waiter).unwrap(), 112);
}

/// Dumps taken in a loop while another thread wakes the tasks over and
/// over: every wake that lands during a trace poll is handed back to the
/// scheduler, so each task sees every round and finishes.
#[test]
fn multi_thread_dumps_under_concurrent_wakes() {
    const TASKS: usize = 8;
    const ROUNDS: u64 = 200;
    let rt = Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let round = Arc::new(AtomicU64::new(0));
    let wakers: Arc<Mutex<Vec<Waker>>> = Arc::default();
    let handles: Vec<_> = (0..TASKS)
        .map(|_| {
            let (round, wakers) = (round.clone(), wakers.clone());
            rt.spawn(async move {
                let mut seen = 0;
                while seen < ROUNDS {
                    std::future::poll_fn(|cx| {
                        let now = round.load(Ordering::SeqCst);
                        if now > seen {
                            seen = now;
                            return Poll::Ready(());
                        }
                        wakers.lock().unwrap().push(cx.waker().clone());
                        if round.load(Ordering::SeqCst) > seen {
                            cx.waker().wake_by_ref();
                        }
                        Poll::Pending
                    })
                    .await;
                    // Waiting on an rt leaf between rounds too.
                    task::yield_now().await;
                }
                seen
            })
        })
        .collect();
    let done = Arc::new(AtomicBool::new(false));
    let waker_thread = {
        let (round, wakers, done) = (round.clone(), wakers.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) {
                if round.load(Ordering::SeqCst) < ROUNDS {
                    round.fetch_add(1, Ordering::SeqCst);
                }
                for waker in wakers.lock().unwrap().drain(..) {
                    waker.wake();
                }
                std::thread::yield_now();
            }
        })
    };
    let mut dumps = 0;
    while !handles.iter().all(|h| h.is_finished()) {
        let dump = rt.handle().dump();
        for info in dump.tasks() {
            assert_eq!(info.trace().is_some(), info.state() == TaskState::Idle);
        }
        dumps += 1;
    }
    done.store(true, Ordering::SeqCst);
    waker_thread.join().unwrap();
    for handle in handles {
        assert_eq!(rt.block_on(handle).unwrap(), ROUNDS);
    }
    assert!(dumps > 0);
}

/// A trace poll that gets past its task's await (a flag set without a
/// wake) and on into a fresh `yield_now` yields for real: `yield_now` has
/// no trace hook, and the wake it makes is handed to the scheduler when the
/// trace poll ends, so the task is queued after the dump and finishes.
#[test]
fn a_trace_poll_that_reaches_a_fresh_yield_queues_the_task() {
    let rt = Builder::new_current_thread().build().unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    let task = {
        let flag = flag.clone();
        task::Builder::new()
            .name("silent")
            .spawn_on(
                async move {
                    // Pending until the flag is set, keeping no waker.
                    std::future::poll_fn(|_| {
                        if flag.load(Ordering::SeqCst) {
                            Poll::Ready(())
                        } else {
                            Poll::Pending
                        }
                    })
                    .await;
                    task::yield_now().await;
                    7
                },
                rt.handle(),
            )
            .unwrap()
    };
    rt.block_on(task::yield_now());
    assert_eq!(
        find(rt.handle().dump().tasks(), "silent").state(),
        TaskState::Idle
    );
    flag.store(true, Ordering::SeqCst);
    let dump = rt.handle().dump();
    let traced = find(dump.tasks(), "silent");
    assert_eq!(
        traced.trace().map(|t| t.chains().count()),
        Some(0),
        "{traced}"
    );
    assert_eq!(
        find(rt.handle().dump().tasks(), "silent").state(),
        TaskState::Scheduled
    );
    assert_eq!(rt.block_on(task).unwrap(), 7);
}
