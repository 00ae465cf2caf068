//! The tables: a padded one for the terminal and a markdown one for
//! `report.md`, each closed by the geometric mean of the ratios.
//!
//! Time ratios and memory ratios are summarised separately: they answer
//! different questions, and a byte count should not move the speed verdict.

use std::fmt::Write;

use super::options::Sides;
use super::runner::CaseResult;
use super::stats::{geometric_mean, median};
use super::verdicts;
use super::workload::Unit;

/// The header cells of a table over `results`, naming the columns after
/// `sides`.
fn header(results: &[CaseResult], sides: Sides) -> Vec<String> {
    let (a, b) = (sides.first, sides.second);
    let mut header = vec![
        "workload".to_string(),
        "flavor".to_string(),
        a.to_string(),
        b.to_string(),
        sides.ratio(),
        format!("{a} min / median / max"),
        format!("{b} min / median / max"),
    ];
    if with_instructions(results) {
        header.extend([
            format!("{a} instr"),
            format!("{b} instr"),
            format!("instr {}", sides.ratio()),
        ]);
    }
    header
}

/// Whether the tables get the instruction columns.
fn with_instructions(results: &[CaseResult]) -> bool {
    results.iter().any(|r| r.instructions.is_some())
}

/// `min / median / max` of one side's samples in the case's unit; `-` for
/// fewer than two samples, where there is no spread to show.
fn spread(result: &CaseResult, samples: &[f64]) -> String {
    let (Some(median), true) = (median(samples), samples.len() > 1) else {
        return "-".to_string();
    };
    let min = samples.iter().copied().fold(f64::INFINITY, f64::min);
    let max = samples.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let f = |v| result.unit.format(v);
    format!("{} / {} / {}", f(min), f(median), f(max))
}

/// One table row as text cells, in [`header`] order.
fn cells(result: &CaseResult, instructions: bool) -> Vec<String> {
    let value = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| result.unit.format(v));
    let ratio = |r: Option<f64>, digits: usize| {
        r.map_or_else(|| "-".to_string(), |r| format!("{r:.digits$}"))
    };
    let mut cells = vec![
        result.workload.to_string(),
        result.flavor.to_string(),
        value(result.rt_median()),
        value(result.tokio_median()),
        ratio(result.ratio(), 2),
        spread(result, &result.rt),
        spread(result, &result.tokio),
    ];
    if instructions {
        match &result.instructions {
            Some(counts) => cells.extend([
                counts.rt.to_string(),
                counts.tokio.to_string(),
                ratio(counts.ratio(), 3),
            ]),
            None => cells.extend(["-", "-", "-"].map(str::to_string)),
        }
    }
    cells
}

/// The time ratios above which the summary counts cases.
const COUNTED_ABOVE: [f64; 3] = [1.00, 1.05, 1.10];

/// The summary lines: geometric mean of the time ratios and how many cases
/// lie above 1.00, 1.05 and 1.10 (what a control run's noise reaches is
/// read there), counted on the ratios as the table shows them, to two
/// decimals, so that a row reading 1.00 is never counted above 1.00; then
/// the geometric mean of the memory ratios when there are any.
fn summary(results: &[CaseResult], sides: Sides) -> Vec<String> {
    let mut lines = Vec::new();
    let name = sides.ratio();
    for (unit, what) in [(Unit::Nanos, "time"), (Unit::BytesPerTask, "memory")] {
        let ratios: Vec<f64> = results
            .iter()
            .filter(|r| r.unit == unit)
            .filter_map(CaseResult::ratio)
            .collect();
        if let Some(mean) = geometric_mean(&ratios) {
            lines.push(format!(
                "Geometric mean of {what} ratios {name}: {mean:.3} ({} cases)",
                ratios.len()
            ));
            if unit == Unit::Nanos {
                let bars = COUNTED_ABOVE.map(|bar| format!("{bar:.2}"));
                // A ratio the table shows above a bar is at least half a
                // hundredth above it (1.054 reads 1.05, 1.056 reads 1.06).
                let counts = COUNTED_ABOVE.map(|bar| {
                    let count = ratios.iter().filter(|&&r| r > bar + 0.005).count();
                    count.to_string()
                });
                lines.push(format!(
                    "Time ratios {name} above {}: {} of {} cases",
                    bars.join(", "),
                    counts.join(", "),
                    ratios.len()
                ));
            }
        }
    }
    let ratios: Vec<f64> = results
        .iter()
        .filter_map(CaseResult::instruction_ratio)
        .collect();
    if let Some(mean) = geometric_mean(&ratios) {
        lines.push(format!(
            "Geometric mean of instruction ratios {name}: {mean:.3} ({} cases)",
            ratios.len()
        ));
    }
    lines
}

