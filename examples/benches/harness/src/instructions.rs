//! Instruction counts: each current-thread and one-worker case run once
//! per runtime in a child process under `valgrind --tool=callgrind`.
//!
//! Wall-clock time on a shared machine is noisy; the number of instructions
//! executed is not. The child is this very benchmark binary, started with
//! `--callgrind-child CASE --runtime SIDE`: it runs that one case once, with
//! no warm-up, and the workload's [`Stopwatch`](crate::Stopwatch) asks
//! callgrind to zero its counters where the clock starts and to dump them
//! where it stops. The count is therefore the measured region only, summed
//! over every thread. A workload that never starts a stopwatch gets the
//! whole process's count instead, and the report marks it as such.
//!
//! Only the current-thread and one-worker flavors are counted: with more
//! workers the count depends on how often idle workers spin and steal,
//! which is scheduling noise again.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::options::Side;
use super::region::REGION_DUMP;
use super::workload::{Flavor, Unit};

/// What one side's instruction count is, or why there is none.
#[derive(Clone, Debug, PartialEq)]
pub enum Count {
    /// Instructions in the measured region, all threads.
    Region(u64),
    /// The workload marked no region: instructions of the whole process.
    WholeProcess(u64),
    /// No count: valgrind is missing or the child failed; the reason.
    Missing(String),
}

impl Count {
    /// The number of instructions, when there is one.
    pub fn value(&self) -> Option<u64> {
        match self {
            Count::Region(n) | Count::WholeProcess(n) => Some(*n),
            Count::Missing(_) => None,
        }
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Count::Region(n) => f.write_str(&format_count(*n)),
            Count::WholeProcess(n) => write!(f, "{} (whole process)", format_count(*n)),
            Count::Missing(why) => f.write_str(why),
        }
    }
}

/// `n` instructions with an SI suffix, as callgrind users read them.
pub fn format_count(n: u64) -> String {
    let n = n as f64;
    if n >= 1e9 {
        format!("{:.3}G", n / 1e9)
    } else if n >= 1e6 {
        format!("{:.2}M", n / 1e6)
    } else if n >= 1e3 {
        format!("{:.1}k", n / 1e3)
    } else {
        format!("{n:.0}")
    }
}

/// Both sides' counts for one case.
#[derive(Clone, Debug, PartialEq)]
pub struct Instructions {
    /// rt's count.
    pub rt: Count,
    /// tokio's count.
    pub tokio: Count,
}

impl Instructions {
    /// rt's count over tokio's, when both exist and tokio's is not zero.
    pub fn ratio(&self) -> Option<f64> {
        let (rt, tokio) = (self.rt.value()?, self.tokio.value()?);
        (tokio > 0).then(|| rt as f64 / tokio as f64)
    }
}

/// Whether a case gets an instruction count: time workloads on the
/// current-thread scheduler or on one worker.
pub fn counted(flavor: Flavor, unit: Unit) -> bool {
    unit == Unit::Nanos && matches!(flavor, Flavor::CurrentThread | Flavor::MultiThread(1))
}

/// Why no case can be counted, or `None` when `valgrind` runs.
pub fn valgrind_missing() -> Option<String> {
    let probe = Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match probe {
        Ok(status) if status.success() => None,
        Ok(status) => Some(format!("valgrind --version failed ({status})")),
        Err(_) => Some("valgrind not found on PATH".to_string()),
    }
}

/// Runs case `case` (`name/flavor`) for `side` under callgrind, keeping its
/// output files in `dir`, and reads the count.
pub fn count_case(case: &str, side: Side, dir: &Path) -> Count {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(err) => return Count::Missing(format!("no path to this binary: {err}")),
    };
    if let Err(err) = fs::create_dir_all(dir) {
        return Count::Missing(format!("cannot create {}: {err}", dir.display()));
    }
    let side_name = match side {
        Side::Rt => "rt",
        Side::Tokio => "tokio",
    };
    let stem = format!("{}.{side_name}", case.replace('/', "."));
    // Files of an earlier run of the same case would be read as this one's.
    for stale in dump_files(dir, &stem) {
        let _ = fs::remove_file(stale);
    }
    let out_file = dir.join(format!("{stem}.out"));
    let output = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        // Each dump names its functions in full, so `callgrind_annotate`
        // reads a region dump on its own (compressed names are defined
        // once per process, in whichever dump came first).
        .arg("--compress-strings=no")
        .arg(&exe)
        .args(["--callgrind-child", case, "--runtime", side_name])
        .stdin(Stdio::null())
        .output();
    let output = match output {
        Ok(output) => output,
        Err(err) => return Count::Missing(format!("valgrind did not start: {err}")),
    };
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().last().unwrap_or("").trim();
        return Count::Missing(format!("child failed ({}): {last}", output.status));
    }
    read_counts(dir, &stem)
}

