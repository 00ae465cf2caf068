//! The x86_64 search with AVX2: thirty-two bytes per compare, on the
//! processors that have it (chosen at run time by `find_byte`).
//!
//! The shape is the SSE2 search's with twice the lanes: one unaligned load
//! covers the first 32 bytes, the main loop runs over 32-byte-aligned
//! blocks two at a time (one cache line per step), a single block may
//! follow, and one last unaligned load ends at the last byte. Buffers
//! shorter than one vector go to the SSE2 search.

use core::arch::x86_64::{
    __m256i, _mm256_cmpeq_epi8, _mm256_load_si256, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_or_si256, _mm256_set1_epi8,
};

/// Bytes in one AVX2 register.
pub(super) const LANES: usize = 32;

/// Bytes in one step of the main loop: one cache line.
const STEP: usize = 2 * LANES;

/// The index of the first `needle` in `haystack`, thirty-two bytes at a
/// time.
///
/// # Safety
///
/// The processor must support AVX2 (`is_x86_feature_detected!("avx2")`).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn find_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    let len = haystack.len();
    if len < LANES {
        return super::sse2::find_byte(needle, haystack);
    }
    // SAFETY (every intrinsic below without a load): the caller promises
    // AVX2, and this function is compiled with it enabled.
    let pattern = _mm256_set1_epi8(needle as i8);
    let base = haystack.as_ptr();
    // SAFETY: `len >= 32`, so bytes 0..32 are inside `haystack`;
    // `_mm256_loadu_si256` has no alignment requirement.
    let head = unsafe { _mm256_loadu_si256(base.cast::<__m256i>()) };
    let head = _mm256_movemask_epi8(_mm256_cmpeq_epi8(head, pattern)) as u32;
    if head != 0 {
        return Some(head.trailing_zeros() as usize);
    }
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
        let (a, b) = (_mm256_cmpeq_epi8(a, pattern), _mm256_cmpeq_epi8(b, pattern));
        if _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0 {
            let low = u64::from(_mm256_movemask_epi8(a) as u32);
            let high = u64::from(_mm256_movemask_epi8(b) as u32);
            return Some(at + (low | high << 32).trailing_zeros() as usize);
        }
        at += STEP;
    }
    if at + LANES <= len {
        // SAFETY: `at + 32 <= len` and `base + at` is 32-byte aligned.
        let block = unsafe { _mm256_load_si256(base.add(at).cast::<__m256i>()) };
        let found = _mm256_movemask_epi8(_mm256_cmpeq_epi8(block, pattern)) as u32;
        if found != 0 {
            return Some(at + found.trailing_zeros() as usize);
        }
        at += LANES;
    }
    if at < len {
        // SAFETY: `len >= 32`, so the last thirty-two bytes, `len - 32 ..
        // len`, are inside `haystack`.
        let tail = unsafe { _mm256_loadu_si256(base.add(len - LANES).cast::<__m256i>()) };
        let tail = _mm256_movemask_epi8(_mm256_cmpeq_epi8(tail, pattern)) as u32;
        // Bytes before `at` held no needle, so the first set bit is at or
        // past `at`.
        if tail != 0 {
            return Some(len - LANES + tail.trailing_zeros() as usize);
        }
    }
    None
}
