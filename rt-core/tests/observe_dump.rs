//! Task dumps on both flavors: names, spawn locations, states, poll counts.

use rt_core::runtime::{Builder, Handle, Runtime};
use rt_core::task::{self, LocalSet, TaskInfo, TaskState};
use std::sync::mpsc;
use std::time::Duration;

fn find<'a>(tasks: &'a [TaskInfo], name: &str) -> &'a TaskInfo {
    tasks
        .iter()
        .find(|t| t.name() == Some(name))
        .unwrap_or_else(|| panic!("no task named {name:?} in {tasks:?}"))
}

fn check_flavor(rt: Runtime) {
    let line = line!() + 3;
    let idle = task::Builder::new()
        .name("idle")
        .spawn_on(std::future::pending::<()>(), rt.handle())
        .unwrap();
    let idle_id = idle.id();
    let unnamed = rt.spawn(std::future::pending::<()>());

    let dump = rt.block_on(async {
        // Let both tasks reach their first await.
        while Handle::current()
            .dump()
            .tasks()
            .iter()
            .any(|t| t.poll_count() == 0)
        {
            task::yield_now().await;
        }
        task::Builder::new()
            .name("dumper")
            .spawn(async { Handle::current().dump() })
            .unwrap()
            .await
            .unwrap()
    });

    let tasks = dump.tasks();
    assert_eq!(tasks.len(), 3, "{dump}");
    let idle_info = find(tasks, "idle");
    assert_eq!(idle_info.id(), idle_id);
    assert_eq!(idle_info.state(), TaskState::Idle);
    assert_eq!(idle_info.poll_count(), 1);
    assert_eq!(idle_info.location().file(), file!());
    assert_eq!(idle_info.location().line(), line);
    // Polls are not timed unless the runtime measures them.
    assert_eq!(idle_info.since_last_poll(), None);

    // The task taking the dump sees itself running.
    let dumper = find(tasks, "dumper");
    assert_eq!(dumper.state(), TaskState::Running);
    assert_eq!(dumper.poll_count(), 1);

    let anonymous = tasks.iter().find(|t| t.id() == unnamed.id()).unwrap();
    assert_eq!(anonymous.name(), None);

    let text = dump.to_string();
    assert!(text.starts_with("3 live tasks"), "{text}");
    assert!(text.contains("\"idle\""), "{text}");
    assert!(text.contains(file!()), "{text}");

    idle.abort();
    unnamed.abort();
    rt.block_on(async {
        assert!(idle.await.unwrap_err().is_cancelled());
        assert!(unnamed.await.unwrap_err().is_cancelled());
    });
    // A worker releases a finished task from the owned list just after its
    // JoinHandle sees the output, so on the multi-thread flavor the last
    // release may trail the await by a moment.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !rt.handle().dump().tasks().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "finished tasks still listed: {}",
            rt.handle().dump()
        );
        std::thread::yield_now();
    }
}

#[test]
fn dump_on_current_thread() {
    check_flavor(Builder::new_current_thread().build().unwrap());
}

#[test]
fn dump_on_multi_thread() {
    check_flavor(
        Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .unwrap(),
    );
}

#[test]
fn a_queued_task_is_scheduled() {
    let rt = Builder::new_current_thread().build().unwrap();
    rt.block_on(async {
        let queued = task::Builder::new().name("queued").spawn(async {}).unwrap();
        // Not polled yet: this thread has not yielded.
        let dump = Handle::current().dump();
        let info = find(dump.tasks(), "queued");
        assert_eq!(info.state(), TaskState::Scheduled);
        assert_eq!(info.poll_count(), 0);
        queued.await.unwrap();
    });
}

