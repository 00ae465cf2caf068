//! The report's usage table and closing verdicts: each case's CPU time and
//! voluntary context switches per second beside its time, the rank-sum
//! verdict on time and on CPU ([`super::significance`]), and the lists of
//! cases significantly slower and faster than the second column.

use std::fmt::Write;

use super::options::Sides;
use super::runner::CaseResult;
use super::significance::{Verdict, ALPHA};
use super::workload::Unit;

/// A p-value for a cell: three decimals, or the exponent when smaller.
fn p_value(p: f64) -> String {
    if p < 0.001 {
        format!("{p:.0e}")
    } else {
        format!("{p:.3}")
    }
}

/// `word p HL-ratio P(first<second)` for a cell, `-` when untested.
fn verdict_cell(verdict: &Verdict) -> String {
    match verdict.comparison() {
        None => "-".to_string(),
        Some(c) => {
            let ratio = c
                .ratio
                .map_or_else(|| "-".to_string(), |r| format!("{r:.2}"));
            format!(
                "{} (p {}, HL {ratio}, P< {:.2})",
                verdict.word(),
                p_value(c.p),
                c.chance_smaller
            )
        }
    }
}

/// The usage table in markdown, one row per case that measured a region.
pub fn usage_table(results: &[CaseResult], sides: Sides) -> String {
    let (a, b) = (sides.first, sides.second);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "CPU is user plus system time of the whole process over each sample's \
         measured region (`getrusage(RUSAGE_SELF)`; the busy loops' own CPU \
         clocks subtracted), per operation where the workload counts them; \
         vcsw/s is voluntary context switches per second of the region. A \
         verdict is the Mann-Whitney U test of all {a} samples against all \
         {b} samples (two-sided, normal approximation with tie and continuity \
         corrections; `slower` or `faster` when p < {ALPHA}), with the \
         Hodges-Lehmann ratio {a}/{b} (HL) and the chance that a sample of \
         {a} is the smaller (P<).\n"
    );
    let _ = writeln!(
        out,
        "| workload | flavor | {a} CPU | {b} CPU | CPU {ratio} | {a} vcsw/s | {b} vcsw/s \
         | time verdict | CPU verdict |",
        ratio = sides.ratio()
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|---|---|");
    let nanos = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| Unit::Nanos.format(v));
    let rate = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.0}"));
    for r in results
        .iter()
        .filter(|r| !r.rt_usage.cpu.is_empty() || !r.tokio_usage.cpu.is_empty())
    {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.workload,
            r.flavor,
            nanos(r.rt_usage.cpu_median()),
            nanos(r.tokio_usage.cpu_median()),
            r.cpu_ratio()
                .map_or_else(|| "-".to_string(), |x| format!("{x:.2}")),
            rate(r.rt_usage.switches_median()),
            rate(r.tokio_usage.switches_median()),
            verdict_cell(&r.time_verdict()),
            verdict_cell(&r.cpu_verdict()),
        );
    }
    out
}

