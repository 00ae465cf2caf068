//! The benchmark command line.
//!
//! ```text
//! runtime [--smoke] [--filter NAME] [--samples N] [--out DIR] [--instructions]
//!         [--workers N,N,...]
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
/// stable median while the whole runtime suite stays under three minutes on
/// two cores.
pub const DEFAULT_SAMPLES: usize = 40;

/// Most samples accepted, so that a typo cannot start an endless run.
const MAX_SAMPLES: usize = 10_000;

/// Most workers `--workers` accepts for one case.
const MAX_WORKERS: usize = 1024;

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
}

/// One of the two runtimes under comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// rt.
    Rt,
    /// tokio.
    Tokio,
}

/// The usage text printed for `--help` and after a command-line error.
pub const USAGE: &str = "\
usage: runtime [--smoke] [--filter NAME] [--samples N] [--out DIR] [--runtime rt|tokio]
               [--instructions]
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
                   4,8,16) instead of its own flavors";

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
        };
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--smoke" => options.smoke = true,
                "--bench" => {}
                "--instructions" => options.instructions = true,
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
                _ => return Err(OptionsError::Unknown(arg)),
            }
        }
        Ok(options)
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
    fn filter_matches_name_or_name_and_flavor() {
        let o = parse(&["--filter", "spawn_many"]).unwrap();
        assert!(o.selects("spawn_many_local", "current"));
        assert!(!o.selects("ping_pong", "current"));
        let o = parse(&["--filter", "ping_pong/multi-2"]).unwrap();
        assert!(o.selects("ping_pong", "multi-2"));
        assert!(!o.selects("ping_pong", "multi-4"));
    }
}
