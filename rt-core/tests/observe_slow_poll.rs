//! Slow-poll detection reports a poll that held its thread too long.

use rt_core::runtime::{Builder, Runtime};
use rt_core::task;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
struct Report {
    id: task::Id,
    name: Option<String>,
    line: u32,
    file: &'static str,
    duration: Duration,
    text: String,
}

// Far above any quick poll, even on a loaded machine; Miri interprets a
// quick poll in tens of milliseconds.
const THRESHOLD: Duration = if cfg!(miri) {
    Duration::from_secs(1)
} else {
    Duration::from_millis(50)
};

fn runtime(multi: bool, reports: &Arc<Mutex<Vec<Report>>>) -> Runtime {
    let mut builder = if multi {
        let mut b = Builder::new_multi_thread();
        b.worker_threads(2);
        b
    } else {
        Builder::new_current_thread()
    };
    let reports = reports.clone();
    builder
        .on_slow_poll(THRESHOLD, move |poll| {
            reports.lock().unwrap().push(Report {
                id: poll.id(),
                name: poll.name().map(str::to_owned),
                line: poll.location().line(),
                file: poll.location().file(),
                duration: poll.duration(),
                text: poll.to_string(),
            });
        })
        .build()
        .unwrap()
}

/// Keeps the thread busy, without yielding, for at least `d` (measured).
fn busy_for(d: Duration) {
    let start = Instant::now();
    while start.elapsed() < d {
        std::hint::spin_loop();
    }
}

fn check(multi: bool) {
    let reports = Arc::new(Mutex::new(Vec::new()));
    let rt = runtime(multi, &reports);
    let (slow_id, line) = rt.block_on(async {
        // Quick tasks, polled several times: never reported.
        for _ in 0..5 {
            rt_core::spawn(async {
                for _ in 0..3 {
                    task::yield_now().await;
                }
            })
            .await
            .unwrap();
        }
        let line = line!() + 3;
        let slow = task::Builder::new()
            .name("cruncher")
            .spawn(async {
                task::yield_now().await;
                busy_for(THRESHOLD * 2);
            })
            .unwrap();
        let id = slow.id();
        slow.await.unwrap();
        (id, line)
    });
    let reports = reports.lock().unwrap().clone();
    assert_eq!(reports.len(), 1, "{reports:?}");
    let report = &reports[0];
    assert_eq!(report.id, slow_id);
    assert_eq!(report.name.as_deref(), Some("cruncher"));
    assert_eq!(report.file, file!());
    assert_eq!(report.line, line);
    assert!(report.duration >= THRESHOLD * 2, "{:?}", report.duration);
    assert!(report.text.contains("\"cruncher\""), "{}", report.text);
}

#[test]
fn slow_poll_on_current_thread() {
    check(false);
}

#[test]
fn slow_poll_on_multi_thread() {
    check(true);
}

#[test]
fn a_panicking_hook_does_not_break_the_runtime() {
    let rt = Builder::new_current_thread()
        .on_slow_poll(Duration::ZERO, |_| panic!("hook failed"))
        .build()
        .unwrap();
    let out = rt.block_on(async { rt_core::spawn(async { 5 }).await.unwrap() });
    assert_eq!(out, 5);
}
