//! Runs the selected cases, alternating runtimes, and turns the command
//! line into reports.
//!
//! A case is one workload on one flavor. Before sampling, each runtime runs
//! the case once unrecorded (page faults, thread stacks and lazily built
//! structures would otherwise land in the first sample). Then the samples
//! alternate rt and tokio, and which runtime goes first flips every round,
//! so that neither always runs on a machine its rival just warmed or
//! heated.
//!
//! A control run (`--control`) is the same with tokio's function in rt's
//! place: the first column holds a first tokio's samples.
//!
//! Beside each sample's value the runner keeps the CPU time and the rate of
//! voluntary context switches of its measured region ([`super::region`]),
//! and each case gets a rank-sum verdict on time and on CPU
//! ([`super::significance`]) over all its samples.
//!
//! With `--instructions`, each current-thread and one-worker case is then
//! run once more per runtime, in a child process under callgrind
//! ([`super::instructions`]).
//!
//! With `--busy-loops N`, N spinning threads ([`super::busy`]) run through
//! each case's warm-up and samples, and stop before its instructions are
//! counted, so the counts stay those of an unloaded run.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::busy::BusyLoops;
use super::instructions::{count_case, counted, valgrind_missing, Count, Instructions};
use super::json::results_json;
use super::options::{Options, Side, Sides, USAGE};
use super::region::take_last_region;
use super::report::{console_table, markdown_report};
use super::significance::Verdict;
use super::stats::median;
use super::svg::ratio_chart;
use super::workload::{Flavor, Size, Unit, Workload};

/// Samples per runtime for byte counts: they barely vary, so a few suffice.
const MEMORY_SAMPLES: usize = 3;

/// The samples both runtimes produced for one workload on one flavor.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseResult {
    /// The workload's name.
    pub workload: &'static str,
    /// The flavor it ran on.
    pub flavor: Flavor,
    /// What the samples measure.
    pub unit: Unit,
    /// rt's samples, in run order (in a control run, the first tokio's).
    pub rt: Vec<f64>,
    /// tokio's samples, in run order.
    pub tokio: Vec<f64>,
    /// The usage of rt's samples' measured regions.
    pub rt_usage: UsageSamples,
    /// The usage of tokio's samples' measured regions.
    pub tokio_usage: UsageSamples,
    /// Both runtimes' instruction counts, for the cases the instruction
    /// mode counts.
    pub instructions: Option<Instructions>,
}

/// What one side's samples of a case cost the process, one entry per
/// sample whose workload measured a region (none for byte counts).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UsageSamples {
    /// CPU nanoseconds of the region (per operation, for a workload that
    /// counts operations).
    pub cpu: Vec<f64>,
    /// Voluntary context switches per second of the region's wall time.
    pub switches_per_second: Vec<f64>,
}

impl UsageSamples {
    /// Adds the usage of the region the last sample measured, if any.
    fn push_last_region(&mut self) {
        if let Some(region) = take_last_region() {
            self.cpu.push(region.cpu_nanos_per_op());
            if let Some(rate) = region.switches_per_second() {
                self.switches_per_second.push(rate);
            }
        }
    }

    /// The median CPU time.
    pub fn cpu_median(&self) -> Option<f64> {
        median(&self.cpu)
    }

    /// The median switch rate.
    pub fn switches_median(&self) -> Option<f64> {
        median(&self.switches_per_second)
    }
}

impl CaseResult {
    /// A result with no samples yet.
    pub fn empty(workload: &'static str, flavor: Flavor, unit: Unit) -> CaseResult {
        CaseResult {
            workload,
            flavor,
            unit,
            rt: Vec::new(),
            tokio: Vec::new(),
            rt_usage: UsageSamples::default(),
            tokio_usage: UsageSamples::default(),
            instructions: None,
        }
    }

    /// The median of rt's samples.
    pub fn rt_median(&self) -> Option<f64> {
        median(&self.rt)
    }

    /// The median of tokio's samples.
    pub fn tokio_median(&self) -> Option<f64> {
        median(&self.tokio)
    }

    /// rt's median over tokio's: below 1 means rt is faster (or smaller).
    /// `None` when either median is missing or tokio's is zero.
    pub fn ratio(&self) -> Option<f64> {
        let (rt, tokio) = (self.rt_median()?, self.tokio_median()?);
        (tokio > 0.0).then(|| rt / tokio)
    }

