//! `cargo xtask ecosystem --bench`: the fixture's timed workloads on tokio
//! and on rt, each workload's two runs back to back and their order
//! swapped every round so that a change in the machine's load touches
//! both alike, then the axum application under wrk and the RESP
//! server under redis-benchmark; the medians
//! and the spread of the per-round rt/tokio ratios go to
//! `target/bench/ecosystem.md` and the terminal. A control run puts
//! tokio's build in rt's place (`tokio-b`) and writes
//! `target/bench/ecosystem-control.md`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::Command;
use std::time::Duration;

use super::{redis, wrk, Runtime};
use crate::cargo::workspace_root;
use crate::deadline::run_bounded;

/// The bound on one run of one of the fixture's workloads.
const BENCH_LIMIT: Duration = Duration::from_secs(360);

/// One workload's numbers from one run.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Operations per second.
    pub rate: f64,
    /// 99th percentile latency of one operation, in microseconds.
    pub p99_us: f64,
    /// CPU time (user and system) per operation of the process that
    /// served it, in microseconds; NaN where it could not be read. It
    /// leaves out the time spent waiting, so it says what an operation
    /// costs rather than how long it took.
    pub cpu_us_per_op: f64,
}

/// Samples by workload, then by runtime, one per round.
pub type Samples = BTreeMap<String, BTreeMap<&'static str, Vec<Sample>>>;

/// Adds one round's `sample` of workload `name` on `runtime`.
pub fn record(samples: &mut Samples, name: String, runtime: Runtime, sample: Sample) {
    samples
        .entry(name)
        .or_default()
        .entry(runtime.name())
        .or_default()
        .push(sample);
}

/// Runs `rounds` rounds of the workloads and of wrk, tokio against
/// `challenger` (rt, or tokio again in a control run), then writes the
/// report. Each in-process workload runs in a process of its own, the
/// challenger's and tokio's one after the other, so that the two runs
/// compared lie seconds apart rather than a whole pass of every workload.
pub fn bench(rounds: usize, challenger: Runtime) -> Result<(), String> {
    let load_before = load_average();
    let workloads = workload_names()?;
    let mut samples = Samples::new();
    for round in 1..=rounds {
        for workload in &workloads {
            for runtime in Runtime::order(round, challenger) {
                println!(
                    "xtask: ecosystem bench round {round}/{rounds}, {workload} on {}",
                    runtime.name()
                );
                let finished = run_bounded(
                    Command::new(runtime.binary()).args(["bench", "--only", workload]),
                    BENCH_LIMIT,
                )?;
                if !finished.status.is_some_and(|s| s.success()) {
                    return Err(format!(
                        "the ecosystem bench's {workload} on {} failed or hung",
                        runtime.name()
                    ));
                }
                for (name, sample) in parse_results(&finished.stdout)? {
                    record(&mut samples, name, runtime, sample);
                }
            }
        }
    }
    let notes = [
        wrk::run(rounds, challenger, &mut samples)?,
        redis::run(rounds, challenger, &mut samples)?,
    ];
    let load_after = load_average();
    let report = render(
        &samples,
        challenger,
        rounds,
        &load_before,
        &load_after,
        &notes.join(" "),
    );
    println!("\n{report}");
    let out = workspace_root().join("target").join("bench");
    std::fs::create_dir_all(&out).map_err(|e| format!("creating {}: {e}", out.display()))?;
    let path = out.join(match challenger {
        Runtime::TokioAgain => "ecosystem-control.md",
        _ => "ecosystem.md",
    });
    std::fs::write(&path, report).map_err(|e| format!("writing {}: {e}", path.display()))?;
    println!("xtask: wrote {}", path.display());
    Ok(())
}

/// The fixture's in-process workloads, as `ecosystem bench --list` names
/// them (the tokio build's; both builds are of one source).
fn workload_names() -> Result<Vec<String>, String> {
    let finished = run_bounded(
        Command::new(Runtime::Tokio.binary()).args(["bench", "--list"]),
        Duration::from_secs(30),
    )?;
    if !finished.status.is_some_and(|s| s.success()) {
        return Err("`ecosystem bench --list` failed".to_string());
    }
    let names: Vec<String> = finished.stdout.lines().map(str::to_string).collect();
    if names.is_empty() {
        return Err("`ecosystem bench --list` named no workload".to_string());
    }
    Ok(names)
}

