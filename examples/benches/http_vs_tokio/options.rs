//! The command line of `http_vs_tokio`:
//! `[--smoke] [--rounds N]`, plus the `--bench` that `cargo bench` adds.

/// Rounds per flavor when `--rounds` is not given: each round is one wrk
/// run per side, so three take about 20 s per flavor.
const DEFAULT_ROUNDS: usize = 3;

/// Most rounds accepted, so that a typo cannot start an endless run.
const MAX_ROUNDS: usize = 100;

/// Seconds of load per wrk run in a measured run and in a smoke run.
const MEASURED_SECONDS: u32 = 3;
const SMOKE_SECONDS: u32 = 1;

/// The usage text printed after a command-line error.
pub const USAGE: &str = "\
usage: http_vs_tokio [--smoke] [--rounds N]
  --smoke     one one-second wrk run per side and flavor; no figures, no report
  --rounds N  wrk runs per side and flavor (default 3, 1..=100)";

/// What the command line asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// A short check that both servers run under wrk, not a measurement.
    pub smoke: bool,
    /// wrk runs per side and flavor.
    pub rounds: usize,
    /// Seconds of load per wrk run.
    pub seconds: u32,
}

impl Options {
    /// Parses the arguments after the program name.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
        let mut smoke = false;
        let mut rounds = DEFAULT_ROUNDS;
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--bench" => {}
                "--smoke" => smoke = true,
                "--rounds" => {
                    let value = args.next().ok_or("--rounds needs a value")?;
                    rounds = match value.parse::<usize>() {
                        Ok(n) if (1..=MAX_ROUNDS).contains(&n) => n,
                        _ => return Err(format!("--rounds takes 1..={MAX_ROUNDS}, not {value:?}")),
                    };
                }
                _ => return Err(format!("unknown argument {arg:?}")),
            }
        }
        Ok(if smoke {
            Options {
                smoke,
                rounds: 1,
                seconds: SMOKE_SECONDS,
            }
        } else {
            Options {
                smoke,
                rounds,
                seconds: MEASURED_SECONDS,
            }
        })
    }
}
