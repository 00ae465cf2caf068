//! Finding one byte in a buffer, for `LinesCodec`, and learning on the
//! way whether the bytes before it are ASCII.
//!
//! A byte-by-byte `position` runs at about one byte per cycle. On x86_64
//! the search compares thirty-two bytes per instruction with AVX2 where the
//! processor has it (asked once at run time; std caches the answer), and
//! sixteen with SSE2 (part of the x86_64 baseline, so always there)
//! otherwise and for buffers shorter than 32 bytes. Elsewhere it compares
//! eight bytes per step with the classic "has a zero byte" bit trick. None
//! needs a `memchr` dependency.
//!
//! The vector searches also OR together every block they load: a top bit
//! left set means a byte at or above 0x80. A line found to be all ASCII is
//! valid UTF-8 without the second pass over it that `str::from_utf8`
//! would make, which for short lines costs more than the search itself.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod sse2;
mod swar;

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Search {
    /// The index of the first needle, if there is one.
    pub(crate) at: Option<usize>,
    /// Whether every byte before `at` (every byte, when there is no
    /// needle) is ASCII, that is below 0x80.
    pub(crate) ascii: bool,
}

impl Search {
    /// The word-at-a-time search, with the ASCII check as a second pass:
    /// it serves short buffers and targets without a vector search.
    fn scalar(needle: u8, haystack: &[u8]) -> Search {
        let at = swar::find_byte(needle, haystack);
        let before = &haystack[..at.unwrap_or(haystack.len())];
        Search {
            at,
            ascii: before.is_ascii(),
        }
    }

    /// A needle found in the block of up to 64 bytes that starts at
    /// `offset`: bit `i` of `matches` (not zero) is set where byte
    /// `offset + i` is the needle, bit `i` of `high` where that byte is not
    /// ASCII, and `earlier_ascii` says whether every byte before the block
    /// is ASCII. Only the vector searches find blocks.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn in_block(offset: usize, matches: u64, high: u64, earlier_ascii: bool) -> Search {
        let first = matches.trailing_zeros();
        // `matches` is not zero, so `first < 64` and the shift is defined.
        let before = (1u64 << first) - 1;
        Search {
            at: Some(offset + first as usize),
            ascii: earlier_ascii && high & before == 0,
        }
    }
}

/// Searches `haystack` for the first `needle`.
#[inline]
pub(crate) fn find_byte(needle: u8, haystack: &[u8]) -> Search {
    #[cfg(target_arch = "x86_64")]
    {
        if haystack.len() >= avx2::LANES && std::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            return unsafe { avx2::find_byte(needle, haystack) };
        }
        sse2::find_byte(needle, haystack)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Search::scalar(needle, haystack)
    }
}

#[cfg(test)]
mod tests {
    use super::{find_byte, Search};

    /// One way to search: the first needle in the haystack.
    type Searcher = fn(u8, &[u8]) -> Search;

    /// Each search under test, with a name for failure messages.
    fn searches() -> Vec<(&'static str, Searcher)> {
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut all: Vec<(&'static str, Searcher)> =
            vec![("find_byte", find_byte), ("scalar", Search::scalar)];
        #[cfg(target_arch = "x86_64")]
        {
            all.push(("sse2", super::sse2::find_byte));
            if std::is_x86_feature_detected!("avx2") {
                all.push(("avx2", avx2_search));
            }
        }
        all
    }

    /// The AVX2 search as a plain `fn`, only listed where AVX2 exists.
    #[cfg(target_arch = "x86_64")]
    fn avx2_search(needle: u8, haystack: &[u8]) -> Search {
        assert!(std::is_x86_feature_detected!("avx2"));
        // SAFETY: the processor has AVX2, asserted just above.
        unsafe { super::avx2::find_byte(needle, haystack) }
    }

    /// A small deterministic generator (xorshift64*), so the random inputs
    /// are the same on every run.
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        /// A byte that is never `\n`, so only the planted needle matches.
        fn byte_but_newline(&mut self) -> u8 {
            match self.next() as u8 {
                b'\n' => b'\n' ^ 1,
                byte => byte,
            }
        }
    }

    /// Random bytes of every length 0..=200, at every start offset modulo
    /// 64, with no newline and with one newline at every position (and a
    /// second one after it that must not win): every vector path against
    /// the scalar search.
    #[test]
    fn vector_searches_agree_with_scalar_on_random_inputs() {
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        let mut backing = vec![0u8; 64 + 200];
        for len in 0..=200 {
            let offset = (random.next() % 64) as usize;
            let hay = &mut backing[offset..offset + len];
            for byte in hay.iter_mut() {
                *byte = random.byte_but_newline();
            }
            check(b'\n', hay);
            for at in 0..len {
                let saved = hay[at];
                hay[at] = b'\n';
                check(b'\n', hay);
                let later = at + 1 + (random.next() as usize % (len - at));
                if later < len {
                    let saved_later = hay[later];
                    hay[later] = b'\n';
                    check(b'\n', hay);
                    hay[later] = saved_later;
                }
                hay[at] = saved;
            }
        }
    }

