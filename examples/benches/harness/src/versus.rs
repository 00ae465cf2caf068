//! A small runner for comparisons with a third party that has no place in
//! the rt/tokio table: the same job done by rt, by tokio and by a
//! reference (crossbeam-channel, `std::fs`), samples alternating, medians
//! printed with each one's ratio to the reference.

use std::process::ExitCode;

use super::{median, Unit};

/// One contestant: a name and a function doing the job `size` times,
/// returning nanoseconds.
pub type Contestant = (&'static str, fn(usize) -> f64);

/// What a comparison runs.
pub struct Versus {
    /// The binary's name, for messages.
    pub name: &'static str,
    /// One line saying what a sample does, printed above the results.
    pub title: String,
    /// The contestants; the last one is the reference.
    pub contestants: &'static [Contestant],
    /// The job size of a measured sample and of a smoke run.
    pub size: usize,
    /// The job size of a smoke run.
    pub smoke_size: usize,
    /// What one unit of `size` is called ("message", "read").
    pub per: &'static str,
}

/// Samples per contestant when `--samples` is not given.
const DEFAULT_SAMPLES: usize = 20;

/// Most samples accepted.
const MAX_SAMPLES: usize = 10_000;

/// `(smoke, samples)` from the arguments; `cargo bench` adds `--bench`.
fn parse(args: impl IntoIterator<Item = String>) -> Result<(bool, usize), String> {
    let (mut smoke, mut samples) = (false, DEFAULT_SAMPLES);
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => {}
            "--smoke" => smoke = true,
            "--samples" => {
                let value = args.next().ok_or("--samples needs a value")?;
                samples = match value.parse::<usize>() {
                    Ok(n) if (1..=MAX_SAMPLES).contains(&n) => n,
                    _ => {
                        return Err(format!(
                            "--samples takes a whole number from 1 to {MAX_SAMPLES}, not {value:?}"
                        ))
                    }
                };
            }
            _ => return Err(format!("unknown argument {arg:?}")),
        }
    }
    Ok((smoke, samples))
}

/// Parses the command line (`--smoke`, `--samples N`), runs the
/// comparison and prints it.
pub fn main(versus: &Versus) -> ExitCode {
    let (smoke, samples) = match parse(std::env::args().skip(1)) {
        Ok(parsed) => parsed,
        Err(err) => {
            eprintln!(
                "error: {err}\nusage: {} [--smoke] [--samples N]\n  --smoke      one tiny run per contestant; no timings\n  --samples N  samples per contestant (default {DEFAULT_SAMPLES}, 1..={MAX_SAMPLES})",
                versus.name
            );
            return ExitCode::from(2);
        }
    };
    let contestants = versus.contestants;
    if smoke {
        for (_, run) in contestants {
            run(versus.smoke_size);
        }
        println!(
            "{}: smoke run of {} contestants passed",
            versus.name,
            contestants.len()
        );
        return ExitCode::SUCCESS;
    }
    // One unrecorded run each: threads, caches and page faults warm up.
    for (_, run) in contestants {
        run(versus.size);
    }
    let mut results: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); contestants.len()];
    for round in 0..samples {
        // Rotate which one goes first, so none always follows the same one.
        for k in 0..contestants.len() {
            let index = (round + k) % contestants.len();
            results[index].push((contestants[index].1)(versus.size));
        }
    }
    println!("{} ({samples} samples):", versus.title);
    let reference = results.last().and_then(|r| median(r));
    let reference_name = contestants.last().map_or("", |c| c.0);
    for ((name, _), samples) in contestants.iter().zip(&results) {
        let Some(value) = median(samples) else {
            continue;
        };
        let each = value / versus.size as f64;
        let ratio = reference.map_or(String::new(), |r| {
            format!("  x{:.2} {reference_name}", value / r)
        });
        println!(
            "  {name:<24} {:>10}  ({each:.1} ns/{}){ratio}",
            Unit::Nanos.format(value),
            versus.per
        );
    }
    ExitCode::SUCCESS
}
