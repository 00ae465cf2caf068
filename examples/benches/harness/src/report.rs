//! The tables: a padded one for the terminal and a markdown one for
//! `report.md`, each closed by the geometric mean of the ratios.
//!
//! Time ratios and memory ratios are summarised separately: they answer
//! different questions, and a byte count should not move the speed verdict.

use std::fmt::Write;

use super::runner::CaseResult;
use super::stats::{geometric_mean, median};
use super::workload::Unit;

/// The columns every table has.
const HEADER: [&str; 7] = [
    "workload",
    "flavor",
    "rt",
    "tokio",
    "rt/tokio",
    "rt min / median / max",
    "tokio min / median / max",
];

/// The columns added when any case has instruction counts.
const INSTRUCTION_HEADER: [&str; 3] = ["rt instr", "tokio instr", "instr rt/tokio"];

/// Whether the tables get the instruction columns.
fn with_instructions(results: &[CaseResult]) -> bool {
    results.iter().any(|r| r.instructions.is_some())
}

/// The header cells of a table over `results`.
fn header(results: &[CaseResult]) -> Vec<String> {
    let mut header: Vec<String> = HEADER.iter().map(|h| h.to_string()).collect();
    if with_instructions(results) {
        header.extend(INSTRUCTION_HEADER.iter().map(|h| h.to_string()));
    }
    header
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

/// The summary lines: geometric mean of the time ratios, then of the memory
/// ratios when there are any.
fn summary(results: &[CaseResult]) -> Vec<String> {
    let mut lines = Vec::new();
    for (unit, what) in [(Unit::Nanos, "time"), (Unit::BytesPerTask, "memory")] {
        let ratios: Vec<f64> = results
            .iter()
            .filter(|r| r.unit == unit)
            .filter_map(CaseResult::ratio)
            .collect();
        if let Some(mean) = geometric_mean(&ratios) {
            lines.push(format!(
                "Geometric mean of {what} ratios rt/tokio: {mean:.3} ({} cases)",
                ratios.len()
            ));
        }
    }
    let ratios: Vec<f64> = results
        .iter()
        .filter_map(CaseResult::instruction_ratio)
        .collect();
    if let Some(mean) = geometric_mean(&ratios) {
        lines.push(format!(
            "Geometric mean of instruction ratios rt/tokio: {mean:.3} ({} cases)",
            ratios.len()
        ));
    }
    lines
}

/// The results as a column-aligned text table followed by the summary.
pub fn console_table(results: &[CaseResult]) -> String {
    let instructions = with_instructions(results);
    let header = header(results);
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
    for line in summary(results) {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// The results as a markdown document: what was measured and how, the
/// table, and the summary.
pub fn markdown_report(title: &str, results: &[CaseResult], samples: usize) -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mut out = String::new();
    let _ = writeln!(out, "# {title}: rt vs tokio\n");
    let _ = writeln!(
        out,
        "Medians of {samples} samples per runtime (byte counts: at most 3), rt and \
         tokio alternating in one process on a machine with {cores} cores. \
         rt/tokio below 1 means rt is faster (or uses less memory).\n"
    );
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
    let header = header(results);
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let align: Vec<&str> = (0..header.len())
        .map(|i| if i < 2 { "---" } else { "---:" })
        .collect();
    let _ = writeln!(out, "|{}|", align.join("|"));
    for row in results.iter().map(|r| cells(r, instructions)) {
        let _ = writeln!(out, "| {} |", row.join(" | "));
    }
    out.push('\n');
    for line in summary(results) {
        let _ = writeln!(out, "{line}\n");
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
                workload: "spawn_many_local",
                flavor: Flavor::CurrentThread,
                unit: Unit::Nanos,
                rt: vec![1_000_000.0, 3_000_000.0, 2_000_000.0],
                tokio: vec![1_000_000.0; 3],
                instructions: None,
            },
            CaseResult {
                workload: "yield_many",
                flavor: Flavor::MultiThread(2),
                unit: Unit::Nanos,
                rt: vec![500_000.0],
                tokio: vec![1_000_000.0],
                instructions: None,
            },
            CaseResult {
                workload: "idle_task_memory",
                flavor: Flavor::CurrentThread,
                unit: Unit::BytesPerTask,
                rt: vec![256.0],
                tokio: vec![320.0],
                instructions: None,
            },
        ]
    }

    #[test]
    fn markdown_has_a_row_per_case_and_the_geometric_means() {
        let md = markdown_report("runtime", &results(), 3);
        assert!(md.starts_with("# runtime: rt vs tokio\n"));
        assert!(md.contains(
            "| spawn_many_local | current | 2.00 ms | 1.00 ms | 2.00 \
             | 1.00 ms / 2.00 ms / 3.00 ms | 1.00 ms / 1.00 ms / 1.00 ms |"
        ));
        assert!(md.contains("| yield_many | multi-2 | 500.0 µs | 1.00 ms | 0.50 | - | - |"));
        assert!(md.contains("| idle_task_memory | current | 256 B/task | 320 B/task | 0.80 |"));
        assert!(md.contains("Geometric mean of time ratios rt/tokio: 1.000 (2 cases)"));
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
        let md = markdown_report("runtime", &r, 3);
        assert!(
            md.contains("| rt instr | tokio instr | instr rt/tokio |"),
            "{md}"
        );
        assert!(md.contains("| 110.00M | 100.00M | 1.100 |"), "{md}");
        assert!(md.contains("| valgrind not found on PATH | valgrind not found on PATH | - |"));
        assert!(md.contains("Geometric mean of instruction ratios rt/tokio: 1.100 (1 cases)"));
        let table = console_table(&r);
        assert!(table.contains("instr rt/tokio"));
    }

    #[test]
    fn console_table_aligns_columns() {
        let table = console_table(&results());
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[0].starts_with("workload          flavor"));
        // Every table line ends in the ratio column, right-aligned.
        let ends: Vec<usize> = lines[..4].iter().map(|l| l.chars().count()).collect();
        assert!(ends.iter().all(|&e| e == ends[0]), "{table}");
        assert!(lines[4].starts_with("Geometric mean of time ratios"));
    }

    #[test]
    fn missing_samples_show_as_dashes() {
        let mut r = results();
        r[0].tokio.clear();
        let md = markdown_report("runtime", &r[..1], 3);
        assert!(md.contains("| spawn_many_local | current | 2.00 ms | - | - |"));
        assert!(!md.contains("Geometric mean"));
    }
}
