//! The benchmark command line.
//!
//! ```text
//! runtime [--smoke] [--filter NAME] [--samples N] [--out DIR] [--instructions]
//!         [--workers N,N,...] [--control] [--busy-loops N]
//! ```
//!
//! `--callgrind-child CASE` is the harness talking to itself: the
//! instruction mode starts the binary under callgrind with it to run one
//! case once.
//!
//! `cargo bench` appends `--bench` to the arguments of a benchmark without
//! the libtest harness; it is accepted and ignored.

use crate::workload::Flavor;
use std::fmt;
use std::path::PathBuf;

/// Samples per runtime and case when `--samples` is not given: enough for a
/// stable median. The suite's time grows with it (the whole runtime suite
/// at 10 samples took 8.6 minutes on two cores).
pub const DEFAULT_SAMPLES: usize = 40;

/// Most samples accepted, so that a typo cannot start an endless run.
const MAX_SAMPLES: usize = 10_000;

/// Most workers `--workers` accepts for one case.
const MAX_WORKERS: usize = 1024;

/// Most busy threads `--busy-loops` starts.
const MAX_BUSY_LOOPS: usize = 1024;

/// What the command line asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// One tiny run of every selected case, no timing claims, no report.
    pub smoke: bool,
    /// Only workloads whose name, or `name/flavor`, contains this text.
    pub filter: Option<String>,
    /// Samples per runtime and case.
    pub samples: usize,
    /// Where `report.md` and `ratios.svg` are written.
    pub out_dir: PathBuf,
    /// Run only this runtime (`--runtime rt` or `--runtime tokio`), for
    /// profiling one side; no ratios are reported then.
    pub only: Option<Side>,
    /// `--help` was given: print the usage and do nothing else.
    pub help: bool,
    /// Also count instructions under callgrind for the current-thread and
    /// one-worker cases.
    pub instructions: bool,
    /// Run only this case (`name/flavor`, exactly), once, without warm-up
    /// or report: the child process of the instruction mode.
    pub callgrind_child: Option<String>,
    /// `--workers`: the multi-thread worker counts to run instead of each
    /// workload's own flavors (a scaling run); current-thread cases are
    /// left out then.
    pub workers: Option<Vec<usize>>,
    /// `--control`: tokio runs on both sides of every pair, so each ratio
    /// is what the machine's noise alone makes of two equal runtimes.
    pub control: bool,
    /// `--busy-loops N`: CPU-bound threads that run beside every timed
    /// sample, so the times are those of a loaded machine.
    pub busy_loops: usize,
}

/// One of the two runtimes under comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// rt.
    Rt,
    /// tokio.
    Tokio,
}

/// The names of a run's two columns, first and second of each pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sides {
    /// The first column: rt, or in a control run a first tokio.
    pub first: &'static str,
    /// The second column: tokio, or in a control run a second tokio.
    pub second: &'static str,
}

impl Sides {
    /// rt against tokio.
    pub const VERSUS: Sides = Sides {
        first: "rt",
        second: "tokio",
    };
    /// tokio against itself (`--control`).
    pub const CONTROL: Sides = Sides {
        first: "tokio-a",
        second: "tokio-b",
    };

    /// The ratio's name, `first/second`.
    pub fn ratio(&self) -> String {
        format!("{}/{}", self.first, self.second)
    }
}

