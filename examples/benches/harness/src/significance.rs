//! Whether two runtimes' samples of one case differ beyond the machine's
//! noise: the Mann-Whitney U (Wilcoxon rank-sum) test, with two effect
//! sizes that say by how much.
//!
//! The test asks whether a sample of one side tends to be larger than a
//! sample of the other, from the ranks of all samples pooled: it assumes no
//! distribution (a shared machine's samples have long right tails) and one
//! descheduled sample moves a rank, not a mean. The p-value is two-sided,
//! from the normal approximation with the tie correction of the variance
//! and a continuity correction of 0.5; a case is called different when
//! p < [`ALPHA`]. Since every case of a run is tested, about one case in a
//! hundred of a control run (tokio against itself) is called different by
//! chance: that is the rate a control run lets one read off.
//!
//! The effect sizes: the Hodges-Lehmann estimate of the ratio (the median
//! of all pairwise ratios first/second, a ratio of medians that one odd
//! sample does not move) and the common-language effect size (the chance
//! that a sample of the first side is smaller than one of the second, ties
//! counting half; 0.5 is no difference).

/// The two-sided p-value below which two sides are called different.
pub const ALPHA: f64 = 0.01;

/// Fewest samples per side for a verdict: with fewer, even complete
/// separation cannot reach p < [`ALPHA`] under the normal approximation
/// (five against five gives p = 0.012 at best).
pub const MIN_SAMPLES: usize = 6;

/// Most pairs the Hodges-Lehmann estimate sorts; beyond, the ratio of the
/// medians stands in (the two agree closely at such sample counts).
const MAX_PAIRS: usize = 1 << 20;

/// The rank-sum test of the first side's samples against the second's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankSum {
    /// U of the first side: the pairs in which its sample is the larger,
    /// ties counting half.
    pub u: f64,
    /// The standardised statistic; positive when the first side's samples
    /// tend to be larger.
    pub z: f64,
    /// The two-sided p-value.
    pub p: f64,
}

/// The rank-sum test of `first` against `second`. `None` when a side is
/// empty, a sample is NaN, or every sample is equal (no variance to
/// standardise by).
pub fn rank_sum(first: &[f64], second: &[f64]) -> Option<RankSum> {
    let (n1, n2) = (first.len(), second.len());
    if n1 == 0 || n2 == 0 || first.iter().chain(second).any(|s| s.is_nan()) {
        return None;
    }
    // Pool the samples, remembering which side each came from, and give
    // each run of equal values the mean of the ranks it spans.
    let mut pooled: Vec<(f64, bool)> = first
        .iter()
        .map(|&s| (s, true))
        .chain(second.iter().map(|&s| (s, false)))
        .collect();
    pooled.sort_by(|a, b| a.0.total_cmp(&b.0));
    let n = pooled.len();
    let (mut first_rank_sum, mut ties) = (0.0, 0.0);
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        while end < n && pooled[end].0 == pooled[start].0 {
            end += 1;
        }
        // Ranks are 1-based: the run covers ranks start+1 ..= end.
        let rank = (start + 1 + end) as f64 / 2.0;
        let from_first = pooled[start..end].iter().filter(|s| s.1).count();
        first_rank_sum += rank * from_first as f64;
        let t = (end - start) as f64;
        ties += t * t * t - t;
        start = end;
    }
    let (n1f, n2f, nf) = (n1 as f64, n2 as f64, n as f64);
    let u = first_rank_sum - n1f * (n1f + 1.0) / 2.0;
    let mean = n1f * n2f / 2.0;
    let variance = n1f * n2f / 12.0 * ((nf + 1.0) - ties / (nf * (nf - 1.0)));
    if variance <= 0.0 || !variance.is_finite() {
        return None;
    }
    let distance = u - mean;
    let corrected = distance - 0.5 * distance.signum() * f64::from(distance != 0.0);
    let z = corrected / variance.sqrt();
    let p = erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0);
    Some(RankSum { u, z, p })
}

