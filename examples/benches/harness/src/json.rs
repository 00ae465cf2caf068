//! `results.json`: the run in machine-readable form, every sample of every
//! case with its CPU time and switch rate, the medians, ratios and both
//! rank-sum verdicts, for scripts that compare runs.
//!
//! ```text
//! { "title": ..., "first": "rt", "second": "tokio", "busy_loops": 0,
//!   "cases": [ { "workload": ..., "flavor": ..., "unit": "ns" | "bytes_per_task",
//!                "first": { "time": [...], "cpu_ns": [...], "vcsw_per_s": [...] },
//!                "second": { ... },
//!                "time_ratio": 1.02, "cpu_ratio": 0.97,
//!                "time_verdict": { "verdict": "same", "p": 0.4, "hl_ratio": 1.01,
//!                                  "p_first_smaller": 0.45 } | null,
//!                "cpu_verdict": ... } ] }
//! ```
//!
//! Numbers that are not finite are written as `null`.

use std::fmt::Write;

use super::options::Sides;
use super::runner::{CaseResult, UsageSamples};
use super::significance::Verdict;
use super::workload::Unit;

/// A JSON string literal of `text`.
fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number, or `null` for a missing or non-finite one.
fn number(value: Option<f64>) -> String {
    match value {
        Some(v) if v.is_finite() => format!("{v}"),
        _ => "null".to_string(),
    }
}

fn array(values: &[f64]) -> String {
    let items: Vec<String> = values.iter().map(|&v| number(Some(v))).collect();
    format!("[{}]", items.join(","))
}

fn side(time: &[f64], usage: &UsageSamples) -> String {
    format!(
        "{{\"time\":{},\"cpu_ns\":{},\"vcsw_per_s\":{}}}",
        array(time),
        array(&usage.cpu),
        array(&usage.switches_per_second)
    )
}

fn verdict(verdict: &Verdict) -> String {
    match verdict.comparison() {
        None => "null".to_string(),
        Some(c) => format!(
            "{{\"verdict\":{},\"p\":{},\"hl_ratio\":{},\"p_first_smaller\":{}}}",
            string(verdict.word()),
            number(Some(c.p)),
            number(c.ratio),
            number(Some(c.chance_smaller))
        ),
    }
}

fn case(r: &CaseResult) -> String {
    let unit = match r.unit {
        Unit::Nanos => "ns",
        Unit::BytesPerTask => "bytes_per_task",
    };
    format!(
        "{{\"workload\":{},\"flavor\":{},\"unit\":{},\"first\":{},\"second\":{},\
         \"time_ratio\":{},\"cpu_ratio\":{},\"time_verdict\":{},\"cpu_verdict\":{}}}",
        string(r.workload),
        string(&r.flavor.to_string()),
        string(unit),
        side(&r.rt, &r.rt_usage),
        side(&r.tokio, &r.tokio_usage),
        number(r.ratio()),
        number(r.cpu_ratio()),
        verdict(&r.time_verdict()),
        verdict(&r.cpu_verdict()),
    )
}

/// The whole run as one JSON document.
pub fn results_json(
    title: &str,
    results: &[CaseResult],
    busy_loops: usize,
    sides: Sides,
) -> String {
    let cases: Vec<String> = results.iter().map(case).collect();
    format!(
        "{{\"title\":{},\"first\":{},\"second\":{},\"busy_loops\":{busy_loops},\"cases\":[\n{}\n]}}\n",
        string(title),
        string(sides.first),
        string(sides.second),
        cases.join(",\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Flavor;

    #[test]
    fn strings_and_numbers_are_escaped_and_nulled() {
        assert_eq!(string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
        assert_eq!(number(Some(1.5)), "1.5");
        assert_eq!(number(Some(f64::NAN)), "null");
        assert_eq!(number(None), "null");
    }

    #[test]
    fn a_case_carries_its_samples_usage_and_verdicts() {
        let mut r = CaseResult::empty("stuck_worker", Flavor::MultiThread(2), Unit::Nanos);
        r.rt = vec![2.0, 4.0];
        r.tokio = vec![2.0];
        r.rt_usage.cpu = vec![100.0];
        r.tokio_usage.cpu = vec![50.0];
        let json = results_json("runtime", &[r], 2, Sides::VERSUS);
        assert!(json.starts_with(
            "{\"title\":\"runtime\",\"first\":\"rt\",\"second\":\"tokio\",\"busy_loops\":2,\"cases\":[\n"
        ));
        assert!(
            json.contains(
                "{\"workload\":\"stuck_worker\",\"flavor\":\"multi-2\",\"unit\":\"ns\",\
             \"first\":{\"time\":[2,4],\"cpu_ns\":[100],\"vcsw_per_s\":[]},\
             \"second\":{\"time\":[2],\"cpu_ns\":[50],\"vcsw_per_s\":[]},\
             \"time_ratio\":1.5,\"cpu_ratio\":2,\"time_verdict\":null,\"cpu_verdict\":null}"
            ),
            "{json}"
        );
    }

    #[test]
    fn a_tested_verdict_has_its_figures() {
        let low = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let high = [7.0, 8.0, 9.0, 10.0, 11.0, 12.0];
        let text = verdict(&Verdict::of(&low, &high));
        assert!(
            text.starts_with("{\"verdict\":\"faster\",\"p\":0.005"),
            "{text}"
        );
        assert!(text.ends_with("\"p_first_smaller\":1}"), "{text}");
    }
}