/// The usage text printed for `--help` and after a command-line error.
pub const USAGE: &str = "\
usage: runtime [--smoke] [--filter NAME] [--samples N] [--out DIR] [--runtime rt|tokio]
               [--instructions] [--workers LIST] [--control] [--busy-loops N]
  --smoke          run every workload once at a tiny size; no timings, no report
  --filter NAME    only workloads whose name (or name/flavor) contains NAME;
                   several NAMEs separated by commas select any of them
  --samples N      samples per runtime and case (default 40, 1..=10000)
  --out DIR        directory for report.md and ratios.svg (default target/bench)
  --runtime R      run only rt or only tokio (for profiling); no ratios
  --instructions   also run each current-thread and 1-worker case once per
                   runtime under valgrind's callgrind and report instruction
                   counts of the measured region beside the times
  --workers LIST   run every workload on the multi-thread scheduler with each
                   of these worker counts (comma-separated, for example
                   4,8,16) instead of its own flavors
  --control        run tokio on both sides of every pair (columns tokio-a and
                   tokio-b): each ratio is the machine's noise, the yardstick
                   for how far from 1.00 a ratio of rt to tokio must be to
                   say anything
  --busy-loops N   keep N threads spinning on arithmetic while the cases
                   run (one per core loads the machine fully), to measure
                   both runtimes on a machine that other work keeps busy;
                   instruction counts are taken without them";

/// A command line the harness cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionsError {
    /// An option that takes a value was last on the line.
    MissingValue(&'static str),
    /// `--samples` was not a whole number in range.
    BadSamples(String),
    /// `--runtime` named neither `rt` nor `tokio`.
    BadRuntime(String),
    /// `--workers` was not a comma-separated list of counts in range.
    BadWorkers(String),
    /// `--busy-loops` was not a whole number in range.
    BadBusyLoops(String),
    /// `--control` with an option that has no meaning in a control run.
    NotWithControl(&'static str),
    /// An argument the harness does not know.
    Unknown(String),
}

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionsError::MissingValue(flag) => write!(f, "{flag} needs a value"),
            OptionsError::BadSamples(v) => write!(
                f,
                "--samples takes a whole number from 1 to {MAX_SAMPLES}, not {v:?}"
            ),
            OptionsError::BadRuntime(v) => {
                write!(f, "--runtime takes `rt` or `tokio`, not {v:?}")
            }
            OptionsError::BadWorkers(v) => write!(
                f,
                "--workers takes worker counts from 1 to {MAX_WORKERS} separated by commas, not {v:?}"
            ),
            OptionsError::BadBusyLoops(v) => write!(
                f,
                "--busy-loops takes a whole number from 0 to {MAX_BUSY_LOOPS}, not {v:?}"
            ),
            OptionsError::NotWithControl(flag) => write!(
                f,
                "--control runs tokio on both sides, so {flag} has nothing to compare"
            ),
            OptionsError::Unknown(arg) => write!(f, "unknown argument {arg:?}"),
        }
    }
}

impl std::error::Error for OptionsError {}

