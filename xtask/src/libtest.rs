//! Reading libtest's output: the counts on its `test result:` lines.

/// Tests passed, failed and ignored, summed over libtest's `test result:`
/// lines.
pub fn test_counts(stdout: &str) -> (usize, usize, usize) {
    let count = |summary: &str, word: &str| -> usize {
        summary
            .split(';')
            .find_map(|part| part.trim().strip_suffix(word))
            .and_then(|n| n.trim().rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    stdout
        .lines()
        .filter(|line| line.starts_with("test result:"))
        .fold((0, 0, 0), |(p, f, i), line| {
            (
                p + count(line, "passed"),
                f + count(line, "failed"),
                i + count(line, "ignored"),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::test_counts;

    #[test]
    fn counts_are_summed_over_the_result_lines() {
        let out = "test result: ok. 12 passed; 1 failed; 2 ignored; 0 measured; 0 filtered out; finished in 1.00s\n\
                   test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.10s\n";
        assert_eq!(test_counts(out), (15, 1, 3));
        assert_eq!(test_counts("running 0 tests\n"), (0, 0, 0));
    }
}
