//! `http_vs_tokio`: the `http` example's HTTP/1.1 server under `wrk`, once
//! served by rt and once by tokio.
//!
//! The server module (`examples/http/server.rs`) is compiled twice, by
//! `on_rt.rs` with the crate alias `tk` = rt and by `on_tokio.rs` with
//! `tk` = tokio, so both runtimes serve literally the same code. Each round
//! starts a fresh runtime per side, runs `wrk -t2 -c64 -d3s` against
//! `GET /`, and shuts the server down; the sides alternate, and which goes
//! first flips every round. The figure is requests per second (higher is
//! better); the ratio printed is tokio/rt (the median of the rounds'
//! ratios), so that, as in the runtime suite's time ratios, below 1 means
//! rt is faster.
//!
//! `cargo bench -p examples --bench http_vs_tokio [-- --rounds N]`;
//! `--smoke` runs one one-second round per flavor. Without `wrk` on `PATH`
//! it says so and exits successfully. A server that does not finish within
//! half a minute of its wrk run ends the benchmark with an error naming the
//! runtime, flavor and round, instead of hanging.

// Compiling the server twice, once per runtime, is the point of `on_rt`
// and `on_tokio`.
#![allow(clippy::duplicate_mod)]

mod on_rt;
mod on_tokio;
mod options;
mod report;

use std::io;
use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use bench_harness::{Flavor, Side};
use examples::cli::{on_path, WrkLoad};
use options::Options;
use report::FlavorResult;

/// wrk's client threads.
const THREADS: u32 = 2;

/// wrk's open connections.
const CONNECTIONS: u32 = 64;

/// How long a server may take, beyond wrk's own run, to start, answer and
/// shut down before the benchmark declares it stuck and exits.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(err) => {
            eprintln!("error: {err}\n{}", options::USAGE);
            return ExitCode::from(2);
        }
    };
    if !on_path("wrk") {
        println!(
            "http_vs_tokio: wrk not found on PATH; install wrk to run this benchmark (skipped)"
        );
        return ExitCode::SUCCESS;
    }
    match measure_all(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("http_vs_tokio: {err}");
            ExitCode::FAILURE
        }
    }
}

fn measure_all(options: &Options) -> io::Result<()> {
    let load = WrkLoad {
        threads: THREADS,
        connections: CONNECTIONS,
        seconds: options.seconds,
    };
    let mut results = Vec::with_capacity(options.flavors.len());
    for &flavor in &options.flavors {
        results.push(measure(flavor, load, options)?);
    }
    if options.smoke {
        println!(
            "http_vs_tokio: smoke run of {} flavors passed",
            results.len()
        );
        return Ok(());
    }
    let title = format!(
        "HTTP server under wrk -t{THREADS} -c{CONNECTIONS} -d{}s, GET /, {} rounds",
        options.seconds, options.rounds
    );
    let table = report::markdown(&title, &results);
    print!("{table}");
    if options.only.is_none() {
        let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
        std::fs::create_dir_all(&out_dir)?;
        let path = out_dir.join("http_vs_tokio.md");
        std::fs::write(&path, table)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// `options.rounds` alternating runs of each selected side on `flavor`.
fn measure(flavor: Flavor, load: WrkLoad, options: &Options) -> io::Result<FlavorResult> {
    let rounds = options.rounds;
    let mut result = FlavorResult {
        flavor,
        rt: Vec::with_capacity(rounds),
        tokio: Vec::with_capacity(rounds),
    };
    for round in 0..rounds {
        // Flip the order every round, so neither side always runs on a
        // machine the other has just warmed.
        let order = if round % 2 == 0 {
            [Side::Rt, Side::Tokio]
        } else {
            [Side::Tokio, Side::Rt]
        };
        let mut line = format!("{flavor} round {}/{rounds}:", round + 1);
        for side in order {
            if options.only.is_some_and(|only| only != side) {
                continue;
            }
            let label = format!("{} {flavor} round {}", side_name(side), round + 1);
            let rate = watched(&label, load, || match side {
                Side::Rt => on_rt::under_wrk::requests_per_second(flavor, load),
                Side::Tokio => on_tokio::under_wrk::requests_per_second(flavor, load),
            })?;
            match side {
                Side::Rt => result.rt.push(rate),
                Side::Tokio => result.tokio.push(rate),
            }
            line.push_str(&format!(" {} {rate:.0} req/s", side_name(side)));
        }
        eprintln!("{line}");
    }
    Ok(result)
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Rt => "rt",
        Side::Tokio => "tokio",
    }
}

/// Runs one measurement; if it is not done `SHUTDOWN_GRACE` after wrk's
/// run should have ended, says which one hung and ends the process, so
/// that a server that never shuts down fails the benchmark (and CI's smoke
/// run) instead of stalling it.
fn watched<T>(label: &str, load: WrkLoad, measure: impl FnOnce() -> T) -> T {
    let limit = Duration::from_secs(load.seconds.into()) + SHUTDOWN_GRACE;
    let (done, finished) = mpsc::channel::<()>();
    let label = label.to_owned();
    std::thread::spawn(move || {
        if finished.recv_timeout(limit) == Err(mpsc::RecvTimeoutError::Timeout) {
            eprintln!(
                "http_vs_tokio: {label} not finished after {limit:?}: the server did not shut down"
            );
            std::process::exit(1);
        }
    });
    let value = measure();
    drop(done);
    value
}
