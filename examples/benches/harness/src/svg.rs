//! The ratio chart, written as plain SVG text.
//!
//! One horizontal bar per case, on a logarithmic axis centred on 1 so that
//! "twice as fast" and "twice as slow" are bars of the same length: bars to
//! the left (green) are cases where rt is faster, bars to the right (red)
//! where tokio is (in a control run, the first or the second tokio). Grid lines sit on powers of two. A case with instruction
//! counts gets a second, paler bar under its time bar: the instruction
//! ratio, which the machine's load does not move.

use std::fmt::Write;

use super::options::Sides;
use super::runner::CaseResult;

const LABEL_WIDTH: f64 = 250.0;
const PLOT_WIDTH: f64 = 480.0;
const RIGHT_MARGIN: f64 = 50.0;
const ROW_HEIGHT: f64 = 20.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 40.0;

/// Escapes the characters that would end an SVG text node or attribute.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The smallest power of two, at least 2, that bounds every ratio and its
/// reciprocal: the axis runs from its reciprocal to it.
fn axis_limit(ratios: &[f64]) -> f64 {
    let widest = ratios
        .iter()
        .map(|r| r.max(1.0 / r))
        .fold(2.0_f64, f64::max);
    2.0_f64.powi(widest.log2().ceil() as i32)
}