/// The callgrind files of one child: `STEM.out` at exit and `STEM.out.N`
/// for each dump it requested.
fn dump_files(dir: &Path, stem: &str) -> Vec<PathBuf> {
    let prefix = format!("{stem}.out");
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n == prefix || n.starts_with(&format!("{prefix}.")))
        })
        .collect()
}

/// Sums the region dumps of one child, or takes its exit dump when it made
/// none.
fn read_counts(dir: &Path, stem: &str) -> Count {
    let mut region = None;
    let mut whole = None;
    for path in dump_files(dir, stem) {
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let Some((description, total)) = parse_dump(&text) else {
            continue;
        };
        if description.ends_with(REGION_DUMP) {
            *region.get_or_insert(0) += total;
        } else {
            whole = Some(total);
        }
    }
    match (region, whole) {
        (Some(n), _) => Count::Region(n),
        (None, Some(n)) => Count::WholeProcess(n),
        (None, None) => Count::Missing(format!("no callgrind output for {stem}")),
    }
}

/// The `desc:` line and the total instruction count (`totals:` or
/// `summary:`, first event, which is `Ir` by default) of one callgrind file.
pub fn parse_dump(text: &str) -> Option<(String, u64)> {
    let mut description = String::new();
    let mut total = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("desc: ") {
            if rest.starts_with("Trigger:") {
                description = rest.trim().to_string();
            }
        } else if let Some(rest) = line
            .strip_prefix("totals:")
            .or_else(|| line.strip_prefix("summary:"))
        {
            total = rest.split_whitespace().next()?.parse().ok();
        }
    }
    Some((description, total?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_region_dump_and_an_exit_dump() {
        let region = "version: 1\ncreator: callgrind-3.22.0\npid: 7\ncmd: x\npart: 1\n\
                      desc: I1 cache: \ndesc: Trigger: Client Request: measured\n\
                      events: Ir\nfl=(1) a.rs\nfn=(1) f\n3 5\n\nsummary: 12345\ntotals: 12345\n";
        assert_eq!(
            parse_dump(region),
            Some(("Trigger: Client Request: measured".to_string(), 12345))
        );
        let exit = "events: Ir\ndesc: Trigger: Program termination\nsummary: 99\n";
        assert_eq!(
            parse_dump(exit),
            Some(("Trigger: Program termination".to_string(), 99))
        );
        assert_eq!(parse_dump("events: Ir\n"), None);
    }

    #[test]
    fn region_dumps_win_over_the_exit_dump() {
        let dir = std::env::temp_dir().join(format!("bench-instr-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let stem = "case.current.rt";
        fs::write(
            dir.join(format!("{stem}.out")),
            "desc: Trigger: Program termination\nsummary: 1000\n",
        )
        .unwrap();
        assert_eq!(read_counts(&dir, stem), Count::WholeProcess(1000));
        for (n, total) in [(1, 40), (2, 2)] {
            fs::write(
                dir.join(format!("{stem}.out.{n}")),
                format!("desc: Trigger: Client Request: measured\nsummary: {total}\n"),
            )
            .unwrap();
        }
        assert_eq!(read_counts(&dir, stem), Count::Region(42));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn ratios_and_cells() {
        let both = Instructions {
            rt: Count::Region(166_200_000),
            tokio: Count::Region(162_800_000),
        };
        assert!((both.ratio().unwrap() - 1.0209).abs() < 1e-3);
        assert_eq!(both.rt.to_string(), "166.20M");
        let missing = Instructions {
            rt: Count::Missing("valgrind not found on PATH".into()),
            tokio: Count::Region(1),
        };
        assert_eq!(missing.ratio(), None);
        assert_eq!(missing.rt.to_string(), "valgrind not found on PATH");
        assert!(counted(Flavor::MultiThread(1), Unit::Nanos));
        assert!(!counted(Flavor::MultiThread(2), Unit::Nanos));
        assert!(!counted(Flavor::CurrentThread, Unit::BytesPerTask));
    }
}
