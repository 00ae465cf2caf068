//! The tables: a padded one for the terminal and a markdown one for
//! `report.md`, each closed by the geometric mean of the ratios.
//!
//! Time ratios and memory ratios are summarised separately: they answer
//! different questions, and a byte count should not move the speed verdict.

use std::fmt::Write;

use super::runner::CaseResult;
use super::stats::geometric_mean;
use super::workload::Unit;

const HEADER: [&str; 5] = ["workload", "flavor", "rt", "tokio", "rt/tokio"];

/// One table row as text cells, in [`HEADER`] order.
fn cells(result: &CaseResult) -> [String; 5] {
    let value = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| result.unit.format(v));
    [
        result.workload.to_string(),
        result.flavor.to_string(),
        value(result.rt_median()),
        value(result.tokio_median()),
        result
            .ratio()
            .map_or_else(|| "-".to_string(), |r| format!("{r:.2}")),
    ]
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
    lines
}

/// The results as a column-aligned text table followed by the summary.
pub fn console_table(results: &[CaseResult]) -> String {
    let rows: Vec<[String; 5]> = results.iter().map(cells).collect();
    let mut widths = HEADER.map(|h| h.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let header = HEADER.map(str::to_string);
    for row in std::iter::once(&header).chain(&rows) {
        for (i, (cell, width)) in row.iter().zip(widths).enumerate() {
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
    let _ = writeln!(out, "| {} |", HEADER.join(" | "));
    let _ = writeln!(out, "|---|---|---:|---:|---:|");
    for row in results.iter().map(cells) {
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
            },
            CaseResult {
                workload: "yield_many",
                flavor: Flavor::MultiThread(2),
                unit: Unit::Nanos,
                rt: vec![500_000.0],
                tokio: vec![1_000_000.0],
            },
            CaseResult {
                workload: "idle_task_memory",
                flavor: Flavor::CurrentThread,
                unit: Unit::BytesPerTask,
                rt: vec![256.0],
                tokio: vec![320.0],
            },
        ]
    }

    #[test]
    fn markdown_has_a_row_per_case_and_the_geometric_means() {
        let md = markdown_report("runtime", &results(), 3);
        assert!(md.starts_with("# runtime: rt vs tokio\n"));
        assert!(md.contains("| spawn_many_local | current | 2.00 ms | 1.00 ms | 2.00 |"));
        assert!(md.contains("| yield_many | multi-2 | 500.0 µs | 1.00 ms | 0.50 |"));
        assert!(md.contains("| idle_task_memory | current | 256 B/task | 320 B/task | 0.80 |"));
        assert!(md.contains("Geometric mean of time ratios rt/tokio: 1.000 (2 cases)"));
        assert!(md.contains("Geometric mean of memory ratios rt/tokio: 0.800 (1 cases)"));
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