/// An SVG document with one bar per case that has a ratio, the title
/// naming the two columns after `sides`.
pub fn ratio_chart(title: &str, results: &[CaseResult], sides: Sides) -> String {
    let usable = |x: &f64| x.is_finite() && *x > 0.0;
    let bars: Vec<(String, f64, Option<f64>)> = results
        .iter()
        .filter_map(|r| {
            let ratio = r.ratio().filter(usable)?;
            let instructions = r.instruction_ratio().filter(usable);
            Some((format!("{}/{}", r.workload, r.flavor), ratio, instructions))
        })
        .collect();
    let ratios: Vec<f64> = bars
        .iter()
        .flat_map(|(_, r, i)| std::iter::once(*r).chain(*i))
        .collect();
    let limit = axis_limit(&ratios);
    let span = 2.0 * limit.log2();
    let x_of = |ratio: f64| {
        let clamped = ratio.clamp(1.0 / limit, limit);
        LABEL_WIDTH + (clamped.log2() + limit.log2()) / span * PLOT_WIDTH
    };
    let width = LABEL_WIDTH + PLOT_WIDTH + RIGHT_MARGIN;
    let plot_bottom = TOP + ROW_HEIGHT * bars.len() as f64;
    let height = plot_bottom + BOTTOM;

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        svg,
        r#"<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="20" font-size="15" text-anchor="middle">{}: {a} / {b} (median time or bytes; pale: instructions; left of 1 = {a} better)</text>"#,
        width / 2.0,
        escape(title),
        a = sides.first,
        b = sides.second,
    );
    // Grid lines on powers of two, labelled below the plot.
    let mut power = 1.0 / limit;
    while power <= limit * 1.0001 {
        let x = x_of(power);
        let stroke = if (power - 1.0).abs() < 1e-9 {
            r##"stroke="#000" stroke-width="1.5""##
        } else {
            r##"stroke="#ccc" stroke-width="1""##
        };
        let _ = writeln!(
            svg,
            r#"<line x1="{x:.1}" y1="{}" x2="{x:.1}" y2="{plot_bottom}" {stroke}/>"#,
            TOP - 6.0
        );
        let label = if power >= 1.0 {
            format!("{power}")
        } else {
            format!("1/{}", 1.0 / power)
        };
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{}" text-anchor="middle">{label}</text>"#,
            plot_bottom + 16.0
        );
        power *= 2.0;
    }
    for (row, (label, ratio, instructions)) in bars.iter().enumerate() {
        let y = TOP + ROW_HEIGHT * row as f64;
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#,
            LABEL_WIDTH - 8.0,
            y + 14.0,
            escape(label)
        );
        // With an instruction ratio the row is split: time above, pale
        // instruction bar below.
        let (time_top, time_height) = match instructions {
            Some(_) => (y + 2.0, 9.0),
            None => (y + 3.0, ROW_HEIGHT - 6.0),
        };
        let colours = ["#2a9d3f", "#c8372d"];
        bar(&mut svg, &x_of, *ratio, time_top, time_height, colours, "");
        if let Some(instructions) = instructions {
            let colours = ["#96d3a3", "#eba39c"];
            bar(&mut svg, &x_of, *instructions, y + 12.0, 6.0, colours, "i ");
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// One bar from 1 to `ratio`, `colours` = [rt better, tokio better], with
/// its value (after `prefix`) written beyond its end.
fn bar(
    svg: &mut String,
    x_of: &dyn Fn(f64) -> f64,
    ratio: f64,
    top: f64,
    height: f64,
    colours: [&str; 2],
    prefix: &str,
) {
    let (one, end) = (x_of(1.0), x_of(ratio));
    let (x, bar_width) = (one.min(end), (end - one).abs().max(1.0));
    let colour = if ratio <= 1.0 { colours[0] } else { colours[1] };
    let _ = writeln!(
        svg,
        r#"<rect x="{x:.1}" y="{top:.1}" width="{bar_width:.1}" height="{height:.1}" fill="{colour}"/>"#
    );
    let (text_x, anchor) = if ratio <= 1.0 {
        (x - 4.0, "end")
    } else {
        (x + bar_width + 4.0, "start")
    };
    let _ = writeln!(
        svg,
        r#"<text x="{text_x:.1}" y="{:.1}" text-anchor="{anchor}" font-size="{}">{prefix}{ratio:.2}</text>"#,
        top + height - 1.0,
        if prefix.is_empty() { 11 } else { 8 },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Flavor, Unit};

    fn case(name: &'static str, rt: f64, tokio: f64) -> CaseResult {
        CaseResult {
            rt: vec![rt],
            tokio: vec![tokio],
            ..CaseResult::empty(name, Flavor::MultiThread(2), Unit::Nanos)
        }
    }

    #[test]
    fn instruction_ratios_get_a_pale_bar() {
        use crate::instructions::{Count, Instructions};
        let mut c = case("counted", 1.0, 2.0);
        c.instructions = Some(Instructions {
            rt: Count::Region(103),
            tokio: Count::Region(100),
        });
        let svg = ratio_chart("runtime", &[c], Sides::VERSUS);
        assert_eq!(svg.matches("fill=\"#2a9d3f\"").count(), 1);
        assert_eq!(svg.matches("fill=\"#eba39c\"").count(), 1);
        assert!(svg.contains(">i 1.03</text>"), "{svg}");
    }

    #[test]
    fn one_bar_per_ratio_coloured_by_winner() {
        let svg = ratio_chart(
            "runtime",
            &[case("fast", 1.0, 2.0), case("slow", 3.0, 1.0)],
            Sides::CONTROL,
        );
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("runtime: tokio-a / tokio-b ("), "{svg}");
        assert_eq!(svg.matches("fill=\"#2a9d3f\"").count(), 1);
        assert_eq!(svg.matches("fill=\"#c8372d\"").count(), 1);
        assert!(svg.contains(">fast/multi-2</text>"));
        assert!(svg.contains(">0.50</text>"));
        assert!(svg.contains(">3.00</text>"));
        // 3.0 needs an axis out to 4 and in to 1/4.
        assert!(svg.contains(">4</text>") && svg.contains(">1/4</text>"));
    }

    #[test]
    fn cases_without_a_ratio_are_left_out_and_text_is_escaped() {
        let svg = ratio_chart("a<b&c", &[case("none", 1.0, 0.0)], Sides::VERSUS);
        assert!(!svg.contains("none/"));
        assert!(svg.contains("a&lt;b&amp;c"));
        assert_eq!(svg.matches("<rect").count(), 1, "only the background");
    }

    #[test]
    fn axis_is_a_power_of_two_at_least_two() {
        assert_eq!(axis_limit(&[]), 2.0);
        assert_eq!(axis_limit(&[1.1, 0.9]), 2.0);
        assert_eq!(axis_limit(&[0.2]), 8.0);
        assert_eq!(axis_limit(&[2.0]), 2.0);
    }
}