/// The results as a column-aligned text table followed by the summary,
/// the columns named after `sides`.
pub fn console_table(results: &[CaseResult], sides: Sides) -> String {
    let instructions = with_instructions(results);
    let header = header(results, sides);
    let rows: Vec<Vec<String>> = results.iter().map(|r| cells(r, instructions)).collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        for (i, (cell, width)) in row.iter().zip(&widths).enumerate() {
            let pad = width - cell.chars().count();
            // Names left-aligned, numbers right-aligned.
            if i < 2 {
                let _ = write!(out, "{cell}{}  ", " ".repeat(pad));
            } else {
                let _ = write!(out, "{}{cell}  ", " ".repeat(pad));
            }
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    for line in summary(results, sides)
        .into_iter()
        .chain(verdicts::summary(results, sides))
    {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// The results as a markdown document: what was measured and how (with
/// `busy_loops` spinning threads beside the samples, if any), the table,
/// and the summary, the columns named after `sides`.
pub fn markdown_report(
    title: &str,
    results: &[CaseResult],
    samples: usize,
    busy_loops: usize,
    sides: Sides,
) -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let (a, b) = (sides.first, sides.second);
    let mut out = String::new();
    let _ = writeln!(out, "# {title}: {a} vs {b}\n");
    let _ = writeln!(
        out,
        "Medians of {samples} samples per side (byte counts: at most 3), {a} and \
         {b} alternating in one process on a machine with {cores} cores. \
         {a}/{b} below 1 means {a} is faster (or uses less memory).\n"
    );
    if busy_loops > 0 {
        let _ = writeln!(
            out,
            "A loaded run: {busy_loops} threads spinning on arithmetic ran beside every \
             sample (warm-ups included), competing with both runtimes for the \
             {cores} cores; instruction counts, if any, were taken without them.\n"
        );
    }
    if sides == Sides::CONTROL {
        let _ = writeln!(
            out,
            "A control run: both columns ran tokio's code, so every ratio is what \
             this machine's noise makes of two equal runtimes under the same \
             alternation and sample count as a run of rt against tokio.\n"
        );
    }
    let instructions = with_instructions(results);
    if instructions {
        let _ = writeln!(
            out,
            "Instruction counts: each current-thread and 1-worker case run once per \
             runtime under `valgrind --tool=callgrind`, counting only the measured \
             region (the same code the clock covers; all threads) unless marked \
             \"whole process\". Unlike the times they do not depend on the \
             machine's load.\n"
        );
    }
    let header = header(results, sides);
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let align: Vec<&str> = (0..header.len())
        .map(|i| if i < 2 { "---" } else { "---:" })
        .collect();
    let _ = writeln!(out, "|{}|", align.join("|"));
    for row in results.iter().map(|r| cells(r, instructions)) {
        let _ = writeln!(out, "| {} |", row.join(" | "));
    }
    out.push('\n');
    for line in summary(results, sides) {
        let _ = writeln!(out, "{line}\n");
    }
    out.push_str(&verdicts::usage_table(results, sides));
    out.push('\n');
    for line in verdicts::summary(results, sides) {
        let _ = writeln!(out, "{line}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Flavor;

    fn results() -> Vec<CaseResult> {
        vec![
            CaseResult {
                rt: vec![1_000_000.0, 3_000_000.0, 2_000_000.0],
                tokio: vec![1_000_000.0; 3],
                ..CaseResult::empty("spawn_many_local", Flavor::CurrentThread, Unit::Nanos)
            },
            CaseResult {
                rt: vec![500_000.0],
                tokio: vec![1_000_000.0],
                ..CaseResult::empty("yield_many", Flavor::MultiThread(2), Unit::Nanos)
            },
            CaseResult {
                rt: vec![256.0],
                tokio: vec![320.0],
                ..CaseResult::empty(
                    "idle_task_memory",
                    Flavor::CurrentThread,
                    Unit::BytesPerTask,
                )
            },
        ]
    }

    #[test]
    fn markdown_has_a_row_per_case_and_the_geometric_means() {
        let md = markdown_report("runtime", &results(), 3, 0, Sides::VERSUS);
        assert!(md.starts_with("# runtime: rt vs tokio\n"));
        assert!(md.contains(
            "| spawn_many_local | current | 2.00 ms | 1.00 ms | 2.00 \
             | 1.00 ms / 2.00 ms / 3.00 ms | 1.00 ms / 1.00 ms / 1.00 ms |"
        ));
        assert!(md.contains("| yield_many | multi-2 | 500.0 µs | 1.00 ms | 0.50 | - | - |"));
        assert!(md.contains("| idle_task_memory | current | 256 B/task | 320 B/task | 0.80 |"));
        assert!(md.contains("Geometric mean of time ratios rt/tokio: 1.000 (2 cases)"));
        assert!(md.contains("Time ratios rt/tokio above 1.00, 1.05, 1.10: 1, 1, 1 of 2 cases"));
        assert!(md.contains("Geometric mean of memory ratios rt/tokio: 0.800 (1 cases)"));
        assert!(
            !md.contains("instr"),
            "no instruction columns without counts"
        );
    }

    #[test]
    fn instruction_columns_when_counted() {
        use crate::instructions::{Count, Instructions};
        let mut r = results();
        r[0].instructions = Some(Instructions {
            rt: Count::Region(110_000_000),
            tokio: Count::Region(100_000_000),
        });
        r[1].instructions = Some(Instructions {
            rt: Count::Missing("valgrind not found on PATH".into()),
            tokio: Count::Missing("valgrind not found on PATH".into()),
        });
        let md = markdown_report("runtime", &r, 3, 0, Sides::VERSUS);
        assert!(
            md.contains("| rt instr | tokio instr | instr rt/tokio |"),
            "{md}"
        );
        assert!(md.contains("| 110.00M | 100.00M | 1.100 |"), "{md}");
        assert!(md.contains("| valgrind not found on PATH | valgrind not found on PATH | - |"));
        assert!(md.contains("Geometric mean of instruction ratios rt/tokio: 1.100 (1 cases)"));
        let table = console_table(&r, Sides::VERSUS);
        assert!(table.contains("instr rt/tokio"));
    }

    #[test]
    fn console_table_aligns_columns() {
        let table = console_table(&results(), Sides::VERSUS);
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[0].starts_with("workload          flavor"));
        // Every table line ends in the ratio column, right-aligned.
        let ends: Vec<usize> = lines[..4].iter().map(|l| l.chars().count()).collect();
        assert!(ends.iter().all(|&e| e == ends[0]), "{table}");
        assert!(lines[4].starts_with("Geometric mean of time ratios"));
        assert!(
            table.contains("Rank-sum verdicts, rt against tokio"),
            "{table}"
        );
    }

    #[test]
    fn markdown_ends_with_the_usage_table_and_the_verdicts() {
        let mut r = results();
        r[1].rt_usage.cpu = vec![2_000.0];
        r[1].tokio_usage.cpu = vec![4_000.0];
        let md = markdown_report("runtime", &r, 3, 0, Sides::VERSUS);
        assert!(
            md.contains("| yield_many | multi-2 | 2.0 µs | 4.0 µs | 0.50 |"),
            "{md}"
        );
        let last = md.trim_end().lines().last().unwrap();
        assert!(
            last.starts_with("- rt significantly faster than tokio in CPU"),
            "{md}"
        );
    }

    #[test]
    fn the_summary_counts_ratios_as_the_table_shows_them() {
        let case = |rt: f64| CaseResult {
            rt: vec![rt],
            tokio: vec![1000.0],
            ..CaseResult::empty("x", Flavor::CurrentThread, Unit::Nanos)
        };
        // Shown as 1.00, 1.05, 1.06 and 1.11.
        let r = [case(1004.0), case(1051.0), case(1057.0), case(1109.0)];
        let md = markdown_report("runtime", &r, 1, 0, Sides::VERSUS);
        assert!(
            md.contains("Time ratios rt/tokio above 1.00, 1.05, 1.10: 3, 2, 1 of 4 cases"),
            "{md}"
        );
    }

    #[test]
    fn a_loaded_run_says_so_and_a_quiet_one_does_not() {
        let quiet = markdown_report("runtime", &results(), 3, 0, Sides::VERSUS);
        assert!(!quiet.contains("A loaded run"), "{quiet}");
        let loaded = markdown_report("runtime", &results(), 3, 2, Sides::VERSUS);
        assert!(
            loaded.contains("A loaded run: 2 threads spinning on arithmetic"),
            "{loaded}"
        );
    }

    #[test]
    fn a_control_run_names_its_columns_and_says_what_it_is() {
        let md = markdown_report("runtime", &results(), 3, 0, Sides::CONTROL);
        assert!(md.starts_with("# runtime: tokio-a vs tokio-b\n"), "{md}");
        assert!(md.contains("A control run: both columns ran tokio's code"));
        assert!(md.contains("| workload | flavor | tokio-a | tokio-b | tokio-a/tokio-b |"));
        assert!(md.contains("Geometric mean of time ratios tokio-a/tokio-b: 1.000"));
        assert!(!md.contains("rt/tokio") && !md.contains("| rt "), "{md}");
    }

    #[test]
    fn missing_samples_show_as_dashes() {
        let mut r = results();
        r[0].tokio.clear();
        let md = markdown_report("runtime", &r[..1], 3, 0, Sides::VERSUS);
        assert!(md.contains("| spawn_many_local | current | 2.00 ms | - | - |"));
        assert!(!md.contains("Geometric mean"));
    }
}