impl Options {
    /// Parses the arguments after the program name. `default_out` is used
    /// when `--out` is not given.
    pub fn parse<I>(args: I, default_out: PathBuf) -> Result<Options, OptionsError>
    where
        I: IntoIterator<Item = String>,
    {
        let mut options = Options {
            smoke: false,
            filter: None,
            samples: DEFAULT_SAMPLES,
            out_dir: default_out,
            only: None,
            help: false,
            instructions: false,
            callgrind_child: None,
            workers: None,
            control: false,
            busy_loops: 0,
        };
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--smoke" => options.smoke = true,
                "--bench" => {}
                "--instructions" => options.instructions = true,
                "--control" => options.control = true,
                "--callgrind-child" => {
                    let value = args
                        .next()
                        .ok_or(OptionsError::MissingValue("--callgrind-child"))?;
                    options.callgrind_child = Some(value);
                }
                "-h" | "--help" => options.help = true,
                "--filter" => {
                    let value = args.next().ok_or(OptionsError::MissingValue("--filter"))?;
                    options.filter = Some(value);
                }
                "--samples" => {
                    let value = args.next().ok_or(OptionsError::MissingValue("--samples"))?;
                    options.samples = match value.parse::<usize>() {
                        Ok(n) if (1..=MAX_SAMPLES).contains(&n) => n,
                        _ => return Err(OptionsError::BadSamples(value)),
                    };
                }
                "--out" => {
                    let value = args.next().ok_or(OptionsError::MissingValue("--out"))?;
                    options.out_dir = PathBuf::from(value);
                }
                "--runtime" => {
                    let value = args.next().ok_or(OptionsError::MissingValue("--runtime"))?;
                    options.only = Some(match value.as_str() {
                        "rt" => Side::Rt,
                        "tokio" => Side::Tokio,
                        _ => return Err(OptionsError::BadRuntime(value)),
                    });
                }
                "--workers" => {
                    let value = args.next().ok_or(OptionsError::MissingValue("--workers"))?;
                    let counts: Option<Vec<usize>> = value
                        .split(',')
                        .map(|part| part.trim().parse::<usize>().ok())
                        .map(|n| n.filter(|n| (1..=MAX_WORKERS).contains(n)))
                        .collect();
                    options.workers = Some(counts.ok_or(OptionsError::BadWorkers(value))?);
                }
                "--busy-loops" => {
                    let value = args
                        .next()
                        .ok_or(OptionsError::MissingValue("--busy-loops"))?;
                    options.busy_loops = match value.parse::<usize>() {
                        Ok(n) if n <= MAX_BUSY_LOOPS => n,
                        _ => return Err(OptionsError::BadBusyLoops(value)),
                    };
                }
                _ => return Err(OptionsError::Unknown(arg)),
            }
        }
        if options.control {
            // Counting tokio's instructions twice, or running one side,
            // would make a ratio of exactly 1 or none at all.
            if options.instructions {
                return Err(OptionsError::NotWithControl("--instructions"));
            }
            if options.only.is_some() {
                return Err(OptionsError::NotWithControl("--runtime"));
            }
        }
        Ok(options)
    }

    /// The names of the two columns this run fills.
    pub fn sides(&self) -> Sides {
        if self.control {
            Sides::CONTROL
        } else {
            Sides::VERSUS
        }
    }

    /// The flavors to run a workload declared with `declared` on: its own,
    /// or with `--workers` the multi-thread scheduler at each listed count.
    pub fn flavors(&self, declared: &[Flavor]) -> Vec<Flavor> {
        match &self.workers {
            None => declared.to_vec(),
            Some(counts) => counts.iter().map(|&n| Flavor::MultiThread(n)).collect(),
        }
    }

    /// Whether the case `name` on `flavor` passes `--filter` (any of its
    /// comma-separated parts).
    pub fn selects(&self, name: &str, flavor: impl fmt::Display) -> bool {
        if let Some(case) = &self.callgrind_child {
            return *case == format!("{name}/{flavor}");
        }
        match &self.filter {
            None => true,
            Some(filter) => {
                let case = format!("{name}/{flavor}");
                filter.split(',').any(|part| case.contains(part))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, OptionsError> {
        Options::parse(args.iter().map(|a| a.to_string()), PathBuf::from("out"))
    }

    #[test]
    fn defaults() {
        let o = parse(&[]).unwrap();
        assert!(!o.smoke && !o.help);
        assert_eq!(o.filter, None);
        assert_eq!(o.samples, DEFAULT_SAMPLES);
        assert_eq!(o.out_dir, PathBuf::from("out"));
        assert!(!o.instructions);
        assert_eq!(o.callgrind_child, None);
    }

    #[test]
    fn instruction_mode_and_its_child() {
        assert!(parse(&["--instructions"]).unwrap().instructions);
        let child = parse(&["--callgrind-child", "ping_pong/current"]).unwrap();
        assert!(child.selects("ping_pong", "current"));
        assert!(!child.selects("ping_pong", "multi-1"));
        assert!(!child.selects("ping", "current"));
        assert_eq!(
            parse(&["--callgrind-child"]),
            Err(OptionsError::MissingValue("--callgrind-child"))
        );
    }

    #[test]
    fn workers_replace_the_declared_flavors() {
        let declared = [Flavor::CurrentThread, Flavor::MultiThread(2)];
        assert_eq!(parse(&[]).unwrap().flavors(&declared), declared.to_vec());
        let o = parse(&["--workers", "4,8,16"]).unwrap();
        assert_eq!(
            o.flavors(&declared),
            vec![
                Flavor::MultiThread(4),
                Flavor::MultiThread(8),
                Flavor::MultiThread(16)
            ]
        );
        for bad in ["", "0", "4,x", "4,,8", "5000"] {
            assert_eq!(
                parse(&["--workers", bad]),
                Err(OptionsError::BadWorkers(bad.to_string()))
            );
        }
    }

    #[test]
    fn every_option_and_cargos_bench_flag() {
        let o = parse(&[
            "--bench",
            "--smoke",
            "--filter",
            "ping",
            "--samples",
            "3",
            "--out",
            "/tmp/x",
        ])
        .unwrap();
        assert!(o.smoke);
        assert_eq!(o.filter.as_deref(), Some("ping"));
        assert_eq!(o.samples, 3);
        assert_eq!(o.out_dir, PathBuf::from("/tmp/x"));
        assert_eq!(o.only, None);
        assert_eq!(parse(&["--runtime", "rt"]).unwrap().only, Some(Side::Rt));
        assert_eq!(
            parse(&["--runtime", "tokio"]).unwrap().only,
            Some(Side::Tokio)
        );
    }

    #[test]
    fn bad_command_lines_are_errors_with_a_message() {
        assert_eq!(
            parse(&["--filter"]),
            Err(OptionsError::MissingValue("--filter"))
        );
        let err = parse(&["--samples", "0"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--samples takes a whole number from 1 to 10000, not \"0\""
        );
        assert!(parse(&["--samples", "many"]).is_err());
        assert!(parse(&["--samples", "10001"]).is_err());
        assert_eq!(
            parse(&["--runtime", "smol"]).unwrap_err().to_string(),
            "--runtime takes `rt` or `tokio`, not \"smol\""
        );
        assert_eq!(
            parse(&["--fast"]).unwrap_err().to_string(),
            "unknown argument \"--fast\""
        );
    }

    #[test]
    fn control_runs_tokio_twice_and_refuses_what_it_cannot_compare() {
        assert_eq!(parse(&[]).unwrap().sides(), Sides::VERSUS);
        let o = parse(&["--control", "--samples", "3"]).unwrap();
        assert!(o.control);
        assert_eq!(o.sides().ratio(), "tokio-a/tokio-b");
        assert_eq!(
            parse(&["--control", "--instructions"]),
            Err(OptionsError::NotWithControl("--instructions"))
        );
        assert_eq!(
            parse(&["--runtime", "rt", "--control"])
                .unwrap_err()
                .to_string(),
            "--control runs tokio on both sides, so --runtime has nothing to compare"
        );
    }

    #[test]
    fn busy_loops_take_a_count() {
        assert_eq!(parse(&[]).unwrap().busy_loops, 0);
        assert_eq!(parse(&["--busy-loops", "2"]).unwrap().busy_loops, 2);
        assert_eq!(
            parse(&["--busy-loops", "two"]).unwrap_err().to_string(),
            "--busy-loops takes a whole number from 0 to 1024, not \"two\""
        );
        assert_eq!(
            parse(&["--busy-loops"]),
            Err(OptionsError::MissingValue("--busy-loops"))
        );
    }

    #[test]
    fn filter_matches_name_or_name_and_flavor() {
        let o = parse(&["--filter", "spawn_many"]).unwrap();
        assert!(o.selects("spawn_many_local", "current"));
        assert!(!o.selects("ping_pong", "current"));
        let o = parse(&["--filter", "ping_pong/multi-2"]).unwrap();
        assert!(o.selects("ping_pong", "multi-2"));
        assert!(!o.selects("ping_pong", "multi-4"));
    }
}
