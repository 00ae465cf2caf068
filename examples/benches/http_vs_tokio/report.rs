//! The result table of `http_vs_tokio`: each side's median requests per
//! second per flavor and the ratio tokio/rt, as Markdown for the terminal
//! and for `target/bench/http_vs_tokio.md`.

use std::fmt::Write;

use examples::bench::{median, Flavor};

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
    /// tokio's median rate over rt's: below 1 means rt served more requests
    /// per second, matching the runtime suite's rt/tokio time ratios.
    pub fn ratio(&self) -> Option<f64> {
        let (rt, tokio) = (median(&self.rt)?, median(&self.tokio)?);
        (rt > 0.0).then(|| tokio / rt)
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
    out.push_str("\nMedians over the rounds; tokio/rt below 1 means rt is faster.\n");
    out
}
