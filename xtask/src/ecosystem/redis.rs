//! The fixture's RESP server (`ecosystem kv`, 2 workers) under
//! redis-benchmark: SET and GET from 50 clients, without pipelining and
//! with 16 commands a pipeline, on tokio and on rt in turn.

use std::process::Command;

use super::bench::{record, Sample, Samples};
use super::server::Server;
use super::Runtime;

/// Requests per redis-benchmark test.
const REQUESTS: &str = "100000";
/// The pipeline depths compared.
const PIPELINES: [u32; 2] = [1, 16];

/// Runs the redis-benchmark rounds into `samples`; the result is the
/// sentence the report gives about them, which says so when
/// redis-benchmark is not installed.
pub fn run(rounds: usize, samples: &mut Samples) -> Result<String, String> {
    if Command::new("redis-benchmark")
        .arg("--version")
        .output()
        .is_err()
    {
        let note = "redis-benchmark is NOT installed (`apt-get install -y redis-tools`), so the kv rows are missing.";
        eprintln!("xtask: ecosystem: {note}");
        return Ok(note.to_string());
    }
    for round in 1..=rounds {
        for runtime in [Runtime::Tokio, Runtime::Rt] {
            println!(
                "xtask: redis-benchmark round {round}/{rounds}, kv on {}",
                runtime.name()
            );
            let server = Server::start(runtime, "kv", 2)?;
            let results: Result<Vec<_>, String> = PIPELINES
                .iter()
                .map(|&p| measure(server.port(), p))
                .collect();
            server.stop()?;
            for (name, sample) in results?.into_iter().flatten() {
                record(samples, name, runtime, sample);
            }
        }
    }
    Ok(format!(
        "`kv_*_pN`: a RESP SET/GET server in the fixture (the kv example is written against rt's \
         own paths, so it cannot run on tokio; this one plays its part), 2 workers, under \
         `redis-benchmark -t set,get -n {REQUESTS} -c 50 -P N --csv`; ops/s are requests/s."
    ))
}

/// One redis-benchmark run: a sample for SET and one for GET.
fn measure(port: &str, pipeline: u32) -> Result<Vec<(String, Sample)>, String> {
    let output = Command::new("redis-benchmark")
        .args([
            "-h",
            "127.0.0.1",
            "-p",
            port,
            "-n",
            REQUESTS,
            "-c",
            "50",
            "-t",
            "set,get",
            "--csv",
        ])
        .args(["-P", &pipeline.to_string()])
        .output()
        .map_err(|e| format!("running redis-benchmark: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "redis-benchmark failed ({}): {text}",
            output.status
        ));
    }
    let samples = parse(&text, pipeline);
    if samples.len() != 2 {
        return Err(format!("could not read redis-benchmark's output:\n{text}"));
    }
    Ok(samples)
}

/// The SET and GET rows of `--csv` output: `"test","rps",...,"p99_latency_ms",...`.
fn parse(text: &str, pipeline: u32) -> Vec<(String, Sample)> {
    let mut lines = text.lines();
    let Some(header) = lines.next() else {
        return Vec::new();
    };
    let columns: Vec<&str> = header.split(',').map(|c| c.trim_matches('"')).collect();
    let column = |name: &str| columns.iter().position(|c| *c == name);
    let (Some(rps), Some(p99)) = (column("rps"), column("p99_latency_ms")) else {
        return Vec::new();
    };
    lines
        .filter_map(|line| {
            let cells: Vec<&str> = line.split(',').map(|c| c.trim_matches('"')).collect();
            let test = cells.first()?.to_ascii_lowercase();
            let rate = cells.get(rps)?.parse().ok()?;
            let p99_ms: f64 = cells.get(p99)?.parse().ok()?;
            Some((
                format!("kv_{test}_p{pipeline}"),
                Sample {
                    rate,
                    p99_us: p99_ms * 1e3,
                },
            ))
        })
        .collect()
}