/// The `result NAME ops=N secs=S rate=R p99_us=P` lines of a bench run.
fn parse_results(stdout: &str) -> Result<Vec<(String, Sample)>, String> {
    let mut results = Vec::new();
    for line in stdout.lines() {
        let Some(rest) = line.strip_prefix("result ") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let name = words
            .next()
            .ok_or_else(|| format!("a result line without a name: {line:?}"))?;
        let field = |key: &str| -> Result<f64, String> {
            rest.split_whitespace()
                .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("no {key} in {line:?}"))
        };
        results.push((
            name.to_string(),
            Sample {
                rate: field("rate")?,
                p99_us: field("p99_us")?,
                cpu_us_per_op: field("cpu_us_per_op")?,
            },
        ));
    }
    if results.is_empty() {
        return Err("the bench run printed no result line".to_string());
    }
    Ok(results)
}

/// The machine's load average, as /proc/loadavg gives it.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// "median (min–max)" of the per-round ratios `challenger / tokio` of
/// `value`.
fn ratio(tokio: &[Sample], challenger: &[Sample], value: fn(&Sample) -> f64) -> String {
    let mut ratios: Vec<f64> = tokio
        .iter()
        .zip(challenger)
        .map(|(t, r)| value(r) / value(t))
        .filter(|r| r.is_finite())
        .collect();
    if ratios.is_empty() {
        return "n/a".to_string();
    }
    let m = median(&mut ratios);
    format!("{m:.2} ({:.2}–{:.2})", ratios[0], ratios[ratios.len() - 1])
}

fn med(samples: &[Sample], value: fn(&Sample) -> f64) -> f64 {
    let finite = samples.iter().map(value).filter(|v| v.is_finite());
    median(&mut finite.collect::<Vec<_>>())
}

/// The challenger's best round over tokio's best round (highest rate,
/// lowest p99): on a loaded machine the best round is the one least
/// disturbed.
fn best_ratio(tokio: &[Sample], challenger: &[Sample]) -> String {
    let best = |samples: &[Sample]| {
        let rate = samples.iter().map(|s| s.rate).fold(f64::NAN, f64::max);
        let p99 = samples.iter().map(|s| s.p99_us).fold(f64::NAN, f64::min);
        (rate, p99)
    };
    let ((tokio_rate, tokio_p99), (rate, p99)) = (best(tokio), best(challenger));
    format!("{:.2} / {:.2}", rate / tokio_rate, p99 / tokio_p99)
}