/// What is tested, and how to get a case's verdict on it.
type Tested = (&'static str, fn(&CaseResult) -> Verdict);

/// The closing summary: which cases the first column is significantly
/// slower and faster in, in time and in CPU, each with its Hodges-Lehmann
/// ratio; in a control run also the share of tests called significant,
/// which is the false-positive rate.
pub fn summary(results: &[CaseResult], sides: Sides) -> Vec<String> {
    let (a, b) = (sides.first, sides.second);
    let kinds: [Tested; 2] = [
        ("time", CaseResult::time_verdict),
        ("CPU", CaseResult::cpu_verdict),
    ];
    let mut lines = vec![format!(
        "Rank-sum verdicts, {a} against {b} (two-sided p < {ALPHA}):"
    )];
    for (word, larger) in [("slower", true), ("faster", false)] {
        for (kind, verdict_of) in kinds {
            let mut tested = 0;
            let mut cases = Vec::new();
            for r in results {
                let verdict = verdict_of(r);
                let hit = match verdict {
                    Verdict::Untested => continue,
                    Verdict::Same(_) => None,
                    Verdict::Larger(c) => larger.then_some(c),
                    Verdict::Smaller(c) => (!larger).then_some(c),
                };
                tested += 1;
                if let Some(c) = hit {
                    let ratio = c.ratio.map_or_else(String::new, |x| format!(" {x:.2}"));
                    cases.push(format!("{}/{}{ratio}", r.workload, r.flavor));
                }
            }
            let list = if cases.is_empty() {
                "none".to_string()
            } else {
                cases.join(", ")
            };
            lines.push(format!(
                "- {a} significantly {word} than {b} in {kind}: {} of {tested} tested cases: {list}",
                cases.len()
            ));
        }
    }
    if sides == Sides::CONTROL {
        for (kind, verdict_of) in kinds {
            let verdicts: Vec<Verdict> = results.iter().map(verdict_of).collect();
            let tested = verdicts.iter().filter(|v| v.comparison().is_some()).count();
            let called = verdicts
                .iter()
                .filter(|v| matches!(v, Verdict::Larger(_) | Verdict::Smaller(_)))
                .count();
            lines.push(format!(
                "- False positives in {kind} (both columns ran tokio): {called} of {tested} \
                 tests (about {:.0} % expected by chance)",
                ALPHA * 100.0
            ));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Flavor;

    fn case(name: &'static str, rt: &[f64], tokio: &[f64], cpu: (&[f64], &[f64])) -> CaseResult {
        let mut r = CaseResult::empty(name, Flavor::MultiThread(2), Unit::Nanos);
        r.rt = rt.to_vec();
        r.tokio = tokio.to_vec();
        r.rt_usage.cpu = cpu.0.to_vec();
        r.tokio_usage.cpu = cpu.1.to_vec();
        r.rt_usage.switches_per_second = vec![10.0, 30.0, 20.0];
        r.tokio_usage.switches_per_second = vec![5.0];
        r
    }

    const LOW: [f64; 6] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    const HIGH: [f64; 6] = [7.0, 8.0, 9.0, 10.0, 11.0, 12.0];
    const MIXED: [f64; 6] = [1.0, 8.0, 3.0, 10.0, 5.0, 12.0];

    #[test]
    fn the_table_shows_usage_and_both_verdicts() {
        let r = [case("stuck", &HIGH, &LOW, (&LOW, &HIGH))];
        let md = usage_table(&r, Sides::VERSUS);
        assert!(md.contains("| workload | flavor | rt CPU | tokio CPU | CPU rt/tokio |"));
        assert!(
            md.contains("| stuck | multi-2 | 4 ns | 10 ns | 0.37 | 20 | 5 | slower (p 0.005, HL 2.71, P< 0.00) | faster (p 0.005, HL 0.37, P< 1.00) |"),
            "{md}"
        );
    }

    #[test]
    fn cases_without_usage_are_left_out_of_the_table() {
        let r = [case("bytes", &LOW, &LOW, (&[], &[]))];
        assert!(!usage_table(&r, Sides::VERSUS).contains("| bytes |"));
    }

    #[test]
    fn the_summary_lists_significant_cases_by_direction() {
        let r = [
            case("slow_time", &HIGH, &LOW, (&MIXED, &LOW)),
            case("fast_cpu", &MIXED, &LOW, (&LOW, &HIGH)),
            case("few", &HIGH[..3], &LOW[..3], (&[], &[])),
        ];
        let lines = summary(&r, Sides::VERSUS);
        assert_eq!(
            lines[0],
            "Rank-sum verdicts, rt against tokio (two-sided p < 0.01):"
        );
        assert_eq!(
            lines[1],
            "- rt significantly slower than tokio in time: 1 of 2 tested cases: slow_time/multi-2 2.71"
        );
        assert_eq!(
            lines[2],
            "- rt significantly slower than tokio in CPU: 0 of 2 tested cases: none"
        );
        assert_eq!(
            lines[3],
            "- rt significantly faster than tokio in time: 0 of 2 tested cases: none"
        );
        assert_eq!(
            lines[4],
            "- rt significantly faster than tokio in CPU: 1 of 2 tested cases: fast_cpu/multi-2 0.37"
        );
        assert_eq!(
            lines.len(),
            5,
            "no false-positive lines outside a control run"
        );
    }

    #[test]
    fn a_control_run_counts_false_positives() {
        let r = [
            case("a", &HIGH, &LOW, (&MIXED, &LOW)),
            case("b", &MIXED, &LOW, (&MIXED, &LOW)),
        ];
        let lines = summary(&r, Sides::CONTROL);
        assert!(lines[1].starts_with("- tokio-a significantly slower than tokio-b in time: 1 of 2"));
        assert_eq!(
            lines[5],
            "- False positives in time (both columns ran tokio): 1 of 2 tests (about 1 % expected by chance)"
        );
        assert_eq!(
            lines[6],
            "- False positives in CPU (both columns ran tokio): 0 of 2 tests (about 1 % expected by chance)"
        );
    }

    #[test]
    fn small_p_values_are_written_with_an_exponent() {
        assert_eq!(p_value(0.0123), "0.012");
        assert_eq!(p_value(0.00004), "4e-5");
    }
}