    /// rt's median CPU time over tokio's. `None` when either is missing or
    /// tokio's is zero.
    pub fn cpu_ratio(&self) -> Option<f64> {
        let (rt, tokio) = (self.rt_usage.cpu_median()?, self.tokio_usage.cpu_median()?);
        (tokio > 0.0).then(|| rt / tokio)
    }

    /// The rank-sum verdict on rt's times against tokio's; byte counts are
    /// not tested.
    pub fn time_verdict(&self) -> Verdict {
        match self.unit {
            Unit::Nanos => Verdict::of(&self.rt, &self.tokio),
            Unit::BytesPerTask => Verdict::Untested,
        }
    }

    /// The rank-sum verdict on rt's CPU times against tokio's.
    pub fn cpu_verdict(&self) -> Verdict {
        Verdict::of(&self.rt_usage.cpu, &self.tokio_usage.cpu)
    }

    /// rt's instruction count over tokio's, when both were counted.
    pub fn instruction_ratio(&self) -> Option<f64> {
        self.instructions.as_ref()?.ratio()
    }
}

/// Runs every case of `workloads` that `options` selects and returns their
/// samples. Progress goes to `progress`, one line per case.
pub fn run(
    workloads: &[Workload],
    options: &Options,
    progress: &mut dyn Write,
) -> io::Result<Vec<CaseResult>> {
    let cases: Vec<(&Workload, Flavor)> = workloads
        .iter()
        .flat_map(|w| options.flavors(w.flavors).into_iter().map(move |f| (w, f)))
        .filter(|(w, f)| options.selects(w.name, f))
        .collect();
    let counting = options.instructions && options.callgrind_child.is_none();
    let no_valgrind = if counting { valgrind_missing() } else { None };
    let sides = options.sides();
    let mut results = Vec::with_capacity(cases.len());
    for (index, (workload, flavor)) in cases.iter().enumerate() {
        let label = format!("{}/{}", workload.name, flavor);
        write!(progress, "[{:>2}/{}] {label:<32} ", index + 1, cases.len())?;
        progress.flush()?;
        let mut result = run_case(workload, *flavor, options, progress)?;
        if counting && counted(*flavor, workload.unit) {
            let instructions = count_both(&label, options, no_valgrind.as_deref());
            if let Some(ratio) = instructions.ratio() {
                write!(
                    progress,
                    " [instr rt {}  tokio {}  rt/tokio {ratio:.3}]",
                    instructions.rt, instructions.tokio
                )?;
            } else {
                write!(
                    progress,
                    " [instr rt: {}; tokio: {}]",
                    instructions.rt, instructions.tokio
                )?;
            }
            result.instructions = Some(instructions);
        }
        if !options.smoke {
            write_cpu(progress, &result, sides)?;
        }
        match (result.rt_median(), result.tokio_median(), result.ratio()) {
            _ if options.smoke => writeln!(progress, " ok")?,
            (Some(rt), Some(tokio), Some(ratio)) => writeln!(
                progress,
                " {} {}  {} {}  {} {ratio:.2}",
                sides.first,
                workload.unit.format(rt),
                sides.second,
                workload.unit.format(tokio),
                sides.ratio(),
            )?,
            (rt, tokio, _) => {
                for (side, median) in [(sides.first, rt), (sides.second, tokio)] {
                    if let Some(median) = median {
                        write!(progress, " {side} {}", workload.unit.format(median))?;
                    }
                }
                writeln!(progress)?
            }
        }
        results.push(result);
    }
    Ok(results)
}

/// The medians of both sides' CPU times and their ratio, when measured.
fn write_cpu(progress: &mut dyn Write, result: &CaseResult, sides: Sides) -> io::Result<()> {
    let (rt, tokio) = (
        result.rt_usage.cpu_median(),
        result.tokio_usage.cpu_median(),
    );
    for (side, cpu) in [(sides.first, rt), (sides.second, tokio)] {
        if let Some(cpu) = cpu {
            write!(progress, " [cpu {side} {}]", Unit::Nanos.format(cpu))?;
        }
    }
    Ok(())
}

