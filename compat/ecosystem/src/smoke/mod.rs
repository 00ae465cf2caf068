//! The smoke run: every check once, each named, and a summary that names
//! every check whose answer was wrong. The paused-clock checks run first on
//! a current-thread runtime of their own; the network checks then run on a
//! multi-thread one.

use std::future::Future;
use std::time::Instant;

use crate::watchdog;

mod clock;
mod framed;
mod http;
mod streams;
mod tasks;

/// What one check returns: a short note on success, what was wrong on
/// failure.
pub type Outcome = Result<String, String>;

/// Fails the enclosing check with a formatted message unless `cond` holds.
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}
pub(crate) use ensure;

/// Records the outcome of each check, in order.
#[derive(Default)]
struct Report {
    failed: Vec<String>,
    passed: usize,
}

impl Report {
    async fn check<F: Future<Output = Outcome>>(&mut self, name: &'static str, check: F) {
        watchdog::step(name);
        let started = Instant::now();
        match check.await {
            Ok(note) => {
                self.passed += 1;
                println!("ok    {name} ({:.0?}): {note}", started.elapsed());
            }
            Err(wrong) => {
                println!("FAIL  {name}: {wrong}");
                self.failed.push(format!("{name}: {wrong}"));
            }
        }
    }
}

/// Runs every check; the error lists the failed ones.
pub fn run(workers: usize) -> Result<(), String> {
    let mut report = Report::default();
    let paused = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .map_err(|e| format!("building the paused current-thread runtime: {e}"))?;
    paused.block_on(async {
        report.check("delay_queue", clock::delay_queue()).await;
        report
            .check("interval_stream", clock::interval_stream())
            .await;
        report
            .check("stream_timeout", clock::stream_timeout())
            .await;
    });
    drop(paused);

    let runtime = crate::multi_thread(workers)?;
    runtime.block_on(async {
        report
            .check("axum_with_hyper_client", http::axum_with_hyper_client())
            .await;
        report
            .check("axum_with_reqwest", http::axum_with_reqwest())
            .await;
        report
            .check("tower_concurrency_limit", http::tower_limit())
            .await;
        report
            .check("hyper_server_and_client", http::hyper_both_ends())
            .await;
        report.check("framed_lines", framed::lines()).await;
        report
            .check("framed_length_delimited", framed::length_delimited())
            .await;
        report
            .check("tcp_listener_stream", streams::tcp_listener_stream())
            .await;
        report
            .check("receiver_streams", streams::receiver_streams())
            .await;
        report.check("join_map", tasks::join_map()).await;
        report.check("local_pool", tasks::local_pool()).await;
    });
    watchdog::step("runtime shutdown");
    drop(runtime);

    if report.failed.is_empty() {
        println!("ecosystem: {} passed, 0 failed", report.passed);
        Ok(())
    } else {
        println!(
            "ecosystem: {} passed, {} failed",
            report.passed,
            report.failed.len()
        );
        Err(format!("wrong answers from: {}", report.failed.join("; ")))
    }
}
