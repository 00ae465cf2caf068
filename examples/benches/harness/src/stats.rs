//! The statistics the reports use: the median of a runtime's samples
//! (robust against the odd descheduled sample on a shared machine), the
//! geometric mean of ratios (the only mean for which rt being twice as fast
//! on one workload and twice as slow on another averages to 1), and the
//! percentile that latency workloads report as their figure.

/// The median of `samples`; the mean of the middle two for an even count.
/// `None` when there are no samples or one of them is NaN.
pub fn median(samples: &[f64]) -> Option<f64> {
    if samples.is_empty() || samples.iter().any(|s| s.is_nan()) {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    Some(if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    })
}

/// The geometric mean of `ratios`. `None` when there are none or one is not
/// a finite positive number (a ratio from a zero measurement).
pub fn geometric_mean(ratios: &[f64]) -> Option<f64> {
    if ratios.is_empty() || ratios.iter().any(|r| !(r.is_finite() && *r > 0.0)) {
        return None;
    }
    let log_sum: f64 = ratios.iter().map(|r| r.ln()).sum();
    Some((log_sum / ratios.len() as f64).exp())
}

/// The `pct`-th percentile of `samples` by the nearest-rank method: the
/// smallest sample that at least `pct` percent of them do not exceed.
/// Sorts `samples`; `None` when there are none or `pct` is not in 1..=100.
pub fn percentile<T: Ord + Copy>(samples: &mut [T], pct: usize) -> Option<T> {
    if samples.is_empty() || !(1..=100).contains(&pct) {
        return None;
    }
    samples.sort_unstable();
    let rank = (samples.len() * pct).div_ceil(100);
    Some(samples[rank - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[7.0]), Some(7.0));
    }

    #[test]
    fn median_rejects_empty_and_nan() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[1.0, f64::NAN]), None);
    }

    #[test]
    fn geometric_mean_balances_reciprocal_ratios() {
        let g = geometric_mean(&[2.0, 0.5]).unwrap();
        assert!((g - 1.0).abs() < 1e-12);
        let g = geometric_mean(&[1.0, 4.0]).unwrap();
        assert!((g - 2.0).abs() < 1e-12);
    }

    #[test]
    fn geometric_mean_rejects_degenerate_ratios() {
        assert_eq!(geometric_mean(&[]), None);
        assert_eq!(geometric_mean(&[1.0, 0.0]), None);
        assert_eq!(geometric_mean(&[f64::INFINITY]), None);
        assert_eq!(geometric_mean(&[-1.0]), None);
    }

    #[test]
    fn percentile_takes_the_nearest_rank() {
        let mut hundred: Vec<u32> = (1..=100).rev().collect();
        assert_eq!(percentile(&mut hundred, 99), Some(99));
        assert_eq!(percentile(&mut hundred, 100), Some(100));
        assert_eq!(percentile(&mut hundred, 1), Some(1));
        let mut three = [30, 10, 20];
        assert_eq!(percentile(&mut three, 99), Some(30));
        assert_eq!(percentile(&mut three, 50), Some(20));
        assert_eq!(percentile(&mut three, 33), Some(10));
    }

    #[test]
    fn percentile_rejects_empty_samples_and_bad_ranks() {
        assert_eq!(percentile::<u32>(&mut [], 99), None);
        assert_eq!(percentile(&mut [1], 0), None);
        assert_eq!(percentile(&mut [1], 101), None);
    }
}
