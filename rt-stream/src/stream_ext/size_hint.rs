//! Arithmetic on `size_hint` pairs shared by the adapters that combine or
//! offset other streams' hints.

/// The hint of two streams read one after the other or side by side.
///
/// The lower bound saturates (an under-estimate is always allowed); the upper
/// bound is known only if both are known and their sum fits.
pub(crate) fn add_hints(
    (low_a, high_a): (usize, Option<usize>),
    (low_b, high_b): (usize, Option<usize>),
) -> (usize, Option<usize>) {
    let low = low_a.saturating_add(low_b);
    let high = match (high_a, high_b) {
        (Some(a), Some(b)) => a.checked_add(b),
        _ => None,
    };
    (low, high)
}

/// The hint of a stream that may drop any of its inner stream's items.
pub(crate) fn at_most((_, high): (usize, Option<usize>)) -> (usize, Option<usize>) {
    (0, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_saturate_low_and_check_high() {
        assert_eq!(add_hints((1, Some(2)), (3, Some(4))), (4, Some(6)));
        assert_eq!(
            add_hints((usize::MAX, None), (1, Some(1))),
            (usize::MAX, None)
        );
        assert_eq!(add_hints((0, Some(usize::MAX)), (0, Some(1))), (0, None));
        assert_eq!(add_hints((0, Some(1)), (0, None)), (0, None));
        assert_eq!(at_most((5, Some(9))), (0, Some(9)));
    }
}