/// The Hodges-Lehmann estimate of the ratio first/second: the median of
/// the ratios of all pairs. `None` when a side is empty or a sample is not
/// a finite positive number.
pub fn hodges_lehmann_ratio(first: &[f64], second: &[f64]) -> Option<f64> {
    let positive = |s: &f64| s.is_finite() && *s > 0.0;
    if first.is_empty() || second.is_empty() || !first.iter().chain(second).all(positive) {
        return None;
    }
    if first.len() * second.len() > MAX_PAIRS {
        return Some(super::stats::median(first)? / super::stats::median(second)?);
    }
    let logs: Vec<f64> = first
        .iter()
        .flat_map(|a| second.iter().map(move |b| (a / b).ln()))
        .collect();
    Some(super::stats::median(&logs)?.exp())
}

/// The common-language effect size: the chance that a sample of `first`
/// is smaller than one of `second`, ties counting half. From a test's U:
/// `1 - U / (n1 n2)`.
pub fn chance_first_smaller(test: &RankSum, first: usize, second: usize) -> f64 {
    1.0 - test.u / (first * second) as f64
}

/// What the samples say about the first side against the second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// Too few samples, or none that differ, to test.
    Untested,
    /// p >= [`ALPHA`]: no difference the test can tell from noise.
    Same(Comparison),
    /// The first side's samples are significantly larger (slower, more CPU).
    Larger(Comparison),
    /// The first side's samples are significantly smaller.
    Smaller(Comparison),
}

/// The figures behind a tested verdict.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// The two-sided p-value.
    pub p: f64,
    /// The Hodges-Lehmann ratio first/second, when every sample is
    /// positive.
    pub ratio: Option<f64>,
    /// The chance that a sample of the first side is the smaller.
    pub chance_smaller: f64,
}

impl Verdict {
    /// The verdict on `first` against `second`.
    pub fn of(first: &[f64], second: &[f64]) -> Verdict {
        if first.len() < MIN_SAMPLES || second.len() < MIN_SAMPLES {
            return Verdict::Untested;
        }
        let Some(test) = rank_sum(first, second) else {
            return Verdict::Untested;
        };
        let comparison = Comparison {
            p: test.p,
            ratio: hodges_lehmann_ratio(first, second),
            chance_smaller: chance_first_smaller(&test, first.len(), second.len()),
        };
        match (test.p < ALPHA, test.z > 0.0) {
            (false, _) => Verdict::Same(comparison),
            (true, true) => Verdict::Larger(comparison),
            (true, false) => Verdict::Smaller(comparison),
        }
    }

    /// The figures, for a tested verdict.
    pub fn comparison(&self) -> Option<&Comparison> {
        match self {
            Verdict::Untested => None,
            Verdict::Same(c) | Verdict::Larger(c) | Verdict::Smaller(c) => Some(c),
        }
    }

    /// One word for a table cell: `slower`/`faster` read for times and CPU
    /// alike (more CPU is slower).
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Untested => "untested",
            Verdict::Same(_) => "same",
            Verdict::Larger(_) => "slower",
            Verdict::Smaller(_) => "faster",
        }
    }
}

