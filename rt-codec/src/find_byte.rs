//! Finding one byte in a buffer, for `LinesCodec`.
//!
//! A byte-by-byte `position` runs at about one byte per cycle. On x86_64
//! the search compares thirty-two bytes per instruction with AVX2 where the
//! processor has it (asked once at run time; std caches the answer), and
//! sixteen with SSE2 (part of the x86_64 baseline, so always there)
//! otherwise and for buffers shorter than 32 bytes. Elsewhere it compares
//! eight bytes per step with the classic "has a zero byte" bit trick. None
//! needs a `memchr` dependency.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod sse2;
mod swar;

/// The index of the first `needle` in `haystack`.
#[inline]
pub(crate) fn find_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
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
        swar::find_byte(needle, haystack)
    }
}

#[cfg(test)]
mod tests {
    use super::{find_byte, swar};

    /// A search: the index of the first needle in the haystack.
    type Search = fn(u8, &[u8]) -> Option<usize>;

    /// Each search under test, with a name for failure messages.
    fn searches() -> Vec<(&'static str, Search)> {
        let mut all: Vec<(&'static str, Search)> =
            vec![("find_byte", find_byte), ("swar", swar::find_byte)];
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
    fn avx2_search(needle: u8, haystack: &[u8]) -> Option<usize> {
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

    fn naive(needle: u8, haystack: &[u8]) -> Option<usize> {
        haystack.iter().position(|&b| b == needle)
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

    /// Every start offset 0..64 (so every alignment relative to a 16-byte
    /// vector and a cache line), every length up to 256, the needle absent,
    /// at each position, at the last byte, and repeated after a first one.
    #[test]
    fn agrees_with_position_at_every_alignment() {
        // Room for the longest buffer at the largest offset.
        let mut backing = vec![b'a'; 64 + 256];
        for offset in 0..64 {
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
                assert_eq!(search(needle, &hay), Some(needle as usize), "{name}");
            }
        }
        check(b'x', b"abcdefghxjklmnopx");
    }
}