#[test]
fn a_task_blocked_in_a_poll_is_running_on_multi_thread() {
    let rt = Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let (entered_tx, entered_rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let busy = task::Builder::new()
        .name("busy")
        .spawn_on(
            async move {
                entered_tx.send(()).unwrap();
                release_rx.recv().unwrap();
            },
            rt.handle(),
        )
        .unwrap();
    entered_rx.recv().unwrap();
    let dump = rt.handle().dump();
    assert_eq!(find(dump.tasks(), "busy").state(), TaskState::Running);
    release_tx.send(()).unwrap();
    rt.block_on(busy).unwrap();
}

#[test]
fn timed_polls_report_time_since_last_poll() {
    let rt = Builder::new_current_thread()
        .on_slow_poll(Duration::from_secs(3600), |_| {})
        .build()
        .unwrap();
    let waiting = rt.spawn(std::future::pending::<()>());
    rt.block_on(task::yield_now());
    let dump = rt.handle().dump();
    let info = &dump.tasks()[0];
    assert_eq!(info.id(), waiting.id());
    assert!(info.since_last_poll().is_some());
}

#[test]
fn dump_can_be_awaited() {
    let rt = Builder::new_current_thread().build().unwrap();
    let count = rt.block_on(async { Handle::current().dump().await.tasks().len() });
    assert_eq!(count, 0);
}

#[test]
fn builder_spawn_local_and_errors() {
    let rt = Builder::new_current_thread().build().unwrap();
    // Outside a runtime or a LocalSet the builder reports an error.
    assert!(task::Builder::new().spawn(async {}).is_err());
    assert!(task::Builder::new().spawn_local(async {}).is_err());

    let local = LocalSet::new();
    let out = local.block_on(&rt, async {
        let rc = std::rc::Rc::new(3);
        task::Builder::new()
            .name("local")
            .spawn_local(async move { *rc * 2 })
            .unwrap()
            .await
            .unwrap()
    });
    assert_eq!(out, 6);
}

#[test]
fn plain_spawns_record_the_caller_location() {
    let rt = Builder::new_current_thread().build().unwrap();
    rt.block_on(async {
        let line = line!() + 1;
        let a = rt_core::spawn(std::future::pending::<()>());
        let mut set = task::JoinSet::new();
        let set_line = line!() + 1;
        set.spawn(std::future::pending::<()>());
        let dump = Handle::current().dump();
        let a_info = dump.tasks().iter().find(|t| t.id() == a.id()).unwrap();
        assert_eq!(a_info.location().file(), file!());
        assert_eq!(a_info.location().line(), line);
        let set_info = dump.tasks().iter().find(|t| t.id() != a.id()).unwrap();
        assert_eq!(set_info.location().file(), file!());
        assert_eq!(set_info.location().line(), set_line);
        a.abort();
    });
}

#[test]
fn builder_spawn_local_on_and_blocking() {
    let rt = Builder::new_current_thread().build().unwrap();
    assert!(task::Builder::new().spawn_blocking(|| 1).is_err());
    let blocking = task::Builder::new()
        .name("io")
        .spawn_blocking_on(|| 2, rt.handle())
        .unwrap();
    assert_eq!(rt.block_on(blocking).unwrap(), 2);

    let local = LocalSet::new();
    let line = line!() + 3;
    let named = task::Builder::new()
        .name("local-on")
        .spawn_local_on(async { std::rc::Rc::new(4) }, &local)
        .unwrap();
    let before = local.dump();
    let info = find(before.tasks(), "local-on");
    assert_eq!(info.state(), TaskState::Scheduled);
    assert_eq!(info.location().line(), line);
    let out = local.block_on(&rt, async {
        let inside = task::Builder::new()
            .spawn_blocking(|| 3)
            .unwrap()
            .await
            .unwrap();
        *named.await.unwrap() + inside
    });
    assert_eq!(out, 7);
    assert!(local.dump().tasks().is_empty());
}

/// Safe code only: a dump reads each task's trailer (its spawn location
/// and name), which lies past the header in the task's cell, then the task
/// runs and completes. Under Miri's Stacked Borrows this checks that the
/// dump reaches each cell through a pointer that spans the whole cell, not
/// one narrowed to the header.
#[test]
fn a_dump_then_the_task_runs_to_completion() {
    let rt = Builder::new_current_thread().build().unwrap();
    rt.block_on(async {
        let spawned = rt_core::spawn(async {});
        let dump = Handle::current().dump();
        assert_eq!(dump.tasks().len(), 1, "{dump}");
        assert_eq!(dump.tasks()[0].location().file(), file!());
        spawned.await.unwrap();
    });
}