/// The complementary error function, by the rational Chebyshev
/// approximation of Numerical Recipes (`erfcc`): fractional error below
/// 1.2e-7 everywhere, far finer than a significance threshold needs.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let tail = t * poly.exp();
    if x >= 0.0 {
        tail
    } else {
        2.0 - tail
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance * b.abs().max(1e-300)
    }

    #[test]
    fn erfc_matches_known_values() {
        assert!(close(erfc(0.0), 1.0, 1e-7));
        // erfc(1/sqrt 2) = P(|Z| > 1) = 0.3173105078629141.
        assert!(close(
            erfc(1.0 / 2f64.sqrt()),
            0.317_310_507_862_914_1,
            1e-6
        ));
        // P(|Z| > 2.5758293035489) = 0.01, the two-sided 1 % point.
        assert!(close(erfc(2.575_829_303_548_9 / 2f64.sqrt()), 0.01, 1e-6));
        assert!(close(erfc(-1.0), 2.0 - 0.157_299_207_050_285_1, 1e-7));
    }

    #[test]
    fn complete_separation_of_five_and_five() {
        // Ranks 1..=5 against 6..=10: U = 0, z = -12/sqrt(275/12) with the
        // continuity correction, p = 0.0121858 (the same as
        // `scipy.stats.mannwhitneyu(a, b, method="asymptotic")`).
        let test = rank_sum(&[1.0, 2.0, 3.0, 4.0, 5.0], &[6.0, 7.0, 8.0, 9.0, 10.0]).unwrap();
        assert_eq!(test.u, 0.0);
        assert!(close(test.z, -2.506_718_245_762_049, 1e-9), "{test:?}");
        assert!(close(test.p, 0.012_185_780_355_344_818, 1e-6), "{test:?}");
        // Swapping the sides mirrors U and z and keeps p.
        let swapped = rank_sum(&[6.0, 7.0, 8.0, 9.0, 10.0], &[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!(swapped.u, 25.0);
        assert!(close(swapped.z, 2.506_718_245_762_049, 1e-9));
        assert!(close(swapped.p, test.p, 1e-12));
    }

    #[test]
    fn ties_share_their_ranks_and_shrink_the_variance() {
        let a = [1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 5.0, 6.0];
        let b = [3.0, 5.0, 6.0, 7.0, 7.0, 8.0, 9.0];
        let test = rank_sum(&a, &b).unwrap();
        // Ranks of `a`: 1, 2.5, 2.5, 4.5, 6, 8, 8, 10.5 = 43; U = 43 - 36.
        assert_eq!(test.u, 7.0);
        // Tie groups of 2, 2, 3, 2, 2: sum(t^3 - t) = 6+6+24+6+6 = 48.
        assert!(close(test.z, -2.389_543_571_115_804, 1e-9), "{test:?}");
        assert!(close(test.p, 0.016_869_322_764_152_456, 1e-6), "{test:?}");
        assert!(close(
            chance_first_smaller(&test, 8, 7),
            1.0 - 7.0 / 56.0,
            1e-12
        ));
    }

    #[test]
    fn identical_samples_are_no_difference() {
        let test = rank_sum(&[1.1, 2.2, 3.3], &[1.1, 2.2, 3.3]).unwrap();
        assert_eq!(test.u, 4.5);
        assert_eq!(test.z, 0.0);
        assert_eq!(test.p, 1.0);
        // All equal: no variance, no test.
        assert_eq!(rank_sum(&[2.0; 6], &[2.0; 6]), None);
        assert_eq!(rank_sum(&[], &[1.0]), None);
        assert_eq!(rank_sum(&[f64::NAN], &[1.0]), None);
    }

    #[test]
    fn hodges_lehmann_is_the_median_pairwise_ratio() {
        let a = [1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 5.0, 6.0];
        let b = [3.0, 5.0, 6.0, 7.0, 7.0, 8.0, 9.0];
        let ratio = hodges_lehmann_ratio(&a, &b).unwrap();
        assert!(close(ratio, 0.563_436_169_819_011, 1e-9), "{ratio}");
        let doubled: Vec<f64> = b.iter().map(|x| 2.0 * x).collect();
        assert!(close(
            hodges_lehmann_ratio(&doubled, &b).unwrap(),
            2.0,
            1e-12
        ));
        assert_eq!(hodges_lehmann_ratio(&[1.0, 0.0], &b), None);
        assert_eq!(hodges_lehmann_ratio(&[], &b), None);
    }

    #[test]
    fn verdicts_need_samples_and_a_small_p() {
        let low = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let high = [7.0, 8.0, 9.0, 10.0, 11.0, 12.0];
        assert_eq!(Verdict::of(&low[..5], &high[..5]), Verdict::Untested);
        let faster = Verdict::of(&low, &high);
        assert_eq!(faster.word(), "faster");
        let c = faster.comparison().unwrap();
        assert!(c.p < ALPHA && c.chance_smaller == 1.0);
        assert_eq!(Verdict::of(&high, &low).word(), "slower");
        let mixed = [1.0, 8.0, 3.0, 10.0, 5.0, 12.0];
        let same = Verdict::of(&mixed, &[7.0, 2.0, 9.0, 4.0, 11.0, 6.0]);
        assert_eq!(same.word(), "same");
        assert!(same.comparison().unwrap().p > ALPHA);
    }
}
