//! The x86_64 search: sixteen bytes per compare with SSE2, which every
//! x86_64 processor has, so no run-time feature check is needed.
//!
//! One unaligned load covers the first sixteen bytes. The main loop then
//! runs over 16-byte-aligned blocks, so no load straddles a cache line,
//! four at a time: the four compare results are OR-ed and tested with one
//! `movemask`, and only the step that holds a match works out where. Up
//! to three single blocks follow, and the last partial block is read by
//! one more unaligned load that ends at the last byte (overlapping bytes
//! already searched, which held no match). Buffers shorter than one
//! vector go to the word-at-a-time search, since reading past the slice
//! is not allowed. Every block searched without a match is OR-ed into
//! `seen`, whose top bits then say whether any byte so far was not ASCII.

use core::arch::x86_64::{
    __m128i, _mm_cmpeq_epi8, _mm_load_si128, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
    _mm_set1_epi8,
};

use super::Search;

/// Bytes in one SSE2 register.
const LANES: usize = 16;

/// Bytes in one step of the main loop.
const STEP: usize = 4 * LANES;

/// Searches `haystack` for the first `needle`, sixteen bytes at a time.
pub(super) fn find_byte(needle: u8, haystack: &[u8]) -> Search {
    let len = haystack.len();
    if len < LANES {
        return Search::scalar(needle, haystack);
    }
    let pattern = splat(needle);
    let base = haystack.as_ptr();
    // SAFETY: `len >= LANES`, so bytes 0..16 are inside `haystack`.
    let head = unsafe { load_unaligned(base) };
    let found = mask(equal(head, pattern));
    if found != 0 {
        return Search::in_block(0, found.into(), mask(head).into(), true);
    }
    // Every block searched so far, OR-ed: a top bit set in a lane means
    // a byte that is not ASCII.
    let mut seen = head;
    // The first 16-byte boundary past `base`: between 1 and 16 bytes in,
    // so the head covered every byte before it.
    let mut at = LANES - (base as usize % LANES);
    while at + STEP <= len {
        // SAFETY: `at + 64 <= len`, so the four blocks are inside
        // `haystack`, and `base + at` is 16-byte aligned, so each block is.
        let blocks = unsafe { [0, 1, 2, 3].map(|i| load_aligned(base.add(at + i * LANES))) };
        let [a, b, c, d] = blocks.map(|block| equal(block, pattern));
        if mask(or(or(a, b), or(c, d))) != 0 {
            let spread = |lanes: [__m128i; 4]| {
                lanes
                    .iter()
                    .enumerate()
                    .fold(0u64, |all, (i, &l)| all | u64::from(mask(l)) << (16 * i))
            };
            let earlier_ascii = mask(seen) == 0;
            return Search::in_block(at, spread([a, b, c, d]), spread(blocks), earlier_ascii);
        }
        let [a, b, c, d] = blocks;
        seen = or(seen, or(or(a, b), or(c, d)));
        at += STEP;
    }
    while at + LANES <= len {
        // SAFETY: `at + 16 <= len` and `base + at` is 16-byte aligned.
        let block = unsafe { load_aligned(base.add(at)) };
        let found = mask(equal(block, pattern));
        if found != 0 {
            return Search::in_block(at, found.into(), mask(block).into(), mask(seen) == 0);
        }
        seen = or(seen, block);
        at += LANES;
    }
    if at < len {
        // SAFETY: `len >= LANES`, so the last sixteen bytes, `len - 16 ..
        // len`, are inside `haystack`.
        let tail = unsafe { load_unaligned(base.add(len - LANES)) };
        let found = mask(equal(tail, pattern));
        // Bytes before `at` held no needle, so the first set bit is at or
        // past `at`; the bytes it overlaps were OR-ed into `seen` already,
        // and counting them twice changes nothing.
        if found != 0 {
            let from = len - LANES;
            return Search::in_block(from, found.into(), mask(tail).into(), mask(seen) == 0);
        }
        seen = or(seen, tail);
    }
    Search {
        at: None,
        ascii: mask(seen) == 0,
    }
}

/// The sixteen bytes at `ptr`.
///
/// # Safety
///
/// `ptr .. ptr + 16` must be readable.
#[inline(always)]
unsafe fn load_unaligned(ptr: *const u8) -> __m128i {
    // SAFETY: the caller promises sixteen readable bytes at `ptr`;
    // `_mm_loadu_si128` has no alignment requirement, and SSE2 is part of
    // the x86_64 baseline.
    unsafe { _mm_loadu_si128(ptr.cast::<__m128i>()) }
}

/// The sixteen bytes at a 16-byte-aligned `ptr`.
///
/// # Safety
///
/// `ptr .. ptr + 16` must be readable and `ptr` 16-byte aligned.
#[inline(always)]
unsafe fn load_aligned(ptr: *const u8) -> __m128i {
    // SAFETY: the caller promises sixteen readable bytes at a 16-byte
    // aligned `ptr`, which is what `_mm_load_si128` needs; SSE2 is part
    // of the x86_64 baseline.
    unsafe { _mm_load_si128(ptr.cast::<__m128i>()) }
}

// The intrinsics below only need SSE2. It is part of the x86_64 baseline,
// so it is present on every processor this code runs on; the toolchains
// the crate supports still make them `unsafe` to call.

/// `byte` in all sixteen lanes.
#[inline(always)]
fn splat(byte: u8) -> __m128i {
    // SAFETY: SSE2 only, which x86_64 always has (see above).
    unsafe { _mm_set1_epi8(byte as i8) }
}

/// All ones in the lanes where `block` equals `pattern`, zero elsewhere.
#[inline(always)]
fn equal(block: __m128i, pattern: __m128i) -> __m128i {
    // SAFETY: SSE2 only, which x86_64 always has (see above).
    unsafe { _mm_cmpeq_epi8(block, pattern) }
}

/// The lanes set in either `a` or `b`.
#[inline(always)]
fn or(a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: SSE2 only, which x86_64 always has (see above).
    unsafe { _mm_or_si128(a, b) }
}

/// Bit `i` set iff the top bit of lane `i` of `lanes` is: where a compare
/// matched, or where a byte of data is not ASCII.
#[inline(always)]
fn mask(lanes: __m128i) -> u32 {
    // SAFETY: SSE2 only, which x86_64 always has (see above).
    unsafe { _mm_movemask_epi8(lanes) as u32 }
}
