//! The result table of `http_vs_tokio`: each side's median requests per
//! second per flavor and the median of the rounds' tokio/rt ratios, as
//! Markdown for the terminal and for `target/bench/http_vs_tokio.md`.

use std::fmt::Write;

use bench_harness::{median, Flavor};

/// Every wrk figure one flavor produced, in run order.
#[derive(Clone, Debug, PartialEq)]
pub struct FlavorResult {
    /// The runtime configuration both servers ran on.
    pub flavor: Flavor,
    /// rt's requests per second, one per round.
    pub rt: Vec<f64>,
    /// tokio's requests per second, one per round.
    pub tokio: Vec<f64>,
}

impl FlavorResult {
    /// tokio's rate over rt's, round by round, and the median of those:
    /// below 1 means rt served more requests per second, matching the
    /// runtime suite's rt/tokio time ratios. Pairing the two runs of a
    /// round, which ran back to back, cancels the drift of a shared
    /// machine's load better than a ratio of medians would.
    pub fn ratio(&self) -> Option<f64> {
        if self.rt.len() != self.tokio.len() || self.rt.iter().any(|&rt| rt <= 0.0) {
            return None;
        }
        let ratios: Vec<f64> = self
            .tokio
            .iter()
            .zip(&self.rt)
            .map(|(tokio, rt)| tokio / rt)
            .collect();
        median(&ratios)
    }
}

/// A Markdown section headed `title` with one row per flavor.
pub fn markdown(title: &str, results: &[FlavorResult]) -> String {
    let mut out = format!(
        "## {title}\n\n| flavor | rt req/s | tokio req/s | tokio/rt |\n|---|---:|---:|---:|\n"
    );
    for result in results {
        let cell = |samples: &[f64]| median(samples).map_or("-".to_owned(), |m| format!("{m:.0}"));
        let ratio = result.ratio().map_or("-".to_owned(), |r| format!("{r:.2}"));
        // Writing into a String cannot fail.
        let _ = writeln!(
            out,
            "| {} | {} | {} | {ratio} |",
            result.flavor,
            cell(&result.rt),
            cell(&result.tokio)
        );
    }
    out.push_str("\nreq/s: medians over the rounds. tokio/rt: the median of each round's ratio; below 1 means rt is faster.\n");
    out
}
