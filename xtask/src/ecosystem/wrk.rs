//! The fixture's axum application (`ecosystem serve`) under wrk: 50
//! connections for a few seconds against `/plain`, with 1 and with 2
//! runtime workers, on tokio and on rt in turn.

use std::process::Command;

use super::bench::{record, Sample, Samples};
use super::server::Server;
use super::Runtime;

/// How long each wrk run lasts.
const SECONDS: u32 = 5;
/// wrk's connections.
const CONNECTIONS: u32 = 50;

/// Runs the wrk rounds of tokio and `challenger` into `samples`; the
/// result is the sentence the report gives about them, which says so when
/// wrk is not installed.
pub fn run(rounds: usize, challenger: Runtime, samples: &mut Samples) -> Result<String, String> {
    if Command::new("wrk").arg("--version").output().is_err() {
        let note = "wrk is NOT installed (`apt-get install -y wrk`), so the axum-under-wrk rows are missing.";
        eprintln!("xtask: ecosystem: {note}");
        return Ok(note.to_string());
    }
    for round in 1..=rounds {
        for workers in [1, 2] {
            for runtime in Runtime::order(round, challenger) {
                println!(
                    "xtask: wrk round {round}/{rounds}, axum on {} with {workers} worker(s)",
                    runtime.name()
                );
                let sample = one(runtime, workers)?;
                let name = format!("axum_wrk_{workers}w_{CONNECTIONS}c");
                record(samples, name, runtime, sample);
            }
        }
    }
    Ok(format!(
        "`axum_wrk_Nw_{CONNECTIONS}c`: the axum application in a process of its own with N runtime \
         workers, under `wrk -t1 -c{CONNECTIONS} -d{SECONDS}s --latency` against /plain (wrk shares \
         the machine's cores with the server)."
    ))
}

/// One wrk run against a fresh server.
fn one(runtime: Runtime, workers: usize) -> Result<Sample, String> {
    let server = Server::start(runtime, "serve", workers)?;
    let result = server.under_load(|| measure(&server.addr));
    server.stop()?;
    result
}

/// One wrk run: its sample (without the CPU time) and how many requests
/// it made.
fn measure(addr: &str) -> Result<(Sample, u64), String> {
    let output = Command::new("wrk")
        .args([
            "-t1",
            &format!("-c{CONNECTIONS}"),
            &format!("-d{SECONDS}s"),
            "--timeout",
            "5s",
            "--latency",
        ])
        .arg(format!("http://{addr}/plain"))
        .output()
        .map_err(|e| format!("running wrk: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!("wrk failed ({}): {text}", output.status));
    }
    parse(&text).ok_or_else(|| format!("could not read wrk's output:\n{text}"))
}

/// Requests/s, the 99th percentile and the number of requests from wrk's
/// `--latency` output.
fn parse(text: &str) -> Option<(Sample, u64)> {
    let requests = text
        .lines()
        .find_map(|l| l.trim().split_once(" requests in "))?
        .0
        .parse()
        .ok()?;
    let rate = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Requests/sec:"))?
        .trim()
        .parse()
        .ok()?;
    let p99 = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("99%"))?
        .trim();
    let split = p99.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = p99.split_at(split);
    let number: f64 = number.parse().ok()?;
    let scale = match unit {
        "us" => 1.0,
        "ms" => 1e3,
        "s" => 1e6,
        _ => return None,
    };
    let sample = Sample {
        rate,
        p99_us: number * scale,
        cpu_us_per_op: f64::NAN,
    };
    Some((sample, requests))
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn reads_the_rate_the_p99_and_the_request_count() {
        let output = "Running 1s test @ http://127.0.0.1:46297/plain
  1 threads and 10 connections
  Latency Distribution
     50%  116.00us
     99%    1.38ms
  80147 requests in 1.10s, 11.39MB read
Requests/sec:  72830.06
Transfer/sec:     10.35MB
";
        let (sample, requests) = parse(output).expect("the output is read");
        assert_eq!(requests, 80147);
        assert_eq!(sample.rate, 72830.06);
        assert_eq!(sample.p99_us, 1380.0);
        assert!(sample.cpu_us_per_op.is_nan());
    }

    #[test]
    fn output_without_a_request_count_is_not_read() {
        assert!(parse("Requests/sec:  72830.06\n     99%  378.00us\n").is_none());
    }
}
