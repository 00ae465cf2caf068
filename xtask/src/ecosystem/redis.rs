//! The fixture's RESP server (`ecosystem kv`, 2 workers) under
//! redis-benchmark: SET and GET from 50 clients, without pipelining and
//! with 16 commands a pipeline, on tokio and on rt in turn.

use std::process::Command;

use super::bench::{record, Sample, Samples};
use super::server::Server;
use super::Runtime;

/// The pipeline depths compared, each with its requests per
/// redis-benchmark test: pipelined, 100k requests are over in about a
/// tenth of a second, too short a run to say anything on a shared
/// machine, so the pipelined test sends ten times as many (about a second
/// each, as the unpipelined one takes).
const PIPELINES: [(u32, u32); 2] = [(1, 100_000), (16, 1_000_000)];

/// Runs the redis-benchmark rounds of tokio and `challenger` into
/// `samples`; the result is the sentence the report gives about them,
/// which says so when redis-benchmark is not installed.
pub fn run(rounds: usize, challenger: Runtime, samples: &mut Samples) -> Result<String, String> {
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
        for runtime in Runtime::order(round, challenger) {
            println!(
                "xtask: redis-benchmark round {round}/{rounds}, kv on {}",
                runtime.name()
            );
            let server = Server::start(runtime, "kv", 2)?;
            let mut results = Vec::new();
            // SET before GET, so that GET finds the keys SET wrote.
            for (pipeline, requests) in PIPELINES {
                for test in ["set", "get"] {
                    let result = server.under_load(|| {
                        let sample = measure(server.port(), test, pipeline, requests)?;
                        Ok((sample, u64::from(requests)))
                    });
                    results.push(result.map(|sample| (format!("kv_{test}_p{pipeline}"), sample)));
                }
            }
            server.stop()?;
            for result in results {
                let (name, sample) = result?;
                record(samples, name, runtime, sample);
            }
        }
    }
    Ok("`kv_*_pN`: a RESP SET/GET server in the fixture (the kv example is written against rt's \
         own paths, so it cannot run on tokio; this one plays its part), 2 workers, under \
         `redis-benchmark -t set` and then `-t get`, `-c 50 --csv`, with `-P 1 -n 100000` and `-P 16 -n 1000000`; \
         ops/s are requests/s."
        .to_string())
}

/// One redis-benchmark run of `test` (`set` or `get`): its sample,
/// without the CPU time.
fn measure(port: &str, test: &str, pipeline: u32, requests: u32) -> Result<Sample, String> {
    let output = Command::new("redis-benchmark")
        .args([
            "-h",
            "127.0.0.1",
            "-p",
            port,
            "-n",
            &requests.to_string(),
            "-c",
            "50",
            "-t",
            test,
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
    parse(&text, test).ok_or_else(|| format!("could not read redis-benchmark's output:\n{text}"))
}

/// The row of `test` in `--csv` output: `"test","rps",...,"p99_latency_ms",...`.
fn parse(text: &str, test: &str) -> Option<Sample> {
    let mut lines = text.lines();
    let header = lines.next()?;
    let columns: Vec<&str> = header.split(',').map(|c| c.trim_matches('"')).collect();
    let column = |name: &str| columns.iter().position(|c| *c == name);
    let (rps, p99) = (column("rps")?, column("p99_latency_ms")?);
    lines.find_map(|line| {
        let cells: Vec<&str> = line.split(',').map(|c| c.trim_matches('"')).collect();
        if !cells.first()?.eq_ignore_ascii_case(test) {
            return None;
        }
        let rate = cells.get(rps)?.parse().ok()?;
        let p99_ms: f64 = cells.get(p99)?.parse().ok()?;
        Some(Sample {
            rate,
            p99_us: p99_ms * 1e3,
            cpu_us_per_op: f64::NAN,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::parse;

    const CSV: &str = "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\",\"p95_latency_ms\",\"p99_latency_ms\",\"max_latency_ms\"
\"SET\",\"862069.00\",\"0.880\",\"0.088\",\"0.831\",\"1.295\",\"5.055\",\"9.999\"
";

    #[test]
    fn reads_the_row_of_the_test_asked_for() {
        let sample = parse(CSV, "set").expect("the SET row is read");
        assert_eq!(sample.rate, 862069.0);
        assert_eq!(sample.p99_us, 5055.0);
        assert!(sample.cpu_us_per_op.is_nan());
    }

    #[test]
    fn a_missing_row_or_column_is_not_read() {
        assert!(parse(CSV, "get").is_none());
        assert!(parse("\"test\",\"rps\"\n\"SET\",\"1.0\"\n", "set").is_none());
    }
}