/// The markdown report of tokio against `challenger`.
pub fn render(
    samples: &Samples,
    challenger: Runtime,
    rounds: usize,
    load_before: &str,
    load_after: &str,
    notes: &str,
) -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let c = challenger.name();
    let mut md = String::new();
    let _ = writeln!(md, "# Ecosystem: {c} against tokio\n");
    let _ = writeln!(
        md,
        "The compat/ecosystem fixture (`cargo xtask ecosystem --bench`) built twice in release (crates.io's tokio; rt patched in \
         under tokio's name), {rounds} rounds, each pair of runs back to back, tokio first in odd \
         rounds and {c} first in even ones. Ratios are {c}/tokio per round: the \
         median, then the lowest and highest in brackets; the last column compares each \
         runtime's best round (highest ops/s, lowest p99), the one the load disturbed least. \
         Ops/s above 1 and p99 and CPU per operation below 1 favour {c}; CPU is that of the \
         process that served the load (for the in-process workloads, client and server \
         together), user and system time. Machine: {cores} cores, load average {load_before} before and {load_after} \
         after; numbers on a shared, loaded machine move between runs, so read the spread.\n"
    );
    if challenger == Runtime::TokioAgain {
        let _ = writeln!(
            md,
            "A control run (`cargo xtask ecosystem --control`): `{c}` is tokio's build as well, so \
             every ratio is what this machine's noise makes of two equal runtimes under the same \
             rounds and order as a run of rt against tokio.\n"
        );
    }
    let _ = writeln!(
        md,
        "| workload | tokio ops/s | {c} ops/s | {c}/tokio ops/s | tokio p99 µs | {c} p99 µs | {c}/tokio p99 | tokio CPU µs/op | {c} CPU µs/op | {c}/tokio CPU/op | best rounds {c}/tokio ops/s / p99 |"
    );
    let _ = writeln!(
        md,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for (name, by_runtime) in samples {
        let empty = Vec::new();
        let tokio = by_runtime.get("tokio").unwrap_or(&empty);
        let challenger = by_runtime.get(c).unwrap_or(&empty);
        let _ = writeln!(
            md,
            "| {name} | {:.0} | {:.0} | {} | {:.0} | {:.0} | {} | {:.2} | {:.2} | {} | {} |",
            med(tokio, |s| s.rate),
            med(challenger, |s| s.rate),
            ratio(tokio, challenger, |s| s.rate),
            med(tokio, |s| s.p99_us),
            med(challenger, |s| s.p99_us),
            ratio(tokio, challenger, |s| s.p99_us),
            med(tokio, |s| s.cpu_us_per_op),
            med(challenger, |s| s.cpu_us_per_op),
            ratio(tokio, challenger, |s| s.cpu_us_per_op),
            best_ratio(tokio, challenger),
        );
    }
    let _ = writeln!(
        md,
        "\nWorkloads: `hyper_roundtrip` hyper-util's pooled client against a bare hyper server, \
         small GETs, 32 in flight; `reqwest_get_post` reqwest against axum, GET /json and POST \
         /echo (1 KiB) alternately, 32 in flight; `framed_lines` and `framed_length_delimited` \
         ping-pong round trips of a short line (LinesCodec) and a 1 KiB frame \
         (LengthDelimitedCodec) on 8 TCP connections at once; each in a process of its own \
         (client and server in it) on a 2-worker multi-thread runtime. {notes}"
    );
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(rate: f64) -> Sample {
        Sample {
            rate,
            p99_us: 100.0,
            cpu_us_per_op: 10.0,
        }
    }

    #[test]
    fn pairs_alternate_which_runtime_goes_first() {
        assert_eq!(
            Runtime::order(1, Runtime::Rt),
            [Runtime::Tokio, Runtime::Rt]
        );
        assert_eq!(
            Runtime::order(2, Runtime::TokioAgain),
            [Runtime::TokioAgain, Runtime::Tokio]
        );
        assert_eq!(
            Runtime::TokioAgain.binary(),
            Runtime::Tokio.binary(),
            "the control's challenger is tokio's own build"
        );
    }

    #[test]
    fn the_report_names_the_challenger_and_says_when_it_is_a_control() {
        let mut samples = Samples::new();
        for (runtime, rate) in [(Runtime::Tokio, 100.0), (Runtime::TokioAgain, 110.0)] {
            record(&mut samples, "hyper".to_string(), runtime, sample(rate));
        }
        let md = render(&samples, Runtime::TokioAgain, 1, "0", "0", "");
        assert!(
            md.starts_with("# Ecosystem: tokio-b against tokio\n"),
            "{md}"
        );
        assert!(md.contains("A control run"), "{md}");
        assert!(
            md.contains("| tokio-b ops/s | tokio-b/tokio ops/s |"),
            "{md}"
        );
        assert!(
            md.contains("| hyper | 100 | 110 | 1.10 (1.10–1.10) |"),
            "{md}"
        );

        let mut samples = Samples::new();
        for (runtime, rate) in [(Runtime::Tokio, 100.0), (Runtime::Rt, 90.0)] {
            record(&mut samples, "hyper".to_string(), runtime, sample(rate));
        }
        let md = render(&samples, Runtime::Rt, 1, "0", "0", "");
        assert!(md.starts_with("# Ecosystem: rt against tokio\n"), "{md}");
        assert!(!md.contains("A control run"), "{md}");
        assert!(
            md.contains("| hyper | 100 | 90 | 0.90 (0.90–0.90) |"),
            "{md}"
        );
    }
}
