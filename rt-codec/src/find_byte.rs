//! Finding one byte in a buffer, for `LinesCodec`.
//!
//! A byte-by-byte `position` runs at about one byte per cycle. On x86_64
//! the search compares sixteen bytes per instruction with SSE2 (part of
//! the x86_64 baseline, so always there); elsewhere it compares eight bytes
//! per step with the classic "has a zero byte" bit trick. Neither needs a
//! `memchr` dependency.

#[cfg(target_arch = "x86_64")]
mod sse2;
mod swar;

/// The index of the first `needle` in `haystack`.
#[inline]
pub(crate) fn find_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
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
        all.push(("sse2", super::sse2::find_byte));
        all
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
