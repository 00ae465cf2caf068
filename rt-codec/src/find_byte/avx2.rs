//! The x86_64 search with AVX2: thirty-two bytes per compare, on the
//! processors that have it (chosen at run time by `find_byte`).
//!
//! The shape is the SSE2 search's with twice the lanes: one unaligned load
//! covers the first 32 bytes, the main loop runs over 32-byte-aligned
//! blocks two at a time (one cache line per step), a single block may
//! follow, and one last unaligned load ends at the last byte. Buffers
//! shorter than one vector go to the SSE2 search. Every block searched
//! without a match is OR-ed into `seen`, whose top bits then say whether
//! any byte so far was not ASCII.

use core::arch::x86_64::{
    __m256i, _mm256_cmpeq_epi8, _mm256_load_si256, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_or_si256, _mm256_set1_epi8,
};

use super::Search;

/// Bytes in one AVX2 register.
pub(super) const LANES: usize = 32;

/// Bytes in one step of the main loop: one cache line.
const STEP: usize = 2 * LANES;

/// Searches `haystack` for the first `needle`, thirty-two bytes at a time.
///
/// # Safety
///
/// The processor must support AVX2 (`is_x86_feature_detected!("avx2")`).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn find_byte(needle: u8, haystack: &[u8]) -> Search {
    let len = haystack.len();
    if len < LANES {
        return super::sse2::find_byte(needle, haystack);
    }
    // SAFETY (every intrinsic below without a load): the caller promises
    // AVX2, and this function is compiled with it enabled.
    let pattern = _mm256_set1_epi8(needle as i8);
    // Bit `i` set where lane `i` of `block` equals the needle.
    let matches = |block: __m256i| _mm256_movemask_epi8(_mm256_cmpeq_epi8(block, pattern)) as u32;
    // Bit `i` set where lane `i` of `block` is not ASCII (its top bit).
    let high = |block: __m256i| _mm256_movemask_epi8(block) as u32;
    let base = haystack.as_ptr();
    // SAFETY: `len >= 32`, so bytes 0..32 are inside `haystack`;
    // `_mm256_loadu_si256` has no alignment requirement.
    let head = unsafe { _mm256_loadu_si256(base.cast::<__m256i>()) };
    let found = matches(head);
    if found != 0 {
        return Search::in_block(0, found.into(), high(head).into(), true);
    }
    let mut seen = head;
    // The first 32-byte boundary past `base`: between 1 and 32 bytes in,
    // so the head covered every byte before it.
    let mut at = LANES - (base as usize % LANES);
    while at + STEP <= len {
        // SAFETY: `at + 64 <= len`, so both blocks are inside `haystack`,
        // and `base + at` is 32-byte aligned, as `_mm256_load_si256` needs.
        let (a, b) = unsafe {
            (
                _mm256_load_si256(base.add(at).cast::<__m256i>()),
                _mm256_load_si256(base.add(at + LANES).cast::<__m256i>()),
            )
        };
        let (ea, eb) = (_mm256_cmpeq_epi8(a, pattern), _mm256_cmpeq_epi8(b, pattern));
        if _mm256_movemask_epi8(_mm256_or_si256(ea, eb)) != 0 {
            let low = u64::from(_mm256_movemask_epi8(ea) as u32);
            let upper = u64::from(_mm256_movemask_epi8(eb) as u32);
            let wide = u64::from(high(a)) | u64::from(high(b)) << 32;
            return Search::in_block(at, low | upper << 32, wide, high(seen) == 0);
        }
        seen = _mm256_or_si256(seen, _mm256_or_si256(a, b));
        at += STEP;
    }
    if at + LANES <= len {
        // SAFETY: `at + 32 <= len` and `base + at` is 32-byte aligned.
        let block = unsafe { _mm256_load_si256(base.add(at).cast::<__m256i>()) };
        let found = matches(block);
        if found != 0 {
            return Search::in_block(at, found.into(), high(block).into(), high(seen) == 0);
        }
        seen = _mm256_or_si256(seen, block);
        at += LANES;
    }
    if at < len {
        // SAFETY: `len >= 32`, so the last thirty-two bytes, `len - 32 ..
        // len`, are inside `haystack`.
        let tail = unsafe { _mm256_loadu_si256(base.add(len - LANES).cast::<__m256i>()) };
        let found = matches(tail);
        // Bytes before `at` held no needle, so the first set bit is at or
        // past `at`; the bytes it overlaps were OR-ed into `seen` already,
        // and counting them twice changes nothing.
        if found != 0 {
            let from = len - LANES;
            return Search::in_block(from, found.into(), high(tail).into(), high(seen) == 0);
        }
        seen = _mm256_or_si256(seen, tail);
    }
    Search {
        at: None,
        ascii: high(seen) == 0,
    }
}
