//! The command line of `http_vs_tokio`:
//! `[--smoke] [--rounds N] [--seconds N] [--runtime rt|tokio] [--flavor F]`,
//! plus the `--bench` that `cargo bench` adds.

use bench_harness::{Flavor, Side};

/// Rounds per flavor when `--rounds` is not given: each round is one wrk
/// run per side, so three take about 20 s per flavor.
const DEFAULT_ROUNDS: usize = 3;

/// Most rounds accepted, so that a typo cannot start an endless run.
const MAX_ROUNDS: usize = 1_000;

/// Seconds of load per wrk run in a measured run.
const MEASURED_SECONDS: u32 = 3;

/// Seconds of load per wrk run in a smoke run.
const SMOKE_SECONDS: u32 = 1;

/// Longest wrk run accepted.
const MAX_SECONDS: u32 = 600;

/// The runtime configurations measured unless `--flavor` picks one: a
/// server's usual multi-thread runtime sized to the machine's two cores,
/// and the current-thread one.
pub const FLAVORS: [Flavor; 2] = [Flavor::MultiThread(2), Flavor::CurrentThread];

/// The usage text printed after a command-line error.
pub const USAGE: &str = "\
usage: http_vs_tokio [--smoke] [--rounds N] [--seconds N] [--runtime rt|tokio] [--flavor F]
  --smoke        one one-second wrk run per side and flavor; no figures, no report
  --rounds N     wrk runs per side and flavor (default 3, 1..=1000)
  --seconds N    seconds of load per wrk run (default 3, 1..=600)
  --runtime R    serve on rt only or on tokio only; no ratios, no report
  --flavor F     only multi-2 or only current";

/// What the command line asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// A short check that both servers run under wrk, not a measurement.
    pub smoke: bool,
    /// wrk runs per side and flavor.
    pub rounds: usize,
    /// Seconds of load per wrk run.
    pub seconds: u32,
    /// Serve on this runtime only.
    pub only: Option<Side>,
    /// The flavors to measure.
    pub flavors: Vec<Flavor>,
}

impl Options {
    /// Parses the arguments after the program name.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
        let mut options = Options {
            smoke: false,
            rounds: DEFAULT_ROUNDS,
            seconds: MEASURED_SECONDS,
            only: None,
            flavors: FLAVORS.to_vec(),
        };
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let mut value = || args.next().ok_or(format!("{arg} needs a value"));
            match arg.as_str() {
                "--bench" => {}
                "--smoke" => options.smoke = true,
                "--rounds" => options.rounds = number(&arg, &value()?, MAX_ROUNDS)?,
                "--seconds" => options.seconds = number(&arg, &value()?, MAX_SECONDS)?,
                "--runtime" => {
                    options.only = Some(match value()?.as_str() {
                        "rt" => Side::Rt,
                        "tokio" => Side::Tokio,
                        other => return Err(format!("--runtime takes rt or tokio, not {other:?}")),
                    })
                }
                "--flavor" => {
                    let name = value()?;
                    let flavor = FLAVORS.into_iter().find(|f| f.to_string() == name);
                    options.flavors =
                        vec![flavor
                            .ok_or(format!("--flavor takes multi-2 or current, not {name:?}"))?];
                }
                _ => return Err(format!("unknown argument {arg:?}")),
            }
        }
        if options.smoke {
            options.rounds = 1;
            options.seconds = SMOKE_SECONDS;
        }
        Ok(options)
    }
}

/// `value` as a whole number from 1 to `max`, for option `name`.
fn number<T>(name: &str, value: &str, max: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + From<u8> + std::fmt::Display + Copy,
{
    match value.parse::<T>() {
        Ok(n) if n >= T::from(1) && n <= max => Ok(n),
        _ => Err(format!("{name} takes 1..={max}, not {value:?}")),
    }
}
