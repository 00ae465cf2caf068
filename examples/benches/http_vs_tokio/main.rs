//! `http_vs_tokio`: the `http` example's HTTP/1.1 server under `wrk`, once
//! served by rt and once by tokio.
//!
//! The server module (`examples/http/server.rs`) is compiled twice, by
//! `on_rt.rs` with the crate alias `tk` = rt and by `on_tokio.rs` with
//! `tk` = tokio, so both runtimes serve literally the same code. Each round
//! starts a fresh runtime per side, runs `wrk -t2 -c64 -d3s` against
//! `GET /`, and shuts the server down; the sides alternate, and which goes
//! first flips every round. The figure is requests per second (higher is
//! better); the ratio printed is tokio/rt, so that, as in the runtime
//! suite's time ratios, below 1 means rt is faster.
//!
//! `cargo bench -p examples --bench http_vs_tokio [-- --rounds N]`;
//! `--smoke` runs one one-second round per flavor. Without `wrk` on `PATH`
//! it says so and exits successfully.

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

use examples::bench::Flavor;
use examples::cli::{on_path, WrkLoad};
use options::Options;
use report::FlavorResult;

/// The runtime configurations measured: a server's usual multi-thread
/// runtime sized to the machine's two cores, and the current-thread one.
const FLAVORS: [Flavor; 2] = [Flavor::MultiThread(2), Flavor::CurrentThread];

/// wrk's client threads and open connections.
const THREADS: u32 = 2;
const CONNECTIONS: u32 = 64;

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
    let mut results = Vec::with_capacity(FLAVORS.len());
    for flavor in FLAVORS {
        results.push(measure(flavor, load, options.rounds)?);
    }
    if options.smoke {
        println!(
            "http_vs_tokio: smoke run of {} flavors passed",
            FLAVORS.len()
        );
        return Ok(());
    }
    let title = format!(
        "HTTP server under wrk -t{THREADS} -c{CONNECTIONS} -d{}s, GET /, {} rounds",
        options.seconds, options.rounds
    );
    let table = report::markdown(&title, &results);
    print!("{table}");
    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    std::fs::create_dir_all(&out_dir)?;
    let path = out_dir.join("http_vs_tokio.md");
    std::fs::write(&path, table)?;
    println!("wrote {}", path.display());
    Ok(())
}

/// `rounds` alternating runs of each side on `flavor`.
fn measure(flavor: Flavor, load: WrkLoad, rounds: usize) -> io::Result<FlavorResult> {
    let mut result = FlavorResult {
        flavor,
        rt: Vec::with_capacity(rounds),
        tokio: Vec::with_capacity(rounds),
    };
    for round in 0..rounds {
        // Flip the order every round, so neither side always runs on a
        // machine the other has just warmed.
        let rt_first = round % 2 == 0;
        if rt_first {
            result
                .rt
                .push(on_rt::under_wrk::requests_per_second(flavor, load)?);
        }
        result
            .tokio
            .push(on_tokio::under_wrk::requests_per_second(flavor, load)?);
        if !rt_first {
            result
                .rt
                .push(on_rt::under_wrk::requests_per_second(flavor, load)?);
        }
        eprintln!(
            "{flavor} round {}/{rounds}: rt {:.0} req/s, tokio {:.0} req/s",
            round + 1,
            result.rt[round],
            result.tokio[round]
        );
    }
    Ok(result)
}