/// Both runtimes' counts for case `label`, or the reason there are none.
fn count_both(label: &str, options: &Options, no_valgrind: Option<&str>) -> Instructions {
    let dir = options.out_dir.join("callgrind");
    let count = |side: Side| match (no_valgrind, options.only) {
        (Some(why), _) => Count::Missing(why.to_string()),
        (None, Some(only)) if only != side => Count::Missing("not run".to_string()),
        (None, _) => count_case(label, side, &dir),
    };
    Instructions {
        rt: count(Side::Rt),
        tokio: count(Side::Tokio),
    }
}

fn run_case(
    workload: &Workload,
    flavor: Flavor,
    options: &Options,
    progress: &mut dyn Write,
) -> io::Result<CaseResult> {
    let size = Size {
        flavor,
        smoke: options.smoke,
    };
    // The callgrind child runs its case once: the instruction count does
    // not need a median.
    let child = options.callgrind_child.is_some();
    let samples = match (options.smoke || child, workload.unit) {
        (true, _) => 1,
        (false, Unit::BytesPerTask) => options.samples.min(MEMORY_SAMPLES),
        (false, Unit::Nanos) => options.samples,
    };
    let run_rt = options.only != Some(Side::Tokio);
    let run_tokio = options.only != Some(Side::Rt);
    // The first column's function: rt's, or tokio's again in a control run.
    let first = if options.control {
        workload.run_tokio
    } else {
        workload.run_rt
    };
    // Started before the warm-up, so that it too runs on the loaded
    // machine; dropped, and so stopped, when this function returns.
    let loops = if options.smoke || child {
        0
    } else {
        options.busy_loops
    };
    let _busy = BusyLoops::start(loops)?;
    if !options.smoke && !child {
        if run_rt {
            first(&size);
        }
        if run_tokio {
            (workload.run_tokio)(&size);
        }
    }
    let mut result = CaseResult::empty(workload.name, flavor, workload.unit);
    let sample_rt = |result: &mut CaseResult| {
        take_last_region();
        result.rt.push(first(&size));
        result.rt_usage.push_last_region();
    };
    let sample_tokio = |result: &mut CaseResult| {
        take_last_region();
        result.tokio.push((workload.run_tokio)(&size));
        result.tokio_usage.push_last_region();
    };
    for round in 0..samples {
        let rt_first = round % 2 == 0;
        if run_rt && rt_first {
            sample_rt(&mut result);
        }
        if run_tokio {
            sample_tokio(&mut result);
        }
        if run_rt && !rt_first {
            sample_rt(&mut result);
        }
        write!(progress, ".")?;
        progress.flush()?;
    }
    Ok(result)
}

