//! The x86_64 search: sixteen bytes per compare with SSE2, which every
//! x86_64 processor has, so no run-time feature check is needed.
//!
//! One unaligned load covers the first sixteen bytes; the loop then runs
//! over 16-byte-aligned blocks, two per step, so no load straddles a cache
//! line; the last partial block is read by one more unaligned load that
//! ends at the last byte (overlapping bytes already searched, which found
//! nothing). Buffers shorter than one vector go to the word-at-a-time
//! search, since reading past the slice is not allowed.

use core::arch::x86_64::{
    __m128i, _mm_cmpeq_epi8, _mm_load_si128, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
};

/// Bytes in one SSE2 register.
const LANES: usize = 16;

/// The index of the first `needle` in `haystack`, sixteen bytes at a time.
pub(super) fn find_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    let len = haystack.len();
    if len < LANES {
        return super::swar::find_byte(needle, haystack);
    }
    let base = haystack.as_ptr();
    // SAFETY: `len >= LANES`, so bytes 0..16 are inside `haystack`.
    let head = unsafe { unaligned_mask(base, needle) };
    if head != 0 {
        return Some(first(head));
    }
    // The first 16-byte boundary past `base`: between 1 and 16 bytes in,
    // so no byte is skipped and the head covered everything before it.
    let mut at = LANES - (base as usize % LANES);
    while at + 2 * LANES <= len {
        // SAFETY: `at + 32 <= len`, so both blocks are inside `haystack`,
        // and `base + at` is 16-byte aligned (so is `base + at + 16`).
        let mask = unsafe {
            aligned_mask(base.add(at), needle) | aligned_mask(base.add(at + LANES), needle) << 16
        };
        if mask != 0 {
            return Some(at + first(mask));
        }
        at += 2 * LANES;
    }
    if at + LANES <= len {
        // SAFETY: `at + 16 <= len` and `base + at` is 16-byte aligned.
        let mask = unsafe { aligned_mask(base.add(at), needle) };
        if mask != 0 {
            return Some(at + first(mask));
        }
        at += LANES;
    }
    if at < len {
        // SAFETY: `len >= LANES`, so the last sixteen bytes, `len - 16 ..
        // len`, are inside `haystack`.
        let mask = unsafe { unaligned_mask(base.add(len - LANES), needle) };
        // Bytes before `at` were searched and held no needle, so the first
        // set bit is at or past `at`.
        if mask != 0 {
            return Some(len - LANES + first(mask));
        }
    }
    None
}

/// The offset of the lowest set bit of a non-zero match mask.
fn first(mask: u32) -> usize {
    mask.trailing_zeros() as usize
}

/// Bit `i` is set iff byte `i` of the sixteen at `ptr` is `needle`.
///
/// # Safety
///
/// `ptr .. ptr + 16` must be readable.
#[inline(always)]
unsafe fn unaligned_mask(ptr: *const u8, needle: u8) -> u32 {
    // SAFETY: the caller promises sixteen readable bytes at `ptr`;
    // `_mm_loadu_si128` has no alignment requirement, and SSE2 is part of
    // the x86_64 baseline.
    let block = unsafe { _mm_loadu_si128(ptr.cast::<__m128i>()) };
    compare(block, needle)
}

/// As [`unaligned_mask`], for a 16-byte-aligned `ptr`.
///
/// # Safety
///
/// `ptr .. ptr + 16` must be readable and `ptr` 16-byte aligned.
#[inline(always)]
unsafe fn aligned_mask(ptr: *const u8, needle: u8) -> u32 {
    // SAFETY: the caller promises sixteen readable bytes at a 16-byte
    // aligned `ptr`, which is what `_mm_load_si128` needs; SSE2 is part
    // of the x86_64 baseline.
    let block = unsafe { _mm_load_si128(ptr.cast::<__m128i>()) };
    compare(block, needle)
}

/// One bit per byte of `block`: set where it equals `needle`.
#[inline(always)]
fn compare(block: __m128i, needle: u8) -> u32 {
    // SAFETY: the intrinsics only need SSE2, which is part of the x86_64
    // baseline, so it is present on every processor this code runs on.
    unsafe {
        let equal = _mm_cmpeq_epi8(block, _mm_set1_epi8(needle as i8));
        _mm_movemask_epi8(equal) as u32
    }
}