    fn naive(needle: u8, haystack: &[u8]) -> Search {
        let at = haystack.iter().position(|&b| b == needle);
        let before = &haystack[..at.unwrap_or(haystack.len())];
        Search {
            at,
            ascii: before.iter().all(|&b| b < 0x80),
        }
    }

    fn check(needle: u8, haystack: &[u8]) {
        let expected = naive(needle, haystack);
        for (name, search) in searches() {
            assert_eq!(
                search(needle, haystack),
                expected,
                "{name}: needle {needle:#x} in {} bytes at address offset {}: {haystack:?}",
                haystack.len(),
                haystack.as_ptr() as usize % 64,
            );
        }
    }

    #[test]
    fn agrees_with_position_on_every_length_and_placement() {
        for len in 0..40 {
            for at in 0..=len {
                for filler in [0u8, b'a', 0xff, b'\n' ^ 1, 0x80] {
                    let mut hay = vec![filler; len];
                    if at < len {
                        hay[at] = b'\n';
                    }
                    check(b'\n', &hay);
                }
            }
        }
    }

    /// Every start offset 0..32 (every alignment relative to the widest
    /// vector; the loops' blocks are placed relative to it), every length
    /// up to 256, the needle absent, at each position, at the last byte,
    /// and repeated after a first one.
    #[test]
    fn agrees_with_position_at_every_alignment() {
        // Room for the longest buffer at the largest offset.
        let mut backing = vec![b'a'; 32 + 256];
        for offset in 0..32 {
            for len in 0..=256 {
                let hay = &mut backing[offset..offset + len];
                hay.fill(b'a');
                check(b'\n', hay);
                for at in 0..len {
                    hay[at] = b'\n';
                    check(b'\n', hay);
                    // A second needle further on must not win.
                    if at + 17 < len {
                        hay[at + 17] = b'\n';
                        check(b'\n', hay);
                        hay[at + 17] = b'a';
                    }
                    hay[at] = b'a';
                }
            }
        }
    }

    #[test]
    fn finds_the_first_of_many_repeated_needles() {
        let mut backing = vec![b'\n'; 64 + 300];
        for offset in 0..64 {
            for len in 0..=300 {
                check(b'\n', &backing[offset..offset + len]);
            }
        }
        // Needles every seventh byte, from each starting phase.
        for phase in 0..7 {
            for (i, byte) in backing.iter_mut().enumerate() {
                *byte = if i % 7 == phase { b'\n' } else { b'x' };
            }
            for offset in 0..64 {
                for len in [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 255, 300] {
                    check(b'\n', &backing[offset..offset + len]);
                }
            }
        }
    }

    /// Every other byte value, at every alignment, must not match: the
    /// vector compare is exact, so bytes differing only in the sign bit or
    /// one low bit stay decoys.
    #[test]
    fn near_misses_do_not_match() {
        for needle in [0u8, b'\n', 0x7f, 0x80, 0xff] {
            let decoys: Vec<u8> = (0..=255u8).filter(|&b| b != needle).collect();
            let mut backing = vec![0u8; 16 + decoys.len() + 1];
            for offset in 0..16 {
                let hay = &mut backing[offset..offset + decoys.len() + 1];
                hay[..decoys.len()].copy_from_slice(&decoys);
                hay[decoys.len()] = needle;
                check(needle, &hay[..decoys.len()]);
                check(needle, hay);
            }
        }
    }

    #[test]
    fn finds_the_first_of_several_and_any_needle() {
        let hay: Vec<u8> = (0..=255u8).chain(0..=255u8).collect();
        for needle in 0..=255u8 {
            for (name, search) in searches() {
                assert_eq!(search(needle, &hay).at, Some(needle as usize), "{name}");
            }
        }
        check(b'x', b"abcdefghxjklmnopx");
    }

    /// ASCII text with one byte at or above 0x80 planted at each position,
    /// at every alignment to a 32-byte vector, with a needle before it,
    /// after it, or none: the byte counts only when it comes before the
    /// first needle.
    #[test]
    fn a_non_ascii_byte_counts_only_before_the_needle() {
        let mut backing = [b'a'; 32 + 160];
        for offset in 0..32 {
            for len in [
                1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 96, 127, 128, 129, 160,
            ] {
                let hay = &mut backing[offset..offset + len];
                for wide in 0..len {
                    for high in [0x80u8, 0xc3, 0xff] {
                        hay.fill(b'a');
                        hay[wide] = high;
                        check(b'\n', hay);
                        for newline in [0, wide / 2, wide + 1, len - 1] {
                            if newline < len && newline != wide {
                                hay[newline] = b'\n';
                                check(b'\n', hay);
                                hay[newline] = b'a';
                            }
                        }
                    }
                }
            }
        }
    }
}