/// The whole benchmark program: parses the command line, runs the cases,
/// prints the table and writes `report.md`, `ratios.svg` and `results.json` (not in smoke
/// mode). A benchmark binary's `main` only calls this with its table.
pub fn main(title: &str, workloads: &[Workload]) -> ExitCode {
    // This crate sits in `examples/benches/harness/`; the workspace's
    // `target/` is three levels up.
    let default_out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../target/bench");
    let options = match Options::parse(std::env::args().skip(1), default_out) {
        Ok(options) => options,
        Err(err) => {
            eprintln!("error: {err}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if options.help {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    match run_and_report(title, workloads, &options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

fn run_and_report(title: &str, workloads: &[Workload], options: &Options) -> io::Result<()> {
    let results = run(workloads, options, &mut io::stderr())?;
    if results.is_empty() {
        let filter = options.filter.as_deref().unwrap_or_default();
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("no workload matches --filter {filter:?}"),
        ));
    }
    if options.smoke {
        println!("{title}: smoke run of {} cases passed", results.len());
        return Ok(());
    }
    if options.callgrind_child.is_some() {
        return Ok(());
    }
    print!("{}", console_table(&results, options.sides()));
    let paths = write_reports(title, &results, options)?;
    for path in paths {
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn write_reports(
    title: &str,
    results: &[CaseResult],
    options: &Options,
) -> io::Result<[PathBuf; 3]> {
    fs::create_dir_all(&options.out_dir)?;
    let report = options.out_dir.join("report.md");
    let chart = options.out_dir.join("ratios.svg");
    let json = options.out_dir.join("results.json");
    let sides = options.sides();
    fs::write(
        &report,
        markdown_report(title, results, options.samples, options.busy_loops, sides),
    )?;
    fs::write(&chart, ratio_chart(title, results, sides))?;
    fs::write(
        &json,
        results_json(title, results, options.busy_loops, sides),
    )?;
    Ok([report, chart, json])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static RT_RUNS: AtomicUsize = AtomicUsize::new(0);
    static TOKIO_RUNS: AtomicUsize = AtomicUsize::new(0);

    fn fake_rt(size: &Size) -> f64 {
        RT_RUNS.fetch_add(1, Ordering::Relaxed);
        size.count(200) as f64
    }

    fn fake_tokio(size: &Size) -> f64 {
        TOKIO_RUNS.fetch_add(1, Ordering::Relaxed);
        size.count(100) as f64
    }

    const FAKE: Workload = Workload {
        name: "fake",
        unit: Unit::Nanos,
        flavors: &[Flavor::CurrentThread, Flavor::MultiThread(2)],
        run_rt: fake_rt,
        run_tokio: fake_tokio,
    };

    fn options(args: &[&str]) -> Options {
        Options::parse(args.iter().map(|a| a.to_string()), PathBuf::from("unused")).unwrap()
    }

    #[test]
    fn runs_each_selected_case_with_warm_up_and_samples() {
        let before = (
            RT_RUNS.load(Ordering::Relaxed),
            TOKIO_RUNS.load(Ordering::Relaxed),
        );
        let mut progress = Vec::new();
        let results = run(
            &[FAKE],
            &options(&["--samples", "4", "--filter", "fake/multi"]),
            &mut progress,
        )
        .unwrap();
        assert_eq!(results.len(), 1);
        assert_eq!(results[0].flavor, Flavor::MultiThread(2));
        assert_eq!(results[0].rt, vec![200.0; 4]);
        assert_eq!(results[0].ratio(), Some(2.0));
        // One warm-up run each plus four samples each.
        assert!(RT_RUNS.load(Ordering::Relaxed) - before.0 >= 5);
        assert!(TOKIO_RUNS.load(Ordering::Relaxed) - before.1 >= 5);
        let progress = String::from_utf8(progress).unwrap();
        assert!(progress.contains("[ 1/1] fake/multi-2"), "{progress}");
        assert!(progress.contains("rt/tokio 2.00"), "{progress}");
    }

    #[test]
    fn a_control_run_puts_tokio_in_both_columns() {
        let mut progress = Vec::new();
        let results = run(
            &[FAKE],
            &options(&["--samples", "3", "--control", "--filter", "fake/current"]),
            &mut progress,
        )
        .unwrap();
        assert_eq!(results[0].rt, vec![100.0; 3]);
        assert_eq!(results[0].tokio, vec![100.0; 3]);
        // Both columns hold `fake_tokio`'s figure, not `fake_rt`'s 200.
        assert_eq!(results[0].ratio(), Some(1.0));
        let progress = String::from_utf8(progress).unwrap();
        assert!(progress.contains("tokio-a/tokio-b 1.00"), "{progress}");
    }

    #[test]
    fn a_loaded_run_samples_as_a_quiet_one_does() {
        let results = run(
            &[FAKE],
            &options(&[
                "--samples",
                "3",
                "--busy-loops",
                "2",
                "--filter",
                "fake/current",
            ]),
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(results[0].rt, vec![200.0; 3]);
        assert_eq!(results[0].tokio, vec![100.0; 3]);
    }

    #[test]
    fn one_side_only_has_no_ratio() {
        let results = run(
            &[FAKE],
            &options(&["--samples", "2", "--runtime", "rt"]),
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(results.len(), 2);
        assert_eq!(results[0].rt.len(), 2);
        assert!(results[0].tokio.is_empty());
        assert_eq!(results[0].ratio(), None);
    }

    #[test]
    fn smoke_runs_every_case_once_at_tiny_size() {
        let results = run(&[FAKE], &options(&["--smoke"]), &mut Vec::new()).unwrap();
        assert_eq!(results.len(), 2);
        for r in &results {
            assert_eq!(r.rt, vec![2.0]);
            assert_eq!(r.tokio, vec![1.0]);
        }
    }

    #[test]
    fn ratio_needs_both_medians_and_a_nonzero_tokio() {
        let mut r = CaseResult::empty("x", Flavor::CurrentThread, Unit::Nanos);
        r.rt = vec![3.0];
        assert_eq!(r.ratio(), None);
        r.tokio = vec![0.0];
        assert_eq!(r.ratio(), None);
        r.tokio = vec![6.0];
        assert_eq!(r.ratio(), Some(0.5));
    }
}
